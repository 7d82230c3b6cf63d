// SPDX-License-Identifier: GPL-2.0-only
/*
 * The export's pieces on hostile input, without a server: RowBinary's
 * lengths; slices paired innermost first, with their own category and
 * name (the pairing's bounds are tests/unit/test_slice_match.c's); rows
 * of records whose times saturate or run backwards; the host of a
 * merged archive's rows.
 */
#define _GNU_SOURCE /* memmem */
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

static void write_named(struct fxt_writer *w, enum fxt_event_type type,
			uint64_t ts, uint64_t extra, const char *category,
			const char *name)
{
	struct fxt_writer_event ev = {
		.ts = ts,
		.thread = fxt_wthread(1, 2),
		.category = fxt_wstr(category),
		.name = fxt_wstr(name),
	};

	assert_int_equal(fxt_write_event(w, type, &ev, extra), 0);
}

static void write_event(struct fxt_writer *w, enum fxt_event_type type,
			uint64_t ts, uint64_t extra)
{
	write_named(w, type, ts, extra, "c", "n");
}

/* Every record w wrote, made into rows of x for hc (a host "h"). */
static void rows_of(struct export_rows *x, struct fxt_host_clock *hc,
		    struct fxt_writer *w)
{
	struct fxt_reader *r;
	struct fxt_record rec;

	hc->has_host = hc->has_start = true;
	strcpy(hc->hostname, "h");
	memset(hc->trace_id, 'a', 32);
	r = fxt_reader_open_mem(fxt_writer_data(w), fxt_writer_size(w), NULL);
	assert_non_null(r);
	export_rows_init(x, hc, NULL);
	while (fxt_reader_next(r, &rec) > 0)
		assert_int_equal(export_rows_record(x, &rec), 0);
	fxt_reader_close(r);
}

/* Two begins on one thread and their ends: inner's row first, names kept. */
static void test_pairs_innermost_first(void **state)
{
	struct fxt_host_clock hc = { 0 };
	struct fxt_writer w;
	struct export_rows x;
	const char *rows, *inner, *outer;
	size_t len;

	(void)state;
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	fxt_write_init(&w, 1000000000);
	write_named(&w, FXT_EVENT_DURATION_BEGIN, 10, 0, "cat", "outer");
	write_named(&w, FXT_EVENT_DURATION_BEGIN, 20, 0, "c", "inner");
	write_named(&w, FXT_EVENT_DURATION_END, 30, 0, "", "");
	write_named(&w, FXT_EVENT_DURATION_END, 40, 0, "", "");
	rows_of(&x, &hc, &w);
	assert_int_equal(x.count[EXPORT_SLICES], 2);
	assert_int_equal(export_rows_left_out(&x), 0);
	/* strings are a varuint length and the bytes: category, then name */
	rows = (const char *)x.rows[EXPORT_SLICES].data;
	len = x.rows[EXPORT_SLICES].len;
	inner = memmem(rows, len, "\001c\005inner", 8);
	outer = memmem(rows, len, "\003cat\005outer", 10);
	assert_non_null(inner);
	assert_non_null(outer);
	assert_true(inner < outer);
	export_rows_done(&x);
	fxt_writer_release(&w);
}

/* Rows of records whose times run backwards or past 2^64 ns. */
static void test_hostile_times(void **state)
{
	struct fxt_host_clock hc = { 0 };
	struct fxt_writer w;
	struct export_rows x;
	uint64_t dur;

	(void)state;
	hc.start.boottime = 1000;
	hc.start.realtime = UINT64_MAX - 10;
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	fxt_write_init(&w, 1);	/* a tick is a second: times saturate */
	write_event(&w, FXT_EVENT_DURATION_END, 5, 0);		/* no begin */
	write_event(&w, FXT_EVENT_DURATION_COMPLETE, 50, 10);	/* backwards */
	write_event(&w, FXT_EVENT_DURATION_BEGIN, UINT64_MAX >> 4, 0);
	write_event(&w, FXT_EVENT_INSTANT, UINT64_MAX >> 4, 0);
	rows_of(&x, &hc, &w);
	assert_int_equal(x.count[EXPORT_SLICES], 1);
	assert_int_equal(x.count[EXPORT_INSTANTS], 1);
	assert_int_equal(x.unmatched_ends, 1);
	assert_int_equal(export_rows_left_out(&x), 2);	/* + the open begin */
	/* the slice row: host, trace id, ts, then dur 0 for the backwards one */
	assert_int_equal(x.rows[EXPORT_SLICES].data[0], 1);
	memcpy(&dur, x.rows[EXPORT_SLICES].data + 1 + 1 + 32 + 8, 8);
	assert_int_equal(dur, 0);
	export_rows_done(&x);
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
		cmocka_unit_test(test_hostile_times),
		cmocka_unit_test(test_merged_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
