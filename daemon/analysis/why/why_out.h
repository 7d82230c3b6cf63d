/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tracectl why prints: each interval's tree read top-down, biggest
 * share first, with the percentage of the interval's wall time, then
 * the critical path (the chain of wakers that held it up the most); or
 * the same as JSON. Names from the archive are escaped.
 */
#ifndef FXT_WHY_OUT_H
#define FXT_WHY_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "text_out.h"
#include "trace_summary.h"
#include "why_path.h"

struct why_report {
	const char *slice;	/* --slice NAME, or NULL */
	uint64_t slices_seen;	/* instances of it */
	const struct trace_summary *summary;	/* thread names */
	const struct stack_profile *profile;	/* NULL: no samples */
	bool oncpu, offcpu;	/* samples of each kind recorded */
	bool irq, mem;		/* kernel:irq, kernel:mem records */
	const struct why_tree *trees;
	size_t ntrees;
	uint64_t sched_records;	/* in the whole archive */
	uint64_t events_dropped;	/* past WHY_EVENTS_MAX */
	uint64_t overlays_lost;	/* interrupts, stalls, slices: unpaired, past the maxima */
	uint64_t flows_lost;	/* past WHY_FLOWS_MAX */
	bool html_safe;		/* JSON for a <script> element */
};

void why_text_write(FILE *out, const struct why_report *r);
/* 0 or -errno of the output. */
int why_json_write(struct text_out *o, const struct why_report *r);

/*
 * The path of a tree: its root, then each blocked node the chain
 * follows (the biggest blocked child with a waker, at each hop); n
 * nodes at most. Returns how many.
 */
size_t why_path_hops(const struct why_tree *t, uint32_t *out, size_t n);

#endif /* FXT_WHY_OUT_H */
