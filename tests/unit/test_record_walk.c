// SPDX-License-Identifier: GPL-2.0-only
/*
 * The manager's walk of a provider area (daemon/fxtraced/record_walk.c),
 * word by word: in a rolling half a zero header word ends the records of
 * one writer chunk only, records may span chunks, the last chunk may be
 * cut; the durable area ends at its first zero header word; a record that
 * overruns the area ends the walk, counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <fxt/fxt.h>
#include <fxt/provider_abi.h>

#include "record_walk.h"

#define CHUNK 256u
#define AREA_BYTES 1056u	/* 4 chunks and a cut one of 32 bytes */

struct emitted {
	size_t n;
	size_t offset[8], len[8];
	uint64_t records[8];	/* the walk's count as each run came */
	const uint8_t *base;
	const struct record_walk_stats *st;
};

static int emit(void *ctx, const void *data, size_t len)
{
	struct emitted *e = ctx;

	assert_true(e->n < 8);
	e->offset[e->n] = (size_t)((const uint8_t *)data - e->base);
	e->records[e->n] = e->st ? e->st->records : 0;
	e->len[e->n++] = len;
	return 0;
}

static uint64_t area[AREA_BYTES / 8];

/* An instant without arguments (2 words) at byte offset, ts = tag. */
static void put_instant(size_t offset, uint64_t tag)
{
	area[offset / 8] = fxt_event_header(2, FXT_EVENT_INSTANT, 0, 1, 1, 2);
	area[offset / 8 + 1] = tag;
}

/*
 * chunk 0: two instants, a torn one (its timestamp written, its header
 * not: the writer died), zeros; chunk 1: empty; chunks 2-3: a 312-byte
 * blob from chunk 2 into chunk 3, an instant after it, zeros; chunk 4
 * (cut to 32 bytes): two instants to the area's end.
 */
static void fill(void)
{
	memset(area, 0, sizeof(area));
	put_instant(0, 10);
	put_instant(16, 11);
	area[40 / 8] = 0xdead;
	area[512 / 8] = fxt_blob_header(39, 3, 300, FXT_BLOB_DATA);
	memset(&area[512 / 8 + 1], 0xab, 300);
	put_instant(512 + 312, 12);
	put_instant(1024, 13);
	put_instant(1040, 14);
}

static void test_walk_chunks(void **state)
{
	struct record_walk_stats st = { 0 };
	struct emitted e = { .base = (const uint8_t *)area, .st = &st };
	size_t end;

	(void)state;
	fill();
	assert_int_equal(record_walk_chunks(area, AREA_BYTES, CHUNK, &st, &end,
					    emit, &e), 0);
	/* Runs of adjacent records; the chunks' zero tails left out. */
	assert_int_equal(e.n, 3);
	assert_int_equal(e.offset[0], 0);
	assert_int_equal(e.len[0], 32);
	assert_int_equal(e.offset[1], 512);
	assert_int_equal(e.len[1], 312 + 16);
	assert_int_equal(e.offset[2], 1024);
	assert_int_equal(e.len[2], 32);
	/* Each run comes with exactly the records before it counted. */
	assert_int_equal(e.records[0], 2);
	assert_int_equal(e.records[1], 4);
	assert_int_equal(e.records[2], 6);
	assert_int_equal(st.records, 6);
	assert_int_equal(st.bytes, 32 + 328 + 32);
	assert_int_equal(st.skipped, 0);
	assert_false(st.torn);
	assert_int_equal(end, AREA_BYTES);
}

/* chunk 0 (the durable area's rule): the first zero header word ends it. */
static void test_walk_durable_stops_at_zero(void **state)
{
	struct record_walk_stats st = { 0 };
	struct emitted e = { .base = (const uint8_t *)area };
	size_t end;

	(void)state;
	fill();
	assert_int_equal(record_walk(area, AREA_BYTES, &st, &end, emit, &e), 0);
	assert_int_equal(e.n, 1);
	assert_int_equal(e.offset[0], 0);
	assert_int_equal(e.len[0], 32);
	assert_int_equal(st.records, 2);
	assert_int_equal(end, 32);
}

/* A header whose size overruns the area ends the walk: torn, counted. */
static void test_walk_torn_chunk(void **state)
{
	struct record_walk_stats st = { 0 };
	struct emitted e = { .base = (const uint8_t *)area };
	size_t end;

	(void)state;
	fill();
	area[1040 / 8] = fxt_event_header(100, FXT_EVENT_INSTANT, 0, 1, 1, 2);
	assert_int_equal(record_walk_chunks(area, AREA_BYTES, CHUNK, &st, &end,
					    emit, &e), 0);
	assert_int_equal(e.n, 3);
	assert_int_equal(e.offset[2], 1024);
	assert_int_equal(e.len[2], 16);
	assert_int_equal(st.records, 5);
	assert_int_equal(st.skipped, 1);
	assert_true(st.torn);
	assert_int_equal(end, 1040);
}

/*
 * Adjacent records over more than 4 MiB come in runs of 4 MiB, so that
 * the receiver can pass them on while the walk goes on.
 */
#define LONG_BYTES (4u * 1024u * 1024u + 4096u)
static uint64_t long_area[LONG_BYTES / 8];

static void test_walk_long_run_in_steps(void **state)
{
	struct record_walk_stats st = { 0 };
	struct emitted e = { .base = (const uint8_t *)long_area, .st = &st };
	size_t end, i;

	(void)state;
	for (i = 0; i < LONG_BYTES / 8; i += 2) {
		long_area[i] = fxt_event_header(2, FXT_EVENT_INSTANT, 0, 1, 1, 2);
		long_area[i + 1] = i;
	}
	assert_int_equal(record_walk_chunks(long_area, LONG_BYTES, 65536, &st,
					    &end, emit, &e), 0);
	assert_int_equal(e.n, 2);
	assert_int_equal(e.offset[0], 0);
	assert_int_equal(e.len[0], 4u * 1024u * 1024u);
	assert_int_equal(e.records[0], 4u * 1024u * 1024u / 16);
	assert_int_equal(e.offset[1], 4u * 1024u * 1024u);
	assert_int_equal(e.len[1], 4096);
	assert_int_equal(st.records, LONG_BYTES / 16);
	assert_int_equal(st.skipped, 0);
	assert_int_equal(end, LONG_BYTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk_chunks),
		cmocka_unit_test(test_walk_durable_stops_at_zero),
		cmocka_unit_test(test_walk_torn_chunk),
		cmocka_unit_test(test_walk_long_run_in_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
