// SPDX-License-Identifier: GPL-2.0-only
/*
 * The report's memory chart (memory_timeline.h), cell for cell, on
 * records made here: "meminfo" and "mem.rss" series through the
 * summary's parsing (the value carried into a cell, the least for
 * available, a record out of order), the columns halving and moving
 * back for an earlier record, stalls spread over cells and merged, the
 * processes kept past the maximum, and times and values at 2^64-1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kmem_test_records.h"
#include "memory_summary.h"
#include "memory_timeline.h"

#define COLUMNS MEMORY_TIMELINE_COLUMNS

struct fixture {
	struct memory_summary m;
	struct memory_timeline tl;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	memory_summary_init(&f->m);
	f->m.timeline = &f->tl;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	memory_summary_free(&f->m);
	memory_timeline_free(&f->tl);
	free(f);
	return 0;
}

static void take(struct fixture *f, const struct fxt_record *r)
{
	assert_int_equal(memory_summary_record(&f->m, r), 0);
}

/* A "meminfo" counter with one value. */
static void meminfo(struct fixture *f, uint64_t ts, const char *name,
		    uint64_t v)
{
	struct fxt_record r = event(FXT_EVENT_COUNTER, "meminfo", ts, 0, 0);

	add_u64(&r, name, v);
	take(f, &r);
}

static void rss(struct fixture *f, uint64_t ts, uint64_t pid,
		const char *member, uint64_t bytes)
{
	struct fxt_record r = event(FXT_EVENT_COUNTER, "mem.rss", ts, pid, pid);

	add_u64(&r, member, bytes);
	take(f, &r);
}

static void stall(struct fixture *f, const char *name, uint64_t begin,
		  uint64_t end, uint64_t pid, uint64_t tid)
{
	struct fxt_record r = event(FXT_EVENT_DURATION_BEGIN, name, begin, pid,
				    tid);

	take(f, &r);
	r = event(FXT_EVENT_DURATION_END, name, end, pid, tid);
	take(f, &r);
}

static void check_cells(const struct memory_series *s, uint32_t first,
			const uint64_t *cells, uint32_t n, uint64_t held)
{
	uint32_t i;

	assert_true(s->started);
	assert_int_equal(s->first_col, first);
	assert_int_equal(s->last_col, first + n - 1);
	for (i = 0; i < n; i++)
		assert_int_equal(s->cells[first + i], cells[i]);
	assert_int_equal(s->held, held);
}

static void system_series(void **state)
{
	static const uint64_t available[] = { 100, 30, 50, 70, 70, 70 };
	static const uint64_t cached[] = { 10, 10, 20 };
	struct fixture *f = *state;

	struct fxt_record r = event(FXT_EVENT_COUNTER, "meminfo", 1000, 0, 0);

	/* column 0 from 1000, 1000 ns wide */
	add_u64(&r, "available", 100);
	add_u64(&r, "free", 1);
	add_u64(&r, "cached", 10);
	take(f, &r);
	meminfo(f, 3500, "available", 50);	/* column 2: carried 100 */
	meminfo(f, 3500, "cached", 20);
	meminfo(f, 3700, "available", 70);
	meminfo(f, 6000, "available", 80);	/* column 5: carried 70 */
	meminfo(f, 2000, "available", 30);	/* out of order: its cell */
	assert_int_equal(f->tl.t0_ns, 1000);
	assert_int_equal(f->tl.cell_ns, 1000);
	check_cells(&f->tl.system[MEMORY_AVAILABLE], 0, available, 6, 80);
	assert_int_equal(f->tl.system[MEMORY_AVAILABLE].held_ns, 6000);
	assert_true(f->tl.system[MEMORY_AVAILABLE].lowest);
	check_cells(&f->tl.system[MEMORY_CACHED], 0, cached, 3, 20);
	assert_false(f->tl.system[MEMORY_CACHED].lowest);
	assert_false(f->tl.system[MEMORY_DIRTY].started);
	assert_null(f->tl.system[MEMORY_DIRTY].cells);
	assert_false(f->tl.system[MEMORY_SWAP_USED].started);
}

static void rss_series(void **state)
{
	static const uint64_t cells[] = { 1 * MIB, 6 * MIB, 6 * MIB, 6 * MIB,
					  6 * MIB };
	struct fixture *f = *state;
	const struct memory_series *s;

	rss(f, 1000, 10, "file", 1 * MIB);
	rss(f, 2500, 10, "anon", 5 * MIB);
	rss(f, 2600, 10, "swap", 100 * MIB);	/* not resident */
	rss(f, 5000, 10, "anon", 3 * MIB);	/* column 4: carried 6 */
	rss(f, 5100, 10, "shmem", 1 * MIB);
	assert_int_equal(f->tl.nprocesses, 1);
	s = memory_timeline_process(&f->tl, 10);
	assert_non_null(s);
	assert_int_equal(s->pid, 10);
	assert_int_equal(s->peak, 6 * MIB);
	check_cells(s, 0, cells, 5, 5 * MIB);
	assert_null(memory_timeline_process(&f->tl, 11));
}

