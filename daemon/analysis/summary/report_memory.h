/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The report's memory chart data (memory_timeline.h), bytes and
 * nanoseconds; null when the trace has no kernel:mem records:
 *
 *   {"t0_ns": N, "cell_ns": N, "columns": N, "length_ns": N,
 *    "system": [{"name": S, "lowest": B, "from": COL, "cells": [N...],
 *                "held": N}],
 *    "processes": [{"pid": N, "process": S, "peak": N, "from": COL,
 *                   "cells": [N...], "held": N}],
 *    "processes_replaced": N, "stall_kinds": [S...],
 *    "stalls": [[KIND, COL, BEGAN, STALL_NS, LONGEST_NS, TID, PID]...]}
 *
 * A series' cells are columns from..from+len-1; after them it holds
 * "held". Processes: the REPORT_MEMORY_PROCESSES largest peaks, most
 * first. Stalls: one entry per kind and column where one was.
 */
#ifndef FXT_REPORT_MEMORY_H
#define FXT_REPORT_MEMORY_H

#include "text_out.h"
#include "trace_summary.h"

#define REPORT_MEMORY_PROCESSES 6u

/* ,"memory_chart":... ; 0 or -ENOMEM. */
int report_memory_write(struct text_out *w, const struct trace_summary *s);

#endif /* FXT_REPORT_MEMORY_H */
