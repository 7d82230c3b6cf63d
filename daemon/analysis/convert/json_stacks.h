/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stack samples (include/fxt/stacks.h) in the Trace Event Format:
 * collected while the records stream by (stack_tables.h), written at the
 * end, when every table is known:
 *
 * - off-CPU samples: "X" slices "blocked" (cat kernel:offcpu) on their
 *   thread from the switch-out, dur the blocked time, "sf" their stack;
 * - "stackFrames": one frame per node of the call tree (stack_profile.h),
 *   {"name", "category" (mapping basename or "kernel"), "parent"};
 * - "samples": per on-CPU sample {"cpu", "tid", "ts", "name":"cpu-clock",
 *   "sf", "weight": 1};
 * - "stack_records": what was lost or missing, counted.
 *
 * The array format has no place for stackFrames: there the slices go
 * without "sf" and the on-CPU samples are left out.
 */
#ifndef FXT_CONVERT_JSON_STACKS_H
#define FXT_CONVERT_JSON_STACKS_H

#include <stdbool.h>

#include "json_emit.h"

/* Whether rec is a stack record, now taken. */
bool conv_stacks_take(struct converter *c, const struct fxt_record *rec);
/* At the end of traceEvents: the off-CPU slices. 0 or -ENOMEM. */
int conv_stacks_events(struct converter *c, bool with_frames);
/* Among the trailing keys: stackFrames, samples, stack_records. */
void conv_stacks_trailer(struct converter *c);
void conv_stacks_free(struct converter *c);

#endif /* FXT_CONVERT_JSON_STACKS_H */
