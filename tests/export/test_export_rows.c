// SPDX-License-Identifier: GPL-2.0-only
/*
 * The export's pieces on hostile input, without a server: RowBinary's
 * lengths; slices paired innermost first, bounded in threads and bytes
 * (a begin past a bound is lost and counted, its end then closes
 * nothing); rows of records whose times saturate or run backwards; the
 * host of a merged archive's rows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export_rows.h"
#include "fxt_writer.h"
#include "rowbinary.h"
#include "slice_stacks.h"

static void test_varuint(void **state)
{
	static const struct {
		uint64_t v;
		size_t len;
		uint8_t bytes[10];
	} cases[] = {
		{ 0, 1, { 0 } },
		{ 127, 1, { 0x7f } },
		{ 128, 2, { 0x80, 0x01 } },
		{ 300, 2, { 0xac, 0x02 } },
		{ UINT64_MAX, 10, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				    0xff, 0xff, 0x01 } },
	};
	struct rowbinary b = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rowbinary_reset(&b);
		rowbinary_varuint(&b, cases[i].v);
		assert_int_equal(b.len, cases[i].len);
		assert_memory_equal(b.data, cases[i].bytes, cases[i].len);
	}
	rowbinary_free(&b);
}

static struct fxt_str str(const char *s)
{
	return (struct fxt_str){ .data = s, .len = (uint32_t)strlen(s) };
}

static void test_pairs_innermost_first(void **state)
{
	struct slice_stacks s;
	struct closed_begin c;

	(void)state;
	slice_stacks_init(&s);
	assert_int_equal(slice_stacks_push(&s, 1, 2, 10, str("cat"), str("outer")), 0);
	assert_int_equal(slice_stacks_push(&s, 1, 2, 20, str("cat"), str("inner")), 0);
	assert_int_equal(slice_stacks_push(&s, 1, 3, 30, str("c"), str("other")), 0);
	assert_true(slice_stacks_pop(&s, 1, 2, &c));
	assert_int_equal(c.ns, 20);
	assert_int_equal(c.name.len, 5);
	assert_memory_equal(c.name.data, "inner", 5);
	assert_true(slice_stacks_pop(&s, 1, 2, &c));
	assert_memory_equal(c.name.data, "outer", 5);
	assert_memory_equal(c.category.data, "cat", 3);
	assert_false(slice_stacks_pop(&s, 1, 2, &c));	/* nothing open */
	assert_false(slice_stacks_pop(&s, 9, 9, &c));	/* unknown thread */
	assert_int_equal(slice_stacks_open(&s), 1);
	slice_stacks_free(&s);
}

/* Begins of long names past the byte budget: lost, counted, ends match. */
static void test_bytes_bounded(void **state)
{
	static char name[30000];
	struct slice_stacks s;
	struct closed_begin c;
	uint64_t i, pushed = 2000, kept;

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	slice_stacks_init(&s);
	for (i = 0; i < pushed; i++)
		assert_int_equal(slice_stacks_push(&s, 1, 1, i, str("c"),
						   str(name)), 0);
	assert_true(s.lost > 0);
	assert_true(s.bytes <= SLICE_STACKS_BYTES);
	assert_int_equal(s.lost + slice_stacks_open(&s), pushed);
	/* the lost ones were the deepest: their ends come first, close nothing */
	for (i = 0; i < s.lost; i++)
		assert_false(slice_stacks_pop(&s, 1, 1, &c));
	kept = pushed - s.lost;
	for (i = 0; i < kept; i++) {
		assert_true(slice_stacks_pop(&s, 1, 1, &c));
		assert_int_equal(c.ns, kept - 1 - i);
		assert_int_equal(c.name.len, sizeof(name) - 1);
	}
	assert_false(slice_stacks_pop(&s, 1, 1, &c));
	slice_stacks_free(&s);
}

static void test_threads_bounded(void **state)
{
	struct slice_stacks s;
	uint64_t t;

	(void)state;
	slice_stacks_init(&s);
	for (t = 0; t <= SLICE_STACKS_THREADS; t++)
		assert_int_equal(slice_stacks_push(&s, 1, t, t, str("c"),
						   str("n")), 0);
	assert_int_equal(s.nthreads, SLICE_STACKS_THREADS);
	assert_int_equal(s.lost, 1);
	slice_stacks_free(&s);
}