static void halve_and_move_back(void **state)
{
	struct memory_timeline *tl = &((struct fixture *)*state)->tl;
	const struct memory_series *cached = &tl->system[MEMORY_CACHED];
	const struct memory_series *dirty = &tl->system[MEMORY_DIRTY];
	const struct memory_series *available = &tl->system[MEMORY_AVAILABLE];
	static const uint64_t after_move[] = { 5, 7 };
	static const uint64_t lows[] = { 40, 40 };
	static const uint64_t dirty_cells[] = { 3 };
	uint32_t i;

	assert_int_equal(memory_timeline_system(tl, MEMORY_CACHED, 10000, 5), 0);
	assert_int_equal(memory_timeline_system(tl, MEMORY_CACHED, 11000, 7), 0);
	/* 2500 ns before column 0: it moves back 3 columns, to 7000 */
	assert_int_equal(memory_timeline_system(tl, MEMORY_DIRTY, 7500, 3), 0);
	assert_int_equal(tl->t0_ns, 7000);
	check_cells(cached, 3, after_move, 2, 7);
	assert_int_equal(cached->cells[2], 0);
	assert_int_equal(dirty->cells[0], 3);
	assert_int_equal(memory_timeline_system(tl, MEMORY_AVAILABLE, 8500, 40),
			 0);
	assert_int_equal(memory_timeline_system(tl, MEMORY_AVAILABLE, 9000, 60),
			 0);
	/* column 1024: the columns halve, to 2000 ns */
	assert_int_equal(memory_timeline_system(tl, MEMORY_CACHED,
						7000 + COLUMNS * 1000, 9), 0);
	assert_int_equal(tl->t0_ns, 7000);
	assert_int_equal(tl->cell_ns, 2000);
	assert_int_equal(cached->first_col, 1);
	assert_int_equal(cached->last_col, 512);
	assert_int_equal(cached->cells[1], 5);
	for (i = 2; i < 512; i++)
		assert_int_equal(cached->cells[i], 7);
	assert_int_equal(cached->cells[512], 9);
	assert_int_equal(cached->cells[513], 0);
	assert_int_equal(cached->held, 9);
	check_cells(dirty, 0, dirty_cells, 1, 3);
	/* the least: merged cells keep it, empty ones stay out */
	check_cells(available, 0, lows, 2, 60);
	assert_int_equal(available->cells[2], UINT64_MAX);
}

static void check_stall(const struct memory_stall_cell *c, uint64_t stall_ns,
			uint64_t longest_ns, uint64_t tid, uint64_t began)
{
	assert_true(c->marked);
	assert_int_equal(c->stall_ns, stall_ns);
	assert_int_equal(c->longest_ns, longest_ns);
	assert_int_equal(c->tid, tid);
	assert_int_equal(c->pid, 4);
	assert_int_equal(c->began, began);
}

static void stalls(void **state)
{
	struct fixture *f = *state;
	const struct memory_stall_cell *direct, *memcg, *compaction;

	meminfo(f, 1000, "available", 1);
	stall(f, "direct_reclaim", 1500, 3200, 4, 5);
	stall(f, "direct_reclaim", 3100, 6000, 4, 6);
	stall(f, "memcg_reclaim", 2000, 2000, 4, 5);
	stall(f, "compaction", 4000, 3900, 4, 7);	/* backwards: no time */
	direct = memory_timeline_stall_row(&f->tl, MEMORY_STALL_DIRECT_RECLAIM);
	memcg = memory_timeline_stall_row(&f->tl, MEMORY_STALL_MEMCG_RECLAIM);
	compaction = memory_timeline_stall_row(&f->tl, MEMORY_STALL_COMPACTION);
	check_stall(&direct[0], 500, 1700, 5, 1);
	check_stall(&direct[1], 1000, 1700, 5, 0);
	check_stall(&direct[2], 1100, 2900, 6, 1);
	check_stall(&direct[3], 1000, 2900, 6, 0);
	check_stall(&direct[4], 1000, 2900, 6, 0);
	assert_false(direct[5].marked);
	check_stall(&memcg[1], 0, 0, 5, 1);
	assert_false(memcg[0].marked);
	assert_false(memcg[2].marked);
	check_stall(&compaction[3], 0, 0, 7, 1);

	/* halved: sums added, the longer of the two kept */
	meminfo(f, 1000 + COLUMNS * 1000, "available", 1);
	assert_int_equal(f->tl.cell_ns, 2000);
	check_stall(&direct[0], 1500, 1700, 5, 1);
	check_stall(&direct[1], 2100, 2900, 6, 1);
	check_stall(&direct[2], 1000, 2900, 6, 0);
	assert_false(direct[3].marked);
	check_stall(&memcg[0], 0, 0, 5, 1);
	check_stall(&compaction[1], 0, 0, 7, 1);
}

