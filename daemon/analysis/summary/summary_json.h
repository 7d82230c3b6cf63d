/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace summary as JSON:
 *
 *   {"span_ns": N, "drops": {"<provider>": N, ...},
 *    "cpus": [{"cpu": N, "busy_ns": N}],
 *    "threads": [{"pid": N, "tid": N, "name": S, "process": S,
 *                 "cpu_ns": N, "switches": N,
 *                 "wakeup_latency_ns": {"count": N, "p50": N, "p90": N,
 *                                       "p99": N, "max": N}}],
 *    "slices": [{"category": S, "name": S, "count": N, "total_ns": N,
 *                "self_ns": N, "max_ns": N}],
 *    "memory": {"processes": [{"pid": N, "process": S, "peak_rss": N,
 *                              "peak_swap": N}],
 *               "stalls": [{"pid": N, "tid": N, "name": S, "stall_ns": N,
 *                           "direct_reclaim": {"count": N, "total_ns": N},
 *                           "memcg_reclaim": {...}, "compaction": {...}}],
 *               "oom_kills": [{"ts_ns": N, "pid": N, "name": S, "rss": N}]}}
 *
 * Threads by CPU time and slices by total time, most first; memory
 * (kernel:mem, memory_summary.h, bytes): processes by peak RSS, threads
 * by stall time, most first, OOM kills in trace order; drops are
 * buffer overflows per provider name (every provider, 0 included).
 */
#ifndef FXT_SUMMARY_JSON_H
#define FXT_SUMMARY_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "fxt_reader.h"
#include "summary_json_fields.h"
#include "text_out.h"
#include "trace_summary.h"

struct summary_json_options {
	size_t top;		/* threads and slices written; 0: all */
	/* For a <script> element: '<' written as \u003c. */
	bool html_safe;
};

/* 0 or -ENOMEM; write errors are in w. */
int summary_json_write(struct text_out *w, const struct trace_summary *s,
		       const struct fxt_reader *r,
		       const struct summary_json_options *opt);

/* The "memory" object (memory_json.c): 0 or -ENOMEM. */
int summary_json_memory(struct text_out *w, const struct trace_summary *s,
			const struct summary_json_options *opt);

/* "count":N,"p50":N,"p90":N,"p99":N,"max":N of a latency histogram. */
void summary_json_latency(struct text_out *w, const struct latency_hist *h,
			  const struct hist_pool *pool);

/* The provider's name for the drops object: "provider N" when unnamed. */
void summary_json_provider_key(struct text_out *w,
			       const struct fxt_provider *p, uint32_t id,
			       bool html_safe);

#endif /* FXT_SUMMARY_JSON_H */
