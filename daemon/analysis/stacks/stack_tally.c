// SPDX-License-Identifier: GPL-2.0-only
/* Sample weights by leaf and by function: stack_tally.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_saturate.h"
#include "stack_tally.h"

int stack_tally_init(struct stack_tally *t, const struct stack_profile *p)
{
	size_t nn = p->nnodes + 1ull, nf = p->nfunctions + 1ull;

	memset(t, 0, sizeof(*t));
	t->p = p;
	t->node_weight = calloc(nn, sizeof(uint64_t));
	t->node_count = calloc(nn, sizeof(uint64_t));
	t->nodes = calloc(nn, sizeof(uint32_t));
	t->self = calloc(nf, sizeof(uint64_t));
	t->total = calloc(nf, sizeof(uint64_t));
	t->stamp = calloc(nf, sizeof(uint32_t));
	t->functions = calloc(nf, sizeof(uint32_t));
	if (!t->node_weight || !t->node_count || !t->nodes || !t->self ||
	    !t->total || !t->stamp || !t->functions) {
		stack_tally_free(t);
		return -ENOMEM;
	}
	return 0;
}

void stack_tally_free(struct stack_tally *t)
{
	free(t->node_weight);
	free(t->node_count);
	free(t->nodes);
	free(t->self);
	free(t->total);
	free(t->stamp);
	free(t->functions);
	memset(t, 0, sizeof(*t));
}

static void clear_functions(struct stack_tally *t)
{
	uint32_t i;

	for (i = 0; i < t->nfunctions; i++) {
		t->self[t->functions[i]] = 0;
		t->total[t->functions[i]] = 0;
		t->stamp[t->functions[i]] = 0;
	}
	t->nfunctions = 0;
}

void stack_tally_reset(struct stack_tally *t)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++) {
		t->node_weight[t->nodes[i]] = 0;
		t->node_count[t->nodes[i]] = 0;
	}
	t->nnodes = 0;
	clear_functions(t);
	t->weight = t->count = 0;
}

void stack_tally_sum(struct stack_tally *t)
{
	const struct stack_node *nodes = t->p->nodes;
	uint32_t i, node, fn;

	clear_functions(t);
	for (i = 0; i < t->nnodes; i++) {
		uint64_t w = t->node_weight[t->nodes[i]];

		node = t->nodes[i];
		fn = nodes[node].function;
		t->self[fn] = fxt_sat_add(t->self[fn], w);
		for (; node != STACK_NO_NODE; node = nodes[node].parent) {
			fn = nodes[node].function;
			if (!t->stamp[fn])
				t->functions[t->nfunctions++] = fn;
			if (t->stamp[fn] == i + 1)
				continue;	/* recursion: once per leaf */
			t->stamp[fn] = i + 1;
			t->total[fn] = fxt_sat_add(t->total[fn], w);
		}
	}
}

static int by_self(const void *a, const void *b)
{
	const struct stack_tally_function *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->function < y->function ? -1 : x->function > y->function;
}

static int by_total(const void *a, const void *b)
{
	const struct stack_tally_function *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return by_self(a, b);
}

size_t stack_tally_top_functions(const struct stack_tally *t,
				 struct stack_tally_function *out, size_t n)
{
	struct stack_tally_function *all;
	size_t i, k, m = t->nfunctions;

	all = calloc(m + 1, sizeof(*all));
	if (!all)
		return 0;
	for (i = 0; i < m; i++) {
		all[i].function = t->functions[i];
		all[i].self = t->self[t->functions[i]];
		all[i].total = t->total[t->functions[i]];
	}
	qsort(all, m, sizeof(*all), by_self);
	k = m < n ? m : n;
	memcpy(out, all, k * sizeof(*all));
	/* the first n by total that the first n by self left out */
	qsort(all, m, sizeof(*all), by_total);
	for (i = 0; i < m && i < n; i++) {
		size_t j;

		for (j = 0; j < k && out[j].function != all[i].function; j++)
			;
		if (j == k)
			out[k++] = all[i];
	}
	free(all);
	qsort(out, k, sizeof(*out), by_self);
	return k;
}

static int by_weight(const void *a, const void *b)
{
	const struct stack_tally_stack *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->leaf < y->leaf ? -1 : x->leaf > y->leaf;
}

size_t stack_tally_top_stacks(const struct stack_tally *t,
			      struct stack_tally_stack *out, size_t n)
{
	struct stack_tally_stack *all = calloc(t->nnodes + 1ull, sizeof(*all));
	size_t i, k;

	if (!all)
		return 0;
	for (i = 0; i < t->nnodes; i++) {
		all[i].leaf = t->nodes[i];
		all[i].weight = t->node_weight[t->nodes[i]];
		all[i].count = t->node_count[t->nodes[i]];
	}
	qsort(all, t->nnodes, sizeof(*all), by_weight);
	k = t->nnodes < n ? t->nnodes : n;
	memcpy(out, all, k * sizeof(*all));
	free(all);
	return k;
}
