/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The triggers of tracectl start and record: their options (parsed with
 * the others of start), the snapshot directory opened with the caller's
 * rights and checked to be the caller's, and the request that arms them
 * (control_proto.h).
 */
#ifndef FXT_TRACECTL_START_TRIGGERS_H
#define FXT_TRACECTL_START_TRIGGERS_H

#include <stdbool.h>

#include "control_proto.h"

enum {
	START_OPT_TRIGGER = 0x100,
	START_OPT_SNAPSHOT_DIR,
	START_OPT_TRIGGER_DELAY,
	START_OPT_TRIGGER_LIMIT,
	START_OPT_TRIGGER_LATENCY,
	START_OPT_SNAPSHOT_MAX_BYTES,
	START_OPT_SNAPSHOT_MAX_FILES,
};

struct start_triggers {
	struct fxt_ctl_triggers req;	/* dir: absolute, set by the caller */
	const char *dir;		/* --snapshot-dir as given */
	bool with_triggers_only;	/* an option that needs a trigger */
};

void start_triggers_init(struct start_triggers *t);
/* Whether any trigger is armed (--trigger, --trigger-latency). */
bool start_triggers_any(const struct start_triggers *t);
/*
 * Option c (getopt_long's) with its argument: 0 taken, -EINVAL after
 * saying why, 1 when it is not one of START_OPT_*.
 */
int start_triggers_option(const char *cmd, int c, const char *arg,
			  struct start_triggers *t);
/* After the options: 0, or -EINVAL after saying why. */
int start_triggers_check(const char *cmd, const struct start_triggers *t,
			 unsigned int mode);
/*
 * Opens req.dir (its trailing '/' dropped) with the caller's rights, its
 * last component no symbolic link, and checks it is the caller's
 * (snapshot_dir.h): the descriptor, or -1 after saying why and what to do.
 */
int start_triggers_open_dir(const char *cmd, struct start_triggers *t);

#endif /* FXT_TRACECTL_START_TRIGGERS_H */
