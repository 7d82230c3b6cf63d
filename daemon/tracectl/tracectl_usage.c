// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every tracectl subcommand says of --help, --version and of
 * arguments it does not take (tracectl.h), in the style of usage_error.h.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fxtrace_config.h"
#include "tracectl.h"
#include "usage_error.h"

void tracectl_version_exit(void)
{
	usage_version_exit("tracectl", FXTRACE_VERSION);
}

int tracectl_stray(const char *prog, const char *arg)
{
	if (arg[0] == '-' && arg[1])
		usage_error(prog, "unknown option '%s'", arg);
	else
		usage_error(prog, "unexpected argument '%s'", arg);
	return TRACECTL_EXIT_USAGE;
}

int tracectl_bad_value(const char *cmd, const char *option, const char *arg,
		       const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tracectl %s: --%s %s: ", cmd, option, arg);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

int tracectl_one_input(const char *prog, int argc, char **argv)
{
	if (optind < argc - 1) {
		tracectl_stray(prog, argv[optind + 1]);
		return -1;
	}
	if (optind != argc - 1) {
		usage_error(prog, "no input FILE given ('-' reads stdin)");
		return -1;
	}
	return 0;
}

bool tracectl_help_or_version(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--version"))
		tracectl_version_exit();
	return argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
}
