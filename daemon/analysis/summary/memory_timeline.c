// SPDX-License-Identifier: GPL-2.0-only
/* The report's memory chart: see memory_timeline.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_saturate.h"
#include "hash_index.h"
#include "memory_timeline.h"

#define COLUMNS MEMORY_TIMELINE_COLUMNS
#define FIRST_CELL_NS 1000u
#define INDEX_MASK (2 * MEMORY_TIMELINE_PROCESSES - 1)

/* ---- a series' cells ------------------------------------------------ */

static uint64_t neutral(const struct memory_series *s)
{
	return s->lowest ? UINT64_MAX : 0;
}

static uint64_t combine(const struct memory_series *s, uint64_t a, uint64_t b)
{
	if (s->lowest)
		return a < b ? a : b;
	return a > b ? a : b;
}

/* Cells [from, to) hold v. */
static void fill(struct memory_series *s, uint32_t from, uint32_t to,
		 uint64_t v)
{
	for (; from < to; from++)
		s->cells[from] = v;
}

static int alloc_cells(struct memory_series *s)
{
	s->cells = malloc(COLUMNS * sizeof(*s->cells));
	if (!s->cells)
		return -ENOMEM;
	fill(s, 0, COLUMNS, neutral(s));
	return 0;
}

/* ---- the columns ---------------------------------------------------- */

static void halve_series(struct memory_series *s)
{
	uint32_t i;

	if (!s->cells)
		return;
	for (i = 0; i < COLUMNS / 2; i++)
		s->cells[i] = combine(s, s->cells[2 * i], s->cells[2 * i + 1]);
	fill(s, COLUMNS / 2, COLUMNS, neutral(s));
	s->first_col /= 2;
	s->last_col /= 2;
}

static void merge_stall(struct memory_stall_cell *dst,
			const struct memory_stall_cell *a,
			const struct memory_stall_cell *b)
{
	struct memory_stall_cell m =
		b->marked && (!a->marked || b->longest_ns > a->longest_ns) ?
			*b : *a;

	m.stall_ns = fxt_sat_add(a->stall_ns, b->stall_ns);
	m.began = fxt_sat_add(a->began, b->began);
	m.marked = a->marked || b->marked;
	*dst = m;
}

/* Each column i becomes columns 2i and 2i+1. */
static void halve(struct memory_timeline *tl)
{
	struct memory_stall_cell *row;
	unsigned int k, i;

	for (k = 0; k < MEMORY_SYSTEM_SERIES; k++)
		halve_series(&tl->system[k]);
	for (k = 0; k < tl->nprocesses; k++)
		halve_series(&tl->processes[k]);
	for (k = 0; tl->stalls && k < MEMORY_TIMELINE_STALLS; k++) {
		row = &tl->stalls[(size_t)k * COLUMNS];
		for (i = 0; i < COLUMNS / 2; i++)
			merge_stall(&row[i], &row[2 * i], &row[2 * i + 1]);
		memset(&row[COLUMNS / 2], 0, COLUMNS / 2 * sizeof(*row));
	}
	tl->cell_ns *= 2;
}

static void shift_series(struct memory_series *s, uint32_t n)
{
	if (!s->cells)
		return;
	memmove(s->cells + n, s->cells, (COLUMNS - n) * sizeof(*s->cells));
	fill(s, 0, n, neutral(s));
	s->first_col += n;
	s->last_col += n;
}

/* Column 0 starts n columns earlier (the last n columns are empty). */
static void shift_right(struct memory_timeline *tl, uint32_t n)
{
	struct memory_stall_cell *row;
	unsigned int k;

	for (k = 0; k < MEMORY_SYSTEM_SERIES; k++)
		shift_series(&tl->system[k], n);
	for (k = 0; k < tl->nprocesses; k++)
		shift_series(&tl->processes[k], n);
	for (k = 0; tl->stalls && k < MEMORY_TIMELINE_STALLS; k++) {
		row = &tl->stalls[(size_t)k * COLUMNS];
		memmove(row + n, row, (COLUMNS - n) * sizeof(*row));
		memset(row, 0, n * sizeof(*row));
	}
	tl->t0_ns -= n * tl->cell_ns;
}

