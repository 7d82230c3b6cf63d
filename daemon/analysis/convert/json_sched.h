/* SPDX-License-Identifier: GPL-2.0-only */
/* Scheduling records as slices on per-CPU tracks (json_sched.c). */
#ifndef FXT_CONVERT_JSON_SCHED_H
#define FXT_CONVERT_JSON_SCHED_H

#include "json_emit.h"

void conv_sched(struct converter *c, const struct fxt_record *rec);
/* CPU n's state; its "CPU n" track named on first use. NULL on ENOMEM. */
struct cpu_state *conv_cpu_track(struct converter *c, unsigned int n);
/* Closes the slices still running at the end of the input. */
void conv_sched_finish(struct converter *c);

#endif /* FXT_CONVERT_JSON_SCHED_H */
