/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The second pass of tracectl why and of the report's "why" section:
 * given the intervals the summary's pass found, reads the archive again
 * from its start for their scheduling records and builds each one's
 * tree (why_path.h), into a report ready to print (why_out.h).
 */
#ifndef FXT_WHY_RUN_H
#define FXT_WHY_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_summary.h"
#include "why_out.h"
#include "why_path.h"
#include "why_sched.h"

struct why_run {
	struct why_window *windows;
	uint64_t *tids;
	const char **labels;
	size_t n, cap;
	struct why_sched sched;
	size_t *oncpu, *offcpu;
	size_t noncpu, noffcpu;
	struct why_tree *trees;
	struct why_report report;
};

/* Room for n intervals. 0 or -ENOMEM. */
int why_run_init(struct why_run *wr, const struct trace_summary *s, size_t n);
/*
 * Interval i: thread tid over [start_ns, end_ns), an instance of slice
 * label (NULL: none; it must outlive wr).
 */
void why_run_add(struct why_run *wr, uint64_t tid, uint64_t start_ns,
		 uint64_t end_ns, const char *label);
/*
 * Reads the archive open as fd from its start (it must seek: -ESPIPE
 * otherwise) and builds the trees; depth 0 is the default;
 * running_at_end as why_path_build(). 0, -ENOMEM or the reader's -errno.
 */
int why_run_build(struct why_run *wr, int fd, unsigned int depth,
		  bool running_at_end);
void why_run_free(struct why_run *wr);

#endif /* FXT_WHY_RUN_H */
