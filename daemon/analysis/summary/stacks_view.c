// SPDX-License-Identifier: GPL-2.0-only
/* The summary's stack samples by view: stacks_view.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stacks_view.h"

bool stacks_view_wanted(const struct trace_summary *s)
{
	return s->stacks_seen || s->watch.name;
}

static bool kept(const struct stacks_view *v, const struct stack_sample *x)
{
	return process_tree_has(&v->s->tree, x->pid);
}

static int by_thread_time(const void *a, const void *b, void *samples)
{
	const struct stack_sample *x = samples, *y = samples;

	x += *(const uint32_t *)a;
	y += *(const uint32_t *)b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

int stacks_view_init(struct stacks_view *v, const struct trace_summary *s)
{
	const struct stack_tables *t = &s->stacks;
	size_t i;
	int err;

	memset(v, 0, sizeof(*v));
	v->s = s;
	v->p = &s->profile;
	err = stack_tally_init(&v->tally, v->p);
	v->order = calloc(t->nsamples + 1, sizeof(*v->order));
	if (err || !v->order) {
		stacks_view_free(v);
		return -ENOMEM;
	}
	for (i = 0; i < t->nsamples && v->p->sample_leaf; i++) {
		if (!kept(v, &t->samples[i]))
			continue;
		if (t->samples[i].offcpu)
			v->offcpu++;
		else
			v->order[v->norder++] = (uint32_t)i;
	}
	qsort_r(v->order, v->norder, sizeof(*v->order), by_thread_time,
		t->samples);
	return 0;
}

void stacks_view_free(struct stacks_view *v)
{
	stack_tally_free(&v->tally);
	free(v->order);
	memset(v, 0, sizeof(*v));
}

void stacks_view_oncpu(struct stacks_view *v)
{
	size_t i;

	stack_tally_reset(&v->tally);
	for (i = 0; i < v->norder; i++)
		stack_tally_add(&v->tally, v->p->sample_leaf[v->order[i]], 1);
	stack_tally_sum(&v->tally);
}

void stacks_view_offcpu(struct stacks_view *v)
{
	const struct stack_tables *t = &v->s->stacks;
	size_t i;

	stack_tally_reset(&v->tally);
	for (i = 0; i < t->nsamples && v->p->sample_leaf; i++)
		if (t->samples[i].offcpu && kept(v, &t->samples[i]))
			stack_tally_add(&v->tally, v->p->sample_leaf[i],
					t->samples[i].weight_ns);
	stack_tally_sum(&v->tally);
}

struct leaf_at {
	uint32_t leaf;
	size_t at;	/* in the caller's st[] */
};

static int by_leaf(const void *a, const void *b)
{
	const struct leaf_at *x = a, *y = b;

	return (x->leaf > y->leaf) - (x->leaf < y->leaf);
}

static void blocked_by(struct stacks_blocker *b, const struct stack_sample *x)
{
	if (b->known && x->tid != b->tid)
		b->others = true;
	if (!b->known || x->weight_ns > b->longest_ns) {
		b->known = true;
		b->tid = x->tid;
		b->pid = x->pid;
		b->longest_ns = x->weight_ns;
	}
}

/* One pass over the samples, each leaf looked up among the n. */
int stacks_view_blockers(const struct stacks_view *v,
			 const struct stack_tally_stack *st, size_t n,
			 struct stacks_blocker *out)
{
	const struct stack_tables *t = &v->s->stacks;
	struct leaf_at *leaves = calloc(n + 1, sizeof(*leaves));
	size_t i;

	if (!leaves)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		leaves[i] = (struct leaf_at){ st[i].leaf, i };
		out[i] = (struct stacks_blocker){ 0 };
	}
	qsort(leaves, n, sizeof(*leaves), by_leaf);
	for (i = 0; i < t->nsamples && v->p->sample_leaf && n; i++) {
		struct leaf_at key = { v->p->sample_leaf[i], 0 }, *hit;

		if (!t->samples[i].offcpu || !kept(v, &t->samples[i]))
			continue;
		hit = bsearch(&key, leaves, n, sizeof(*leaves), by_leaf);
		if (hit)
			blocked_by(&out[hit->at], &t->samples[i]);
	}
	free(leaves);
	return 0;
}

/* The first order position of thread tid at or after ts. */
static size_t lower_bound(const struct stacks_view *v, uint64_t tid,
			  uint64_t ts)
{
	size_t lo = 0, hi = v->norder;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct stack_sample *x = stacks_view_sample(v, mid);

		if (x->tid < tid || (x->tid == tid && x->ts_ns < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void stacks_view_range(struct stacks_view *v, uint64_t tid, uint64_t start_ns,
		       uint64_t end_ns)
{
	size_t i;

	stack_tally_reset(&v->tally);
	for (i = lower_bound(v, tid, start_ns); i < v->norder; i++) {
		const struct stack_sample *x = stacks_view_sample(v, i);

		if (x->tid != tid || x->ts_ns > end_ns)
			break;
		stack_tally_add(&v->tally, v->p->sample_leaf[v->order[i]], 1);
	}
	stack_tally_sum(&v->tally);
}

void stacks_view_thread(struct stacks_view *v, const struct stacks_thread *t)
{
	size_t i;

	stack_tally_reset(&v->tally);
	for (i = t->first; i < t->first + t->count; i++)
		stack_tally_add(&v->tally, v->p->sample_leaf[v->order[i]], 1);
	stack_tally_sum(&v->tally);
}

static int by_count(const void *a, const void *b)
{
	const struct stacks_thread *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

size_t stacks_view_threads(const struct stacks_view *v,
			   struct stacks_thread *out, size_t n)
{
	size_t i = 0, k = 0;

	/* runs of one thread; only the n biggest are kept */
	while (i < v->norder) {
		const struct stack_sample *x = stacks_view_sample(v, i);
		struct stacks_thread t = { x->tid, x->pid, i, 0 };

		while (i < v->norder && stacks_view_sample(v, i)->tid == t.tid)
			i++;
		t.count = i - t.first;
		if (k < n) {
			out[k++] = t;
		} else if (n && by_count(&t, &out[n - 1]) < 0) {
			out[n - 1] = t;
		} else {
			continue;
		}
		qsort(out, k, sizeof(*out), by_count);
	}
	return k;
}
