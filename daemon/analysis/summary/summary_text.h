/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace summary as the text table of tracectl summary: a headline (the
 * input, the time traced, the records, the drops), whose processes the
 * tables keep to, busy time per CPU, threads by CPU time with their
 * wakeup latency, slices by total time and, with kernel:mem records,
 * memory: peak RSS by process, stalls by thread, OOM kills. Names from
 * the archive are escaped (text_c_escape()), so that no escape sequence
 * reaches a terminal, and cut to their columns. summary_json.h writes
 * the same as JSON.
 */
#ifndef FXT_SUMMARY_TEXT_H
#define FXT_SUMMARY_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fxt_reader.h"
#include "trace_summary.h"

/* Threads, slices, processes and stalls listed unless told. */
#define SUMMARY_TEXT_TOP_DEFAULT 20u

struct summary_text_options {
	const char *input;	/* the headline's first word: the file read */
	size_t top;		/* rows of each list; 0: the default */
};

/* 0 or -ENOMEM; write errors are out's. */
int summary_text_write(FILE *out, const struct trace_summary *s,
		       const struct fxt_reader *r,
		       const struct summary_text_options *opt);

#endif /* FXT_SUMMARY_TEXT_H */
