/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options of tracectl start and record (record's take the same but
 * --duration): parsed into the START request and its triggers, and their
 * --help.
 */
#ifndef FXT_TRACECTL_START_OPTIONS_H
#define FXT_TRACECTL_START_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "control_proto.h"
#include "start_triggers.h"

struct start_options {
	struct fxt_ctl_start req;
	struct start_triggers triggers;
	bool help;
	const char *output;	/* -o as given */
	unsigned int npids;	/* --pid given so far */
};

/*
 * argv's options (up to optind; "+": record's command stays) for cmd
 * ("start", "record"): 0, or -EINVAL after a usage error said on stderr
 * (TRACECTL_EXIT_USAGE). --help sets help and stops there.
 */
int start_options_parse(const char *cmd, int argc, char **argv,
			struct start_options *o);
/* The --help of cmd ("start", "record"). */
void start_options_usage(FILE *out, const char *cmd);
/* A buffering mode (FXT_BUFFERING_*) as --mode names it. */
const char *start_mode_name(unsigned int mode);

#endif /* FXT_TRACECTL_START_OPTIONS_H */
