/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The collected stack tables (stack_tables.h) as users see them:
 *
 * - functions: each frame's display name with its category, the same
 *   name and category being one function. A frame's name is its symbol,
 *   else its kernel name, else "basename(mapping)+0xVADDR"; its category
 *   is "kernel" or the basename of its mapping ("[unknown]" for a user
 *   frame of mapping 0, in no mapping the manager knew). Frames, stacks or
 *   mappings an entry names but the tables lack become "[missing frame]"
 *   and "[missing]+0xVADDR" (category "[missing]"), counted;
 * - the call tree: one node per distinct root-first prefix of functions
 *   over all stacks (the Trace Event Format's stackFrames, the flame
 *   graphs); each stack maps to its leaf node.
 *
 * Its memory (functions, generated names, nodes, the per-frame, -stack
 * and -sample arrays) counts against STACKS_PROFILE_BYTES_MAX: past it,
 * new functions are "[past the limit]" and stacks are cut below the
 * last node that fit, counted.
 */
#ifndef FXT_STACK_PROFILE_H
#define FXT_STACK_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hash_index.h"
#include "stack_tables.h"

#define STACK_NO_NODE UINT32_MAX
#define STACKS_PROFILE_BYTES_MAX (24u << 20)

struct stack_function {
	const char *name;	/* into the tables, or owned (a made-up one) */
	uint32_t name_len;
	bool owned;
	const char *category;	/* into the profile's strings */
	uint32_t category_len;
	/* Frames of it seen inline frames, and seen others. */
	bool inline_frames, other_frames;
};

/*
 * Whether a function is shown as inlined: each of its frames is an
 * inline frame (one also called out of line is a function like any).
 */
static inline bool stack_function_inlined(const struct stack_function *f)
{
	return f->inline_frames && !f->other_frames;
}

struct stack_node {
	uint32_t function;
	uint32_t parent;	/* STACK_NO_NODE at a root */
};

struct stack_profile_stats {
	uint64_t missing_frames;	/* frame ids of stacks not defined */
	uint64_t missing_mappings;	/* mapping ids of frames not defined */
	uint64_t samples_without_stack;	/* stack id not defined */
	uint64_t functions_dropped;	/* past the budget: [past the limit] */
	uint64_t frames_cut;		/* of stacks cut past the budget */
};

struct stack_profile {
	const struct stack_tables *tables;
	struct stack_function *functions;
	uint32_t nfunctions, functions_cap;
	struct hash_index function_index;	/* by name and category */
	uint32_t *frame_function;	/* per frame (tables' order) */

	struct stack_node *nodes;
	uint32_t nnodes, nodes_cap;
	struct hash_index node_index;	/* by (parent, function) */
	uint32_t *stack_leaf;		/* per stack (tables' order) */

	/* the samples' stacks: the leaf node of each sample, or NO_NODE */
	uint32_t *sample_leaf;
	uint64_t bytes;		/* of STACKS_PROFILE_BYTES_MAX */
	struct stack_profile_stats stats;
};

/* 0 or -ENOMEM. t must outlive the profile. */
int stack_profile_build(struct stack_profile *p, const struct stack_tables *t);
void stack_profile_free(struct stack_profile *p);

static inline const struct stack_function *
stack_node_function(const struct stack_profile *p, uint32_t node)
{
	return &p->functions[p->nodes[node].function];
}

/* Whether f is a kernel function (category "kernel"). */
bool stack_function_is_kernel(const struct stack_function *f);

/* Whether the tables hold any sample at all. */
static inline bool stack_profile_has_samples(const struct stack_profile *p)
{
	return p->tables && p->tables->nsamples;
}

#endif /* FXT_STACK_PROFILE_H */