/* Columns to add before column 0 for start (< t0): t0 stays >= 0. */
static uint64_t columns_before(const struct memory_timeline *tl,
			       uint64_t start)
{
	uint64_t gap = tl->t0_ns - start;
	uint64_t n = gap / tl->cell_ns + (gap % tl->cell_ns != 0);
	uint64_t room = tl->t0_ns / tl->cell_ns;

	return n < room ? n : room;
}

/*
 * The columns reach from start to end (start <= end): past the last,
 * they halve; before the first, they move back, halving if need be.
 * Each halving doubles cell_ns from 1000 ns: at most 45 of them.
 */
static void fit(struct memory_timeline *tl, uint64_t start, uint64_t end)
{
	uint64_t before;

	if (!tl->started) {
		tl->started = true;
		tl->t0_ns = start;
		tl->cell_ns = FIRST_CELL_NS;
		tl->end_ns = end;
	}
	if (end > tl->end_ns)
		tl->end_ns = end;
	for (;;) {
		before = start < tl->t0_ns ? columns_before(tl, start) : 0;
		if (before < COLUMNS &&
		    (tl->end_ns - tl->t0_ns) / tl->cell_ns < COLUMNS - before)
			break;
		halve(tl);
	}
	if (before)
		shift_right(tl, (uint32_t)before);
}

/* After fit(): an earlier time than column 0's (t0 at its least) is in it. */
static uint32_t column(const struct memory_timeline *tl, uint64_t ns)
{
	return ns < tl->t0_ns ? 0 : (uint32_t)((ns - tl->t0_ns) / tl->cell_ns);
}

/* ---- series --------------------------------------------------------- */

static void series_put(struct memory_timeline *tl, struct memory_series *s,
		       uint64_t ns, uint64_t v)
{
	uint32_t c;

	fit(tl, ns, ns);
	c = column(tl, ns);
	if (!s->started) {
		s->started = true;
		s->first_col = s->last_col = c;
		s->cells[c] = v;
	} else if (ns >= s->held_ns && c > s->last_col) {
		/* the value held until now, then v */
		fill(s, s->last_col + 1, c, s->held);
		s->cells[c] = combine(s, s->held, v);
		s->last_col = c;
	} else if (c < s->first_col) {
		fill(s, c, s->first_col, v);
		s->first_col = c;
		return;
	} else {
		s->cells[c] = combine(s, s->cells[c], v);
		if (ns < s->held_ns)
			return;
	}
	s->held = v;
	s->held_ns = ns;
}

int memory_timeline_system(struct memory_timeline *tl, enum memory_system k,
			   uint64_t ns, uint64_t value)
{
	struct memory_series *s;

	if (k >= MEMORY_SYSTEM_SERIES)
		return 0;
	s = &tl->system[k];
	if (!s->cells) {
		s->lowest = k == MEMORY_AVAILABLE;
		if (alloc_cells(s))
			return -ENOMEM;
	}
	series_put(tl, s, ns, value);
	return 0;
}

/* ---- processes ------------------------------------------------------ */

static uint32_t index_slot(uint64_t pid)
{
	return (uint32_t)hash_u64(pid) & INDEX_MASK;
}

static void index_add(struct memory_timeline *tl, uint32_t i)
{
	uint32_t j = index_slot(tl->processes[i].pid);

	while (tl->index[j])
		j = (j + 1) & INDEX_MASK;
	tl->index[j] = (uint16_t)(i + 1);
}

const struct memory_series *
memory_timeline_process(const struct memory_timeline *tl, uint64_t pid)
{
	uint32_t j;

	for (j = index_slot(pid); tl->processes && tl->index[j];
	     j = (j + 1) & INDEX_MASK)
		if (tl->processes[tl->index[j] - 1].pid == pid)
			return &tl->processes[tl->index[j] - 1];
	return NULL;
}

/* The slot of the least peak (ties: the last), past the maximum. */
static uint32_t least_slot(const struct memory_timeline *tl)
{
	uint32_t i, least = 0;

	for (i = 1; i < tl->nprocesses; i++)
		if (tl->processes[i].peak <= tl->processes[least].peak)
			least = i;
	return least;
}