static void write_event(struct fxt_writer *w, enum fxt_event_type type,
			uint64_t ts, uint64_t extra)
{
	struct fxt_writer_event ev = {
		.ts = ts,
		.thread = fxt_wthread(1, 2),
		.category = fxt_wstr("c"),
		.name = fxt_wstr("n"),
	};

	assert_int_equal(fxt_write_event(w, type, &ev, extra), 0);
}

/* Rows of records whose times run backwards or past 2^64 ns. */
static void test_hostile_times(void **state)
{
	struct fxt_host_clock hc = { .has_host = true, .has_start = true };
	struct fxt_writer w;
	struct fxt_reader *r;
	struct fxt_record rec;
	struct export_rows x;
	uint64_t dur;

	(void)state;
	strcpy(hc.hostname, "h");
	memset(hc.trace_id, 'a', 32);
	hc.start.boottime = 1000;
	hc.start.realtime = UINT64_MAX - 10;
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	fxt_write_init(&w, 1);	/* a tick is a second: times saturate */
	write_event(&w, FXT_EVENT_DURATION_END, 5, 0);		/* no begin */
	write_event(&w, FXT_EVENT_DURATION_COMPLETE, 50, 10);	/* backwards */
	write_event(&w, FXT_EVENT_DURATION_BEGIN, UINT64_MAX >> 4, 0);
	write_event(&w, FXT_EVENT_INSTANT, UINT64_MAX >> 4, 0);
	r = fxt_reader_open_mem(fxt_writer_data(&w), fxt_writer_size(&w), NULL);
	assert_non_null(r);
	export_rows_init(&x, &hc, NULL);
	while (fxt_reader_next(r, &rec) > 0)
		assert_int_equal(export_rows_record(&x, &rec), 0);
	assert_int_equal(x.count[EXPORT_SLICES], 1);
	assert_int_equal(x.count[EXPORT_INSTANTS], 1);
	assert_int_equal(x.unmatched_ends, 1);
	assert_int_equal(export_rows_left_out(&x), 2);	/* + the open begin */
	/* the slice row: host, trace id, ts, then dur 0 for the backwards one */
	assert_int_equal(x.rows[EXPORT_SLICES].data[0], 1);
	memcpy(&dur, x.rows[EXPORT_SLICES].data + 1 + 1 + 32 + 8, 8);
	assert_int_equal(dur, 0);
	export_rows_done(&x);
	fxt_reader_close(r);
	fxt_writer_release(&w);
}

/* A manager instant of a merge's own section: "merge" or "merge_cpus". */
static void write_mark(struct fxt_writer *w, const char *name, const char *host,
		       uint64_t base, uint64_t cpus)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr(FXT_MERGE_ARG_HOST), fxt_wstr(host)),
		fxt_warg_uint64(fxt_wstr(FXT_MERGE_ARG_CPU_BASE), base),
		fxt_warg_uint64(fxt_wstr(FXT_MERGE_ARG_CPUS), cpus),
	};
	struct fxt_writer_event ev = {
		.thread = fxt_wthread(0, 0),
		.category = fxt_wstr(FXT_HOST_CLOCK_CATEGORY),
		.name = fxt_wstr(name),
		.args = args,
		.nargs = strcmp(name, FXT_MERGE_NAME) ? 3 : 1,
	};

	assert_int_equal(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD), 0);
}

