/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scheduler tracepoint probes writing include/fxt/sched.h records into
 * the session's per-CPU rings.
 */
#ifndef FXT_PROBES_H
#define FXT_PROBES_H

#include "fxt_session.h"

/* Finds the tracepoints (they are not exported to modules). */
int fxt_probes_init(void);
/* FXT_SCHED_EV_* whose tracepoints this kernel lacks. */
u32 fxt_probes_missing(void);
/* Registers the probes of s->events; writes every task's names first. */
int fxt_probes_start(struct fxt_session *s);
/*
 * Arms the wakeup-latency check at threshold_ns (0: off), clearing the
 * wakeup times a previous arming left. Under s->lock.
 */
void fxt_probes_set_latency(struct fxt_session *s, u64 threshold_ns);
/* Unregisters and waits until no probe runs any more. */
void fxt_probes_stop(struct fxt_session *s);

#endif /* FXT_PROBES_H */
