// SPDX-License-Identifier: GPL-2.0-only
/* The reading commands' command line: see tracectl_input_args.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracectl.h"
#include "tracectl_input.h"
#include "tracectl_input_args.h"
#include "tracectl_scope.h"

/* One option: 0, 1 after --help, -1 after a usage error. */
static int take_option(char **argv, const struct tracectl_input_command *cmd,
		       void *ctx, int opt, struct tracectl_input_args *a)
{
	switch (opt) {
	case 'o':
		a->output = optarg;
		return 0;
	case TRACECTL_INPUT_OPT_FORCE:
		a->force = true;
		return 0;
	case 'h':
		cmd->usage(stdout);
		return 1;
	case TRACECTL_SCOPE_OPT_ALL:
	case TRACECTL_SCOPE_OPT_PID:
	case TRACECTL_SCOPE_OPT_PROCESS:
		return tracectl_scope_option(cmd->name, opt, optarg,
					     &a->process) ? -1 : 0;
	case USAGE_OPT_VERSION:
		tracectl_version_exit();
	case '?':
	case ':':
		usage_bad_option(argv[0], argv, cmd->shortopts);
		return -1;
	default:
		return cmd->option ? cmd->option(ctx, opt, optarg) : -1;
	}
}

int tracectl_input_args(int argc, char **argv,
			const struct tracectl_input_command *cmd, void *ctx,
			struct tracectl_input_args *a)
{
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, cmd->shortopts, cmd->longopts,
				  NULL)) != -1) {
		ret = take_option(argv, cmd, ctx, opt, a);
		if (ret)
			return ret;
	}
	if (tracectl_one_input(argv[0], argc, argv))
		return -1;
	a->input = argv[optind];
	return 0;
}

int tracectl_input_args_output(struct tracectl_input_args *a,
			       const char *cmd, const char *suffix)
{
	if (a->output)
		return 0;
	if (!strcmp(a->input, "-")) {
		a->output = "-";
		return 0;
	}
	a->default_output = tracectl_output_name(a->input, suffix);
	if (!a->default_output) {
		fprintf(stderr, "tracectl %s: out of memory\n", cmd);
		return -ENOMEM;
	}
	a->output = a->default_output;
	return 0;
}

void tracectl_input_args_done(struct tracectl_input_args *a)
{
	free(a->default_output);
	a->default_output = NULL;
}
