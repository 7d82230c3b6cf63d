/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The flows of why_sched.h: FXT flow events (begin, step, end of one
 * id), the edges between slices of different threads, processes or, in
 * a merged archive, hosts. A thread blocked without a waker the
 * scheduling records name (a reply over the network), or with no
 * scheduling record at all, waited for the slice its flow went on to.
 */
#ifndef FXT_WHY_FLOW_H
#define FXT_WHY_FLOW_H

#include "why_sched.h"

/* A flow event record; 0 or -ENOMEM. */
int why_flow_take(struct why_sched *ws, const struct fxt_record *rec);
/* Sorts them; 0 or -ENOMEM. */
int why_flow_finish(struct why_sched *ws);
void why_flow_free(struct why_sched *ws);

/* The index in flows_by_thread of tid's first flow event at or after ts. */
size_t why_flow_thread_from(const struct why_sched *ws, uint64_t tid,
			    uint64_t ts);
/* The event after f of its flow, or NULL. */
const struct why_flow *why_flow_next(const struct why_sched *ws,
				     const struct why_flow *f);
/* The innermost slice of thread tid around ts, or NULL. */
const struct why_overlay *why_slice_at(const struct why_sched *ws,
				       uint64_t tid, uint64_t ts);

#endif /* FXT_WHY_FLOW_H */