/* A new series for pid, or NULL (*err: 0 when it is not to be kept). */
static struct memory_series *admit(struct memory_timeline *tl, uint64_t pid,
				   uint64_t peak, int *err)
{
	struct memory_series *s;
	uint32_t i;

	if (!tl->processes) {
		tl->processes = calloc(MEMORY_TIMELINE_PROCESSES,
				       sizeof(*tl->processes));
		if (!tl->processes)
			goto nomem;
	}
	if (tl->nprocesses < MEMORY_TIMELINE_PROCESSES) {
		s = &tl->processes[tl->nprocesses];
		if (alloc_cells(s))
			goto nomem;
		s->pid = pid;
		index_add(tl, tl->nprocesses++);
		return s;
	}
	/* the least peak kept only grows: a stale one is a lower bound */
	if (peak <= tl->least_peak)
		return NULL;
	i = least_slot(tl);
	tl->least_peak = tl->processes[i].peak;
	if (peak <= tl->least_peak)
		return NULL;
	s = &tl->processes[i];
	memset(s, 0, offsetof(struct memory_series, cells));
	fill(s, 0, COLUMNS, 0);
	s->pid = pid;
	tl->processes_replaced++;
	memset(tl->index, 0, sizeof(tl->index));
	for (i = 0; i < tl->nprocesses; i++)
		index_add(tl, i);
	return s;
nomem:
	*err = -ENOMEM;
	return NULL;
}

int memory_timeline_rss(struct memory_timeline *tl, uint64_t pid, uint64_t ns,
			uint64_t rss, uint64_t peak)
{
	/* the timeline's own: not const */
	struct memory_series *s =
		(struct memory_series *)memory_timeline_process(tl, pid);
	int err = 0;

	if (!s)
		s = admit(tl, pid, peak, &err);
	if (!s)
		return err;
	if (peak > s->peak)
		s->peak = peak;
	series_put(tl, s, ns, rss);
	return 0;
}

/* ---- stalls and marks ----------------------------------------------- */

int memory_timeline_stall(struct memory_timeline *tl, unsigned int kind,
			  uint64_t tid, uint64_t pid, uint64_t begin_ns,
			  uint64_t end_ns)
{
	struct memory_stall_cell *row, *cell;
	uint64_t dur, cell_start, cell_end, lo, hi;
	uint32_t c, last;

	if (kind >= MEMORY_TIMELINE_STALLS)
		return 0;
	if (!tl->stalls) {
		tl->stalls = calloc((size_t)MEMORY_TIMELINE_STALLS * COLUMNS,
				    sizeof(*tl->stalls));
		if (!tl->stalls)
			return -ENOMEM;
	}
	if (end_ns < begin_ns)
		end_ns = begin_ns;
	fit(tl, begin_ns, end_ns);
	row = &tl->stalls[(size_t)kind * COLUMNS];
	dur = end_ns - begin_ns;
	c = column(tl, begin_ns);
	last = dur ? column(tl, end_ns - 1) : c;
	row[c].began = fxt_sat_add(row[c].began, 1);
	/* a column a step: at most COLUMNS, whatever the times */
	for (; c <= last; c++) {
		cell = &row[c];
		cell_start = fxt_sat_add(tl->t0_ns, fxt_sat_mul(c, tl->cell_ns));
		cell_end = fxt_sat_add(cell_start, tl->cell_ns);
		lo = begin_ns > cell_start ? begin_ns : cell_start;
		hi = end_ns < cell_end ? end_ns : cell_end;
		if (hi > lo)
			cell->stall_ns = fxt_sat_add(cell->stall_ns, hi - lo);
		if (!cell->marked || dur > cell->longest_ns) {
			cell->marked = true;
			cell->longest_ns = dur;
			cell->tid = tid;
			cell->pid = pid;
		}
	}
	return 0;
}

void memory_timeline_mark(struct memory_timeline *tl, uint64_t ns)
{
	fit(tl, ns, ns);
}

void memory_timeline_free(struct memory_timeline *tl)
{
	unsigned int k;

	for (k = 0; k < MEMORY_SYSTEM_SERIES; k++)
		free(tl->system[k].cells);
	for (k = 0; k < tl->nprocesses; k++)
		free(tl->processes[k].cells);
	free(tl->processes);
	free(tl->stalls);
	memset(tl, 0, sizeof(*tl));
}
