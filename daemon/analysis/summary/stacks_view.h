/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The summary's stack samples (trace_summary.h: stacks, profile) in the
 * views tracectl summary and report show, each summed into the view's
 * tally (stack_tally.h) of the processes the summary keeps to:
 * on-CPU samples overall (1 per sample), per thread, within a thread's
 * time range (a slice), and off-CPU samples (their blocked time).
 */
#ifndef FXT_STACKS_VIEW_H
#define FXT_STACKS_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt_saturate.h"
#include "stack_tally.h"
#include "trace_summary.h"

/* Functions listed per view, and threads, unless told. */
#define STACKS_VIEW_TOP_DEFAULT 10u

/* A share under 1/STACKS_VIEW_NARROWEST (0.05%) reads 0.0%, and is too
 * narrow to draw: the views leave it out.
 */
#define STACKS_VIEW_NARROWEST 2000u

static inline bool stacks_view_visible(uint64_t part, uint64_t whole)
{
	return part && fxt_sat_mul(part, STACKS_VIEW_NARROWEST) >= whole;
}

struct stacks_view {
	const struct trace_summary *s;
	const struct stack_profile *p;
	struct stack_tally tally;
	uint32_t *order;	/* kept on-CPU samples by thread, then time */
	size_t norder;
	uint64_t offcpu;	/* kept off-CPU samples */
};

struct stacks_thread {
	uint64_t tid, pid;
	size_t first, count;	/* in order */
};

/* Whether there is anything to show: stack records, or --slice. */
bool stacks_view_wanted(const struct trace_summary *s);

/* 0 or -ENOMEM. */
int stacks_view_init(struct stacks_view *v, const struct trace_summary *s);
void stacks_view_free(struct stacks_view *v);

void stacks_view_oncpu(struct stacks_view *v);
void stacks_view_offcpu(struct stacks_view *v);
/* The on-CPU samples of thread tid from start_ns to end_ns. */
void stacks_view_range(struct stacks_view *v, uint64_t tid, uint64_t start_ns,
		       uint64_t end_ns);
void stacks_view_thread(struct stacks_view *v, const struct stacks_thread *t);

/* Who blocked in an off-CPU stack of the view. */
struct stacks_blocker {
	uint64_t tid, pid;	/* the thread of its longest block */
	uint64_t longest_ns;
	bool known;		/* a kept sample blocked in it */
	bool others;		/* other threads blocked in it too */
};

/*
 * Who blocked in each of the n off-CPU stacks st (stacks_view_offcpu()'s
 * top stacks, distinct leaves), into out[n]. 0 or -ENOMEM.
 */
int stacks_view_blockers(const struct stacks_view *v,
			 const struct stack_tally_stack *st, size_t n,
			 struct stacks_blocker *out);

/* The first n threads by on-CPU samples, most first; how many. */
size_t stacks_view_threads(const struct stacks_view *v,
			   struct stacks_thread *out, size_t n);

/* The sample of order position i. */
static inline const struct stack_sample *
stacks_view_sample(const struct stacks_view *v, size_t i)
{
	return &v->s->stacks.samples[v->order[i]];
}

#endif /* FXT_STACKS_VIEW_H */
