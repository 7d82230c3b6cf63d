/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTML report of a trace summary: one self-contained page (inline
 * CSS and script, nothing fetched) drawing the CPU timeline (a lane per
 * CPU, coloured by process, zoom and pan, tooltips), the memory chart on
 * its time axis (report_memory.h), CPU time per thread, the
 * wakeup-latency histogram and the top slices. It holds aggregates and
 * the down-sampled timelines only, so its size is bounded by CPUs x
 * TIMELINE_COLUMNS plus the memory chart's series x
 * MEMORY_TIMELINE_COLUMNS whatever the archive's.
 */
#ifndef FXT_REPORT_HTML_H
#define FXT_REPORT_HTML_H

#include "fxt_reader.h"
#include "trace_summary.h"

/* Threads and slices listed in the page. */
#define REPORT_TOP 50u

/*
 * Writes the page to fd; s must have been read with the timeline option.
 * 0, -ENOMEM, or the write's -errno.
 */
int report_html_write(int fd, const struct trace_summary *s,
		      const struct fxt_reader *r, const char *title);

#endif /* FXT_REPORT_HTML_H */
