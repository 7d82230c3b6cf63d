/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Provider triggers of a circular trace: a provider's
 * FXT_MSG_PROVIDER_TRIGGER of an armed name becomes a snapshot in the
 * directory tracectl passed, NAME-<UTC time>.fxt, after the armed delay,
 * at most limit per name and second, within the trace's snapshot budget.
 * Names not armed are ignored.
 */
#ifndef FXT_TRIGGER_H
#define FXT_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <fxt/provider_abi.h>

#include "control_proto.h"
#include "reply.h"

struct manager;
struct provider;
struct trace_state;

/* The last snapshots status lists. */
#define TRIGGER_HISTORY 8

/* Takes dir_fd. 0, or -errno with the reason in note. */
int triggers_arm(struct manager *m, const struct fxt_ctl_triggers *req,
		 int dir_fd, uid_t owner, char *note, size_t note_len);
void triggers_fire(struct manager *m, const struct provider *p,
		   const struct fxt_msg_trigger *msg);
/* The trace ends: delayed snapshots not taken yet are dropped. */
void triggers_disarm(struct manager *m);
/* The triggers' rows, the budget's, the last snapshots' to ctx. */
int triggers_send_status(struct manager *m, reply_fn reply, void *ctx);
/*
 * Into the trace's state file (trace_state.h): the armed triggers, their
 * owner and directory, the snapshots they keep. Nothing when none are.
 */
void triggers_save_state(const struct manager *m, struct trace_state *st);
/*
 * After a restart resumed the trace: the triggers st says were armed,
 * armed again with their directory (from the descriptor store, else by
 * its name, only while it is theirs) and the snapshots they kept.
 */
void triggers_rearm(struct manager *m, const struct trace_state *st);

#endif /* FXT_TRIGGER_H */
