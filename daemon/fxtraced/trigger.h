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
struct snapshot_kept;

/* The last snapshots status lists. */
#define TRIGGER_HISTORY 8

/* Takes dir_fd. 0, or -errno with the reason in note. */
int triggers_arm(struct manager *m, const struct fxt_ctl_triggers *req,
		 int dir_fd, uid_t owner, char *note, size_t note_len);
void triggers_fire(struct manager *m, const struct provider *p,
		   const struct fxt_msg_trigger *msg);
/* The trace ends: delayed snapshots not taken yet are dropped. */
void triggers_disarm(struct manager *m);
/*
 * The armed triggers as the request that would arm them again (a
 * restart), their owner and directory; false when none are armed.
 */
bool triggers_request(const struct manager *m, struct fxt_ctl_triggers *req,
		      uid_t *owner, int *dir_fd);
/* The triggers' rows, the budget's, the last snapshots' to ctx. */
int triggers_send_status(struct manager *m, reply_fn reply, void *ctx);
/*
 * The snapshots the armed triggers keep (snapshot_budget.h), at most max
 * of them, into kept, for the state file; their number.
 */
size_t triggers_kept(const struct manager *m, struct snapshot_kept *kept,
		     size_t max);
/*
 * After a restart, once armed again: the snapshots kept before it count
 * in the budget again, those that still are the files written (named
 * for an armed trigger).
 */
void triggers_keep_again(struct manager *m, const struct snapshot_kept *kept,
			 size_t n);

#endif /* FXT_TRIGGER_H */
