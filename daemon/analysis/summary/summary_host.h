/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The summary's lines about where and when a trace was taken: the host
 * and clock records (host_clock.h), as text and as JSON, and the inputs
 * of a merged archive. Nothing is written for an archive without them.
 */
#ifndef FXT_SUMMARY_HOST_H
#define FXT_SUMMARY_HOST_H

#include <stdbool.h>
#include <stdio.h>

#include "host_clock.h"
#include "summary_merged.h"
#include "text_out.h"

/*
 * One line: "host: NAME, kernel RELEASE, machine-id ID, trace ID, from
 * START to STOP (UTC), drift N ppm"; what the archive lacks is left out.
 */
void summary_host_text(FILE *out, const struct fxt_host_clock *hc);
/*
 * ,"host":{"machine_id":S,"boot_id":S,"hostname":S,"kernel":S,
 * "trace_id":S} and ,"clock":{"start":{READING},"stop":{READING},
 * "drift_ppm":N}, each only when the archive has it; a READING is
 * "boottime","monotonic","realtime","error_ns" (ns). html_safe: for a
 * <script> element, '<' as \u003c.
 */
void summary_host_json(struct text_out *w, const struct fxt_host_clock *hc,
		       bool html_safe);

/* "merged: N archives: HOST (trace ID), ..." when there are any. */
void summary_merged_text(FILE *out, const struct summary_merged *m);
/* ,"merged":[{"host":S,"trace_id":S},...] when there are any. */
void summary_merged_json(struct text_out *w, const struct summary_merged *m,
			 bool html_safe);

#endif /* FXT_SUMMARY_HOST_H */
