/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report's flame graphs: the call tree of the stack samples
 * (stack_profile.h) of the processes the summary keeps to, null when the
 * trace has no stack samples:
 *
 *   {"functions": [[NAME, CATEGORY]...],
 *    "nodes": [[PARENT, FUNCTION, CPU_SELF, OFFCPU_SELF_NS]...],
 *    "nodes_left_out": N}
 *
 * Nodes root first (a parent before its children; PARENT -1 at a root);
 * CPU_SELF counts the on-CPU samples whose leaf the node is,
 * OFFCPU_SELF_NS sums the blocked time of off-CPU ones. Nodes under
 * 1/STACKS_VIEW_NARROWEST of both graphs' totals (0.0%, too narrow to
 * draw) and past REPORT_FLAME_NODES_MAX are left out, counted; a node
 * kept for one graph has 0 in the other's column where it is that
 * narrow there.
 */
#ifndef FXT_REPORT_FLAME_H
#define FXT_REPORT_FLAME_H

#include "text_out.h"
#include "trace_summary.h"

#define REPORT_FLAME_NODES_MAX 100000u

/* ,"flame":... ; 0 or -ENOMEM. */
int report_flame_write(struct text_out *w, const struct trace_summary *s);

#endif /* FXT_REPORT_FLAME_H */
