// SPDX-License-Identifier: GPL-2.0-only
/* Down-sampled CPU timeline: see cpu_timeline.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_timeline.h"
#include "fxt_saturate.h"

#define FIRST_CELL_NS 1000u

static int grow_rows(struct cpu_timeline *tl, unsigned int cpu)
{
	unsigned int n = tl->ncpus ? tl->ncpus : 8;
	struct timeline_cell *cells;

	while (n <= cpu)
		n *= 2;
	if (n > TIMELINE_CPUS_MAX)
		n = TIMELINE_CPUS_MAX;
	cells = realloc(tl->cells, (size_t)n * TIMELINE_COLUMNS * sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	memset(cells + (size_t)tl->ncpus * TIMELINE_COLUMNS, 0,
	       (size_t)(n - tl->ncpus) * TIMELINE_COLUMNS * sizeof(*cells));
	tl->cells = cells;
	tl->ncpus = n;
	return 0;
}

static void merge_cell(struct timeline_cell *dst, const struct timeline_cell *a,
		       const struct timeline_cell *b)
{
	const struct timeline_cell *best = b->best_ns > a->best_ns ? b : a;

	dst->busy_ns = fxt_sat_add(a->busy_ns, b->busy_ns);
	dst->tid = best->tid;
	dst->best_ns = best->best_ns;
}

/* Halves the resolution: column i becomes columns 2i and 2i+1. */
static void halve(struct cpu_timeline *tl)
{
	unsigned int cpu, i;

	for (cpu = 0; cpu < tl->ncpus; cpu++) {
		struct timeline_cell *row =
			&tl->cells[(size_t)cpu * TIMELINE_COLUMNS];

		for (i = 0; i < TIMELINE_COLUMNS / 2; i++)
			merge_cell(&row[i], &row[2 * i], &row[2 * i + 1]);
		memset(&row[TIMELINE_COLUMNS / 2], 0,
		       TIMELINE_COLUMNS / 2 * sizeof(*row));
	}
	tl->cell_ns *= 2;
}

int cpu_timeline_add(struct cpu_timeline *tl, unsigned int cpu, uint64_t tid,
		     uint64_t start_ns, uint64_t end_ns)
{
	struct timeline_cell *row;
	uint64_t col, t;

	if (cpu >= TIMELINE_CPUS_MAX) {
		tl->cpus_not_drawn++;
		return 0;
	}
	if (cpu >= tl->ncpus && grow_rows(tl, cpu))
		return -ENOMEM;
	if (!tl->started) {
		tl->started = true;
		tl->t0_ns = start_ns;
		tl->cell_ns = FIRST_CELL_NS;
	}
	/* Out of order before the start: only the part after it is drawn. */
	if (start_ns < tl->t0_ns)
		start_ns = tl->t0_ns;
	if (end_ns <= start_ns)
		return 0;
	while ((end_ns - 1 - tl->t0_ns) / tl->cell_ns >= TIMELINE_COLUMNS)
		halve(tl);
	row = &tl->cells[(size_t)cpu * TIMELINE_COLUMNS];
	/* A column a step: at most TIMELINE_COLUMNS, whatever the times. */
	for (t = start_ns; t < end_ns;) {
		uint64_t cell_end, piece;

		col = (t - tl->t0_ns) / tl->cell_ns;
		/* the last column may end past 2^64: it ends the stretch */
		cell_end = fxt_sat_add(tl->t0_ns,
				       fxt_sat_mul(col + 1, tl->cell_ns));
		piece = (end_ns < cell_end ? end_ns : cell_end) - t;
		row[col].busy_ns = fxt_sat_add(row[col].busy_ns, piece);
		if (piece > row[col].best_ns) {
			row[col].best_ns = piece;
			row[col].tid = tid;
		}
		t += piece;
	}
	return 0;
}

void cpu_timeline_free(struct cpu_timeline *tl)
{
	free(tl->cells);
	memset(tl, 0, sizeof(*tl));
}
