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
#include "text_out.h"
#include "trace_summary.h"

/* Threads and slices listed in the page. */
#define REPORT_TOP 50u

/*
 * More fields of the page's data, from beyond the summary (the why
 * section): written after the summary's, each starting with a comma,
 * strings HTML-safe. 0 or -errno.
 */
struct report_more {
	int (*write)(struct text_out *w, void *ctx);
	void *ctx;
};

/*
 * Writes the page to fd; s must have been read with the timeline option;
 * more may be NULL. 0, -ENOMEM, or the write's -errno.
 */
int report_html_write(int fd, const struct trace_summary *s,
		      const struct fxt_reader *r, const char *title,
		      const struct report_more *more);

#endif /* FXT_REPORT_HTML_H */
