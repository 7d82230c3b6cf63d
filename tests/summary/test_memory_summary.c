// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary's kernel:mem aggregates (memory_summary.h) on records made
 * here: peak RSS of counters that arrive one at a time, stalls matched
 * begin to end per thread and kind (an end without its begin, a begin
 * without its end, time running backwards add nothing), OOM kills, and
 * the bounds: the tables' and the OOM kills' ceilings, a long name cut.
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

static void rss(struct memory_summary *m, uint64_t pid, const char *member,
		uint64_t bytes)
{
	struct fxt_record r = event(FXT_EVENT_COUNTER, "mem.rss", 1, pid, pid);

	add_u64(&r, member, bytes);
	assert_int_equal(memory_summary_record(m, &r), 0);
}

static void slice(struct memory_summary *m, enum fxt_event_type type,
		  const char *name, uint64_t ts, uint64_t tid)
{
	struct fxt_record r = event(type, name, ts, 7, tid);

	assert_int_equal(memory_summary_record(m, &r), 0);
}

static void peak_rss(void **state)
{
	struct memory_summary m;
	const struct memory_process **v;
	struct fxt_record other;
	size_t n;

	memory_summary_init(&m);
	rss(&m, 10, "file", 1 * MIB);
	rss(&m, 10, "anon", 5 * MIB);
	rss(&m, 10, "swap", 2 * MIB);	/* not resident */
	rss(&m, 10, "anon", 3 * MIB);
	rss(&m, 10, "shmem", 1 * MIB);
	rss(&m, 11, "anon", 9 * MIB);
	/* Another category's counter of the same name is not kernel:mem. */
	other = event(FXT_EVENT_COUNTER, "mem.rss", 1, 12, 12);
	other.event.category = str("app");
	add_u64(&other, "anon", 100 * MIB);
	assert_int_equal(memory_summary_record(&m, &other), 0);

	v = memory_summary_processes(&m, &n);
	assert_int_equal(n, 2);
	assert_int_equal(v[0]->pid, 11);
	assert_int_equal(v[0]->peak_rss, 9 * MIB);
	assert_int_equal(v[1]->pid, 10);
	assert_int_equal(v[1]->peak_rss, 6 * MIB);	/* 1 + 5, then 1 + 3 + 1 */
	assert_int_equal(v[1]->peak_swap, 2 * MIB);
	free(v);
	/* Saturating: counters near 2^64 add up to 2^64 - 1. */
	rss(&m, 13, "file", UINT64_MAX - 1);
	rss(&m, 13, "anon", UINT64_MAX - 1);
	v = memory_summary_processes(&m, &n);
	assert_int_equal(v[0]->peak_rss, UINT64_MAX);
	free(v);
	memory_summary_free(&m);
}

static void stalls(void **state)
{
	struct memory_summary m;
	const struct memory_thread **v;
	size_t n;

	memory_summary_init(&m);
	/* An end whose begin the trace never saw. */
	slice(&m, FXT_EVENT_DURATION_END, "direct_reclaim", 50, 100);
	slice(&m, FXT_EVENT_DURATION_BEGIN, "direct_reclaim", 100, 100);
	slice(&m, FXT_EVENT_DURATION_END, "direct_reclaim", 400, 100);
	slice(&m, FXT_EVENT_DURATION_BEGIN, "memcg_reclaim", 500, 100);
	slice(&m, FXT_EVENT_DURATION_END, "memcg_reclaim", 600, 100);
	/* Time running backwards adds nothing. */
	slice(&m, FXT_EVENT_DURATION_BEGIN, "compaction", 900, 100);
	slice(&m, FXT_EVENT_DURATION_END, "compaction", 800, 100);
	/* A begin left open, another thread's. */
	slice(&m, FXT_EVENT_DURATION_BEGIN, "memcg_reclaim", 1000, 100);
	slice(&m, FXT_EVENT_DURATION_BEGIN, "direct_reclaim", 0, 200);
	slice(&m, FXT_EVENT_DURATION_END, "direct_reclaim", 1000, 200);
	/* Not a stall. */
	slice(&m, FXT_EVENT_DURATION_BEGIN, "other", 0, 300);
	slice(&m, FXT_EVENT_DURATION_END, "other", 1000, 300);

	v = memory_summary_stalled(&m, &n);
	assert_int_equal(n, 2);
	assert_int_equal(v[0]->tid, 200);
	assert_int_equal(memory_thread_stall_ns(v[0]), 1000);
	assert_int_equal(v[1]->tid, 100);
	assert_int_equal(v[1]->pid, 7);
	assert_int_equal(v[1]->stall_ns[MEMORY_STALL_DIRECT_RECLAIM], 300);
	assert_int_equal(v[1]->stalls[MEMORY_STALL_DIRECT_RECLAIM], 1);
	assert_int_equal(v[1]->stall_ns[MEMORY_STALL_MEMCG_RECLAIM], 100);
	assert_int_equal(v[1]->stalls[MEMORY_STALL_MEMCG_RECLAIM], 1);
	assert_int_equal(v[1]->stall_ns[MEMORY_STALL_COMPACTION], 0);
	assert_int_equal(v[1]->stalls[MEMORY_STALL_COMPACTION], 1);
	assert_int_equal(memory_thread_stall_ns(v[1]), 400);
	free(v);
	memory_summary_free(&m);
}

static void oom_kills(void **state)
{
	char name[200];
	struct memory_summary m;
	struct fxt_record r;
	struct fxt_arg *a;
	unsigned int i;

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memory_summary_init(&m);
	for (i = 0; i < MEMORY_SUMMARY_OOM_MAX + 3; i++) {
		r = event(FXT_EVENT_INSTANT, "oom_kill", 5, 42, 43);
		a = &r.args[r.nargs++];
		a->type = FXT_ARG_UINT32;
		a->name = str("pid");
		a->value.u32 = 42;
		a = &r.args[r.nargs++];
		a->type = FXT_ARG_STRING;
		a->name = str("name");
		a->value.str = str(i ? "victim" : name);
		add_u64(&r, "rss", 64 * MIB);
		assert_int_equal(memory_summary_record(&m, &r), 0);
	}
	assert_int_equal(m.nooms, MEMORY_SUMMARY_OOM_MAX);
	assert_int_equal(m.ooms_lost, 3);
	assert_int_equal(m.ooms[0].pid, 42);
	assert_int_equal(m.ooms[0].rss, 64 * MIB);
	assert_int_equal(m.ooms[0].name_len, MEMORY_SUMMARY_NAME_MAX);
	assert_int_equal(m.ooms[1].name_len, 6);
	assert_memory_equal(m.ooms[1].name, "victim", 6);
	memory_summary_free(&m);
}

static void table_ceiling(void **state)
{
	struct memory_summary m;
	uint64_t pid;

	memory_summary_init(&m);
	for (pid = 1; pid <= MEMORY_SUMMARY_TABLE_MAX + 2; pid++)
		rss(&m, pid, "anon", pid);
	/* Known ones are still found. */
	rss(&m, 5, "anon", 1);
	assert_int_equal(m.processes.n, MEMORY_SUMMARY_TABLE_MAX);
	assert_int_equal(m.processes.untracked, 2);
	memory_summary_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(peak_rss),
		cmocka_unit_test(stalls),
		cmocka_unit_test(oom_kills),
		cmocka_unit_test(table_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
