/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The summary's stack samples as JSON, keys of the summary's object
 * (summary_json.h), written only when the archive holds stack records
 * (or with --slice):
 *
 *   "stacks": {"samples": N, "offcpu_samples": N, "samples_dropped": N,
 *              "samples_malformed": N, "samples_without_stack": N,
 *              "entries_malformed": N, "entries_duplicate": N,
 *              "entries_dropped": N, "missing_frames": N,
 *              "missing_mappings": N, "functions_dropped": N,
 *              "frames_cut": N},
 *   "functions": [{"name": S, "category": S, "self": N, "total": N}],
 *   "thread_functions": [{"pid": N, "tid": N, "name": S, "process": S,
 *                         "samples": N, "functions": [...]}],
 *   "offcpu": {"count": N, "blocked_ns": N,
 *              "stacks": [{"stack": [S, ...], "blocked_ns": N,
 *                          "count": N}],
 *              "functions": [{"name": S, "category": S, "self_ns": N,
 *                             "total_ns": N}]},
 *   "slice_samples": {"name": S, "count": N,
 *                     "slices": [{"pid": N, "tid": N, "name": S,
 *                                 "start_ns": N, "dur_ns": N,
 *                                 "samples": N, "functions": [...]}]}
 *
 * self and total count on-CPU samples (not percentages): those whose
 * leaf is the function, those it is anywhere in. Lists are the first
 * top by self and the first top by total, by self, most first; stacks
 * are leaf first; slices the slowest first.
 */
#ifndef FXT_STACKS_JSON_H
#define FXT_STACKS_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "text_out.h"
#include "trace_summary.h"

/* Each key after a comma. 0 or -ENOMEM. */
int stacks_json_write(struct text_out *w, const struct trace_summary *s,
		      size_t top, bool html_safe);

#endif /* FXT_STACKS_JSON_H */
