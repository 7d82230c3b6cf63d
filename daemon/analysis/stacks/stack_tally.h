/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Weights of samples summed by call-tree leaf, then by function: a
 * function's self weight is that of the samples it is the leaf of, its
 * total weight that of the samples it is anywhere in (once per sample,
 * however deep it recurses). The weight is 1 per sample for the on-CPU
 * profile, the blocked nanoseconds for the off-CPU one.
 *
 * Work is per distinct leaf, not per sample: adding is O(1), the
 * function totals walk each leaf's path to the root once.
 */
#ifndef FXT_STACK_TALLY_H
#define FXT_STACK_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "stack_profile.h"

struct stack_tally {
	const struct stack_profile *p;
	uint64_t *node_weight, *node_count;	/* per node */
	uint32_t *nodes;	/* the leaves added to, in order */
	uint32_t nnodes;
	uint64_t *self, *total;	/* per function, after stack_tally_sum */
	uint32_t *stamp;	/* per function: the walk that counted it */
	uint32_t *functions;	/* those with a weight */
	uint32_t nfunctions;
	uint64_t weight, count;	/* of all samples added */
};

struct stack_tally_function {
	uint32_t function;
	uint64_t self, total;
};

struct stack_tally_stack {
	uint32_t leaf;
	uint64_t weight, count;
};

int stack_tally_init(struct stack_tally *t, const struct stack_profile *p);
void stack_tally_free(struct stack_tally *t);
/* Back to no sample, in the time of what was added. */
void stack_tally_reset(struct stack_tally *t);

static inline void stack_tally_add(struct stack_tally *t, uint32_t leaf,
				   uint64_t weight)
{
	if (leaf == STACK_NO_NODE)
		return;
	if (!t->node_count[leaf])
		t->nodes[t->nnodes++] = leaf;
	t->node_count[leaf]++;
	t->node_weight[leaf] += weight;
	if (t->node_weight[leaf] < weight)
		t->node_weight[leaf] = UINT64_MAX;
	t->weight = t->weight + weight < weight ? UINT64_MAX :
						  t->weight + weight;
	t->count++;
}

/* The function weights of what was added so far. */
void stack_tally_sum(struct stack_tally *t);

/*
 * The top functions after stack_tally_sum: the first n by self weight
 * and the first n by total weight (a function in both once), by self
 * weight then total weight, most first. Returns how many (<= 2n).
 */
size_t stack_tally_top_functions(const struct stack_tally *t,
				 struct stack_tally_function *out, size_t n);

/* The first n leaves by weight, most first. Returns how many. */
size_t stack_tally_top_stacks(const struct stack_tally *t,
			      struct stack_tally_stack *out, size_t n);

#endif /* FXT_STACK_TALLY_H */