/* The hosts of a merge of alpha (CPUs 0-1) and beta (CPUs 2-3). */
static void take_hosts(struct export_hosts *hs)
{
	struct fxt_writer w;
	struct fxt_reader *r;
	struct fxt_record rec;

	fxt_writer_init(&w);
	fxt_write_magic(&w);
	fxt_write_provider_info(&w, 1, FXT_HOST_CLOCK_PROVIDER,
				strlen(FXT_HOST_CLOCK_PROVIDER));
	fxt_write_provider_section(&w, 1);
	write_mark(&w, FXT_MERGE_NAME, "alpha", 0, 0);
	write_mark(&w, FXT_MERGE_NAME, "beta", 0, 0);
	write_mark(&w, FXT_MERGE_CPUS_NAME, "alpha", 0, 2);
	write_mark(&w, FXT_MERGE_CPUS_NAME, "beta", 2, 2);
	r = fxt_reader_open_mem(fxt_writer_data(&w), fxt_writer_size(&w), NULL);
	assert_non_null(r);
	while (fxt_reader_next(r, &rec) > 0)
		assert_int_equal(export_hosts_take(hs, &rec), 0);
	fxt_reader_close(r);
	fxt_writer_release(&w);
	assert_int_equal(hs->n, 2);
	assert_int_equal(hs->v[1].cpu_base, 2);
	assert_int_equal(hs->v[1].cpus, 2);
}

static void instant_on(struct fxt_writer *w, uint64_t pid)
{
	struct fxt_writer_event ev = {
		.thread = fxt_wthread(pid, pid),
		.category = fxt_wstr("c"),
		.name = fxt_wstr("n"),
	};

	assert_int_equal(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD), 0);
}

static void switch_on(struct fxt_writer *w, unsigned int cpu, uint64_t pid)
{
	assert_int_equal(fxt_write_legacy_context_switch(
				 w, 1, cpu, 0, fxt_wthread(pid, 7),
				 fxt_wthread(pid, 8), 0, 0),
			 0);
}

/*
 * In that merge an instant on pid 1 << 22 | 5 is beta's, on pid 0
 * alpha's, on a pid past the inputs the archive's host's; a context
 * switch on CPU 3 beta's, on CPU 1 alpha's, whatever their threads; one
 * on a CPU of no input its outgoing thread's host's.
 */
static void test_merged_hosts(void **state)
{
	static const char *const want[] = { "beta", "alpha", "h",
					    "beta", "alpha", "beta" };
	struct fxt_host_clock hc = { .has_host = true };
	struct export_hosts hs = { 0 };
	struct fxt_writer w;
	struct fxt_reader *r;
	struct fxt_record rec;
	struct export_rows x;
	unsigned int i;
	size_t at = 0;

	(void)state;
	strcpy(hc.hostname, "h");
	memset(hc.trace_id, 'a', 32);
	take_hosts(&hs);
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	instant_on(&w, 1u << 22 | 5);
	instant_on(&w, 0);
	instant_on(&w, 2u << 22);
	switch_on(&w, 3, 0);
	switch_on(&w, 1, 1u << 22);
	switch_on(&w, 9, 1u << 22 | 9);
	r = fxt_reader_open_mem(fxt_writer_data(&w), fxt_writer_size(&w), NULL);
	assert_non_null(r);
	export_rows_init(&x, &hc, &hs);
	while (fxt_reader_next(r, &rec) > 0)
		assert_int_equal(export_rows_record(&x, &rec), 0);
	assert_int_equal(x.count[EXPORT_INSTANTS], 3);
	assert_int_equal(x.count[EXPORT_CONTEXT_SWITCHES], 3);
	/*
	 * Rows: host, trace id, ts, then an instant's pid, tid, "c", "n",
	 * scope and no arguments, a switch's CPU, state, pid and tid twice.
	 */
	for (i = 0; i < 6; i++) {
		struct rowbinary *b = &x.rows[i < 3 ? EXPORT_INSTANTS :
						      EXPORT_CONTEXT_SWITCHES];

		if (i == 3)
			at = 0;
		assert_int_equal(b->data[at], strlen(want[i]));
		assert_memory_equal(b->data + at + 1, want[i], strlen(want[i]));
		at += 1 + strlen(want[i]) + 32 + 8 + 8 + 8;
		at += i < 3 ? 2 + 2 + 3 : 4 + 1 + 8 + 8;
	}
	export_rows_done(&x);
	fxt_reader_close(r);
	fxt_writer_release(&w);
	export_hosts_free(&hs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varuint),
		cmocka_unit_test(test_pairs_innermost_first),
		cmocka_unit_test(test_bytes_bounded),
		cmocka_unit_test(test_threads_bounded),
		cmocka_unit_test(test_hostile_times),
		cmocka_unit_test(test_merged_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