static void processes_kept(void **state)
{
	struct memory_timeline *tl = &((struct fixture *)*state)->tl;
	const struct memory_series *s;
	uint64_t pid;

	for (pid = 1; pid <= MEMORY_TIMELINE_PROCESSES; pid++)
		assert_int_equal(memory_timeline_rss(tl, pid, 1000 + pid,
						     pid * MIB, pid * MIB), 0);
	/* smaller than, or as large as, the least kept: not kept */
	assert_int_equal(memory_timeline_rss(tl, 1000, 4000, MIB / 2, MIB / 2),
			 0);
	assert_int_equal(memory_timeline_rss(tl, 1001, 4000, MIB, MIB), 0);
	assert_int_equal(tl->processes_replaced, 0);
	/* larger: in the place of the least, pid 1 */
	assert_int_equal(memory_timeline_rss(tl, 1000, 5000, 300 * MIB,
					     300 * MIB), 0);
	assert_int_equal(tl->processes_replaced, 1);
	assert_int_equal(tl->nprocesses, MEMORY_TIMELINE_PROCESSES);
	/* a kept one is still found after the index was rebuilt */
	assert_int_equal(memory_timeline_rss(tl, 2, 6000, 3 * MIB, 3 * MIB), 0);
	s = memory_timeline_process(tl, 1000);
	assert_non_null(s);
	assert_int_equal(s->peak, 300 * MIB);
	assert_int_equal(s->first_col, (5000 - 1001) / 1000);
	assert_int_equal(s->last_col, s->first_col);
	assert_int_equal(s->cells[s->first_col], 300 * MIB);
	assert_int_equal(s->cells[0], 0);	/* pid 1's cells are gone */
	assert_null(memory_timeline_process(tl, 1));
	assert_null(memory_timeline_process(tl, 1001));
	for (pid = 2; pid <= MEMORY_TIMELINE_PROCESSES; pid++) {
		s = memory_timeline_process(tl, pid);
		assert_non_null(s);
		assert_int_equal(s->peak, pid == 2 ? 3 * MIB : pid * MIB);
	}
}

static void check_bounded(const struct memory_timeline *tl)
{
	const struct memory_series *s;
	unsigned int k;

	assert_true(tl->cell_ns >= 1000);
	assert_true((tl->end_ns - tl->t0_ns) / tl->cell_ns < COLUMNS);
	for (k = 0; k < MEMORY_SYSTEM_SERIES + tl->nprocesses; k++) {
		s = k < MEMORY_SYSTEM_SERIES ?
			    &tl->system[k] :
			    &tl->processes[k - MEMORY_SYSTEM_SERIES];
		if (!s->started)
			continue;
		assert_true(s->first_col <= s->last_col);
		assert_true(s->last_col < COLUMNS);
	}
}

static void extremes(void **state)
{
	struct fixture *f = *state;
	const struct memory_stall_cell *row;
	uint64_t pid, sum = 0;
	uint32_t c;

	/* column 0 from here: the last column will end past 2^64 */
	rss(f, UINT64_MAX - 500, 1, "anon", UINT64_MAX);
	rss(f, UINT64_MAX, 1, "file", UINT64_MAX);
	meminfo(f, 0, "available", UINT64_MAX);
	meminfo(f, UINT64_MAX - 1, "cached", UINT64_MAX);
	check_bounded(&f->tl);
	for (pid = 2; pid < 2 * MEMORY_TIMELINE_PROCESSES; pid++)
		rss(f, UINT64_MAX - pid * 977, pid, "anon",
		    UINT64_MAX - 2 * MEMORY_TIMELINE_PROCESSES + pid);
	stall(f, "direct_reclaim", 0, UINT64_MAX, 9, 9);
	stall(f, "compaction", UINT64_MAX, UINT64_MAX, 9, 9);
	check_bounded(&f->tl);
	assert_int_equal(f->tl.end_ns, UINT64_MAX);
	/* column 0 starts at 0 or as near as whole cells allow */
	assert_true(f->tl.t0_ns < f->tl.cell_ns);
	assert_int_equal(f->tl.system[MEMORY_AVAILABLE].cells[0], UINT64_MAX);
	/* the stall's time from column 0 on, to the nanosecond */
	row = memory_timeline_stall_row(&f->tl, MEMORY_STALL_DIRECT_RECLAIM);
	for (c = 0; c < COLUMNS; c++)
		sum += row[c].stall_ns;
	assert_int_equal(sum, UINT64_MAX - f->tl.t0_ns);
	assert_int_equal(row[0].longest_ns, UINT64_MAX);
	row = memory_timeline_stall_row(&f->tl, MEMORY_STALL_COMPACTION);
	c = (uint32_t)((UINT64_MAX - f->tl.t0_ns) / f->tl.cell_ns);
	assert_true(row[c].marked);
	/* each larger than all kept but pid 1 */
	assert_int_equal(f->tl.processes_replaced,
			 MEMORY_TIMELINE_PROCESSES - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(system_series, setup, teardown),
		cmocka_unit_test_setup_teardown(rss_series, setup, teardown),
		cmocka_unit_test_setup_teardown(halve_and_move_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(stalls, setup, teardown),
		cmocka_unit_test_setup_teardown(processes_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(extremes, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
