/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The critical path of one slow interval of one thread: its wall time
 * split into running (with the functions the on-CPU samples name),
 * waiting for a CPU (with the threads that held it), blocked (with the
 * off-CPU stack and the waker), and, for each blocked stretch, what the
 * waker did from our block to our wakeup, split the same way, down to
 * a depth. Each node's children add up to it; time the records do not
 * explain is a node of its own (WHY_UNKNOWN), never dropped.
 *
 * Bounded whatever the archive holds: WHY_NODES_MAX nodes, a step
 * budget for the walk, no thread followed twice along one chain (a
 * wakeup cycle ends there), wakeups that do not fall inside the stretch
 * they end not followed.
 */
#ifndef FXT_WHY_PATH_H
#define FXT_WHY_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stack_profile.h"
#include "why_sched.h"

#define WHY_NODES_MAX 65536u
#define WHY_DEPTH_DEFAULT 8u
#define WHY_DEPTH_MAX 64u
#define WHY_FUNCTIONS_MAX 8u	/* per running node; the rest summed */
#define WHY_STEPS_MAX (64u << 20)
#define WHY_NO_NODE UINT32_MAX
#define WHY_FLOW_EDGES 16u	/* flows followed out of one piece */

enum why_kind {
	WHY_INTERVAL,	/* the root: the interval itself */
	WHY_RUNNING,	/* tid on a CPU */
	WHY_RUNNABLE,	/* waiting for a CPU; children: WHY_HELD_BY */
	WHY_HELD_BY,	/* tid held the CPU meanwhile */
	WHY_BLOCKED,	/* woken by tid (0: an interrupt, a timer) */
	WHY_UNKNOWN,	/* no record tells (not followed, or not recorded) */
	WHY_INTERRUPT,	/* on its CPU, in an interrupt (reason: its name) */
	WHY_STALL,	/* on its CPU, in a memory stall (reason: its name) */
	WHY_FLOW,	/* waiting for tid's slice its flow went on to */
};

/* A sample's leaf-most user function and its caller (a helper's user). */
struct why_function {
	uint32_t function;	/* in the profile */
	uint32_t caller;	/* WHY_NO_FUNCTION: none */
	uint64_t samples;
};

#define WHY_NO_FUNCTION UINT32_MAX

struct why_node {
	enum why_kind kind;
	uint64_t tid;
	uint64_t ns;
	uint64_t stretches;	/* pieces summed into ns */
	uint64_t first_ns, last_ns;	/* the first piece's start, last's end */
	uint32_t parent, first_child, last_child, next;
	/* WHY_RUNNING: top functions by samples, leaf-most user frame */
	struct why_function functions[WHY_FUNCTIONS_MAX];
	uint32_t nfunctions;
	uint64_t samples, samples_other;
	/* WHY_BLOCKED: the off-CPU stack of its longest stretch */
	uint32_t offcpu_leaf;	/* profile node; STACK_NO_NODE: none */
	uint64_t longest_ns;
	uint32_t cpu;		/* WHY_RUNNABLE: the CPU waited for */
	const char *reason;	/* WHY_UNKNOWN: why; interrupt, stall: name */
};

struct why_tree {
	const char *label;	/* the slice's name, or NULL; not owned */
	struct why_node *nodes;
	uint32_t n, cap;
	uint64_t start_ns, end_ns;
	uint64_t tid;
	uint64_t nodes_dropped;	/* past WHY_NODES_MAX: in their parent */
	uint64_t steps;
	bool budget_hit;
};

struct why_inputs {
	const struct why_sched *sched;
	const struct stack_profile *profile;	/* NULL: no samples */
	/* the on- and off-CPU samples' indexes in the tables, by (tid, ts) */
	const size_t *oncpu, *offcpu;
	size_t noncpu, noffcpu;
	unsigned int depth;
};

/*
 * Builds the tree of thread tid over [start_ns, end_ns); running_at_end:
 * the thread ran at end_ns (it wrote the slice's end), which tells its
 * state when no record does. 0 or -ENOMEM.
 */
int why_path_build(struct why_tree *t, const struct why_inputs *in,
		   uint64_t tid, uint64_t start_ns, uint64_t end_ns,
		   bool running_at_end);
void why_tree_free(struct why_tree *t);

/* The sample index arrays of why_inputs, sorted; 0 or -ENOMEM. */
int why_samples_index(const struct stack_tables *tables, bool offcpu,
		      size_t **out, size_t *n);

#endif /* FXT_WHY_PATH_H */
