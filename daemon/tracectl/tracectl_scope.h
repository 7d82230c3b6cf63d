/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The processes tracectl summary and report keep to: --all, --pid PID,
 * --process NAME (process_tree.h); by default the command's process tree
 * in an archive of tracectl record, every process otherwise.
 */
#ifndef FXT_TRACECTL_SCOPE_H
#define FXT_TRACECTL_SCOPE_H

#include <getopt.h>
#include <stdio.h>

#include "process_tree.h"

enum {
	TRACECTL_SCOPE_OPT_ALL = 0x1000,
	TRACECTL_SCOPE_OPT_PID,
	TRACECTL_SCOPE_OPT_PROCESS,
};

#define TRACECTL_SCOPE_LONGOPTS                                              \
	{ "all", no_argument, NULL, TRACECTL_SCOPE_OPT_ALL },                \
	{ "pid", required_argument, NULL, TRACECTL_SCOPE_OPT_PID },          \
	{ "process", required_argument, NULL, TRACECTL_SCOPE_OPT_PROCESS }

/* The options' lines of --help. */
#define TRACECTL_SCOPE_HELP                                                  \
	"      --all          every process (default for an archive not\n"   \
	"                     made by tracectl record: that one keeps to the\n" \
	"                     command's process and the processes it started)\n" \
	"      --pid PID      process PID and the processes it started\n"    \
	"      --process NAME the processes named NAME and those they started\n"

/*
 * opt, one of the TRACECTL_SCOPE_OPT_*, with its argument into o: 0, or
 * -EINVAL after saying why on stderr (one choice of the three).
 */
int tracectl_scope_option(const char *cmd, int opt, const char *arg,
			  struct process_tree_options *o);

#endif /* FXT_TRACECTL_SCOPE_H */
