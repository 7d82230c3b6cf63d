/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command line of the commands that read one archive (dump, convert,
 * summary, report): FILE, the options they share (--force, --help,
 * --version, and where a command takes them -o/--output and the scope
 * options of tracectl_scope.h), then each command's own.
 */
#ifndef FXT_TRACECTL_INPUT_ARGS_H
#define FXT_TRACECTL_INPUT_ARGS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "process_tree.h"
#include "usage_error.h"

enum { TRACECTL_INPUT_OPT_FORCE = 0x1100 };

/* --force, --help and --version, in every such command's option table. */
#define TRACECTL_INPUT_LONGOPTS                                              \
	{ "force", no_argument, NULL, TRACECTL_INPUT_OPT_FORCE },            \
	{ "help", no_argument, NULL, 'h' }, USAGE_VERSION_LONGOPT
/* -o, --output FILE, with "o:" in the short options. */
#define TRACECTL_INPUT_OUTPUT_LONGOPT                                        \
	{ "output", required_argument, NULL, 'o' }

struct tracectl_input_args {
	const char *input;	/* FILE: '-' is stdin */
	const char *output;	/* -o, NULL when not given */
	bool force;
	struct process_tree_options process;	/* --all, --pid, --process */
	char *default_output;	/* what output points to, when made */
};

struct tracectl_input_command {
	const char *name;	/* "summary", as in its messages */
	const char *shortopts;	/* for getopt_long(), e.g. "n:h" */
	const struct option *longopts;
	void (*usage)(FILE *out);
	/* an option of the command's own into ctx: 0, or -1 after saying why */
	int (*option)(void *ctx, int opt, const char *arg);
};

/*
 * argv (argv[0] the subcommand's prog, "tracectl summary") into a and,
 * through cmd->option, the command's own options into ctx: 0, 1 after
 * --help, -1 after a usage error.
 */
int tracectl_input_args(int argc, char **argv,
			const struct tracectl_input_command *cmd, void *ctx,
			struct tracectl_input_args *a);

/*
 * Without -o, the output of a command that writes a file: stdout for
 * input from stdin, else FILE with its .fxt suffix replaced by suffix
 * (tracectl_output_name()). 0, or -ENOMEM after saying so.
 */
int tracectl_input_args_output(struct tracectl_input_args *a,
			       const char *cmd, const char *suffix);
void tracectl_input_args_done(struct tracectl_input_args *a);

#endif /* FXT_TRACECTL_INPUT_ARGS_H */
