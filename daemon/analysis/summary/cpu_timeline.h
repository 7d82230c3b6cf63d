/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A down-sampled CPU timeline for the HTML report: per CPU, a fixed row
 * of time cells, each holding the busy time and the thread that ran the
 * longest in it. The cell width doubles (neighbours merged) whenever the
 * trace outgrows the row, so memory is bounded by CPUs x columns however
 * long the trace is.
 */
#ifndef FXT_CPU_TIMELINE_H
#define FXT_CPU_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#define TIMELINE_COLUMNS 4096u
/* CPUs past this are not drawn (their figures are still summed). */
#define TIMELINE_CPUS_MAX 256u

struct timeline_cell {
	uint64_t busy_ns;
	uint64_t best_ns;	/* the longest piece of one thread in the cell */
	uint64_t tid;		/* that thread; meaningful when busy_ns */
};

struct cpu_timeline {
	uint64_t t0_ns;		/* start of column 0 */
	uint64_t cell_ns;	/* width of a column */
	bool started;
	unsigned int ncpus;	/* rows allocated */
	struct timeline_cell *cells;	/* ncpus rows of TIMELINE_COLUMNS */
	uint64_t cpus_not_drawn;	/* stretches of CPUs past the maximum */
};

/* A thread ran on cpu over [start_ns, end_ns). 0 or -ENOMEM. */
int cpu_timeline_add(struct cpu_timeline *tl, unsigned int cpu, uint64_t tid,
		     uint64_t start_ns, uint64_t end_ns);
void cpu_timeline_free(struct cpu_timeline *tl);

static inline const struct timeline_cell *
cpu_timeline_row(const struct cpu_timeline *tl, unsigned int cpu)
{
	return cpu < tl->ncpus ? &tl->cells[(uint64_t)cpu * TIMELINE_COLUMNS] :
				 NULL;
}

#endif /* FXT_CPU_TIMELINE_H */
