// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring reader of <fxt/ring.h> on a ring laid out by hand in memory:
 * whole records, a record wrapping at the end of the data, circular
 * overwrites, a full buffer, and a header of impossible size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fxt/ring.h>

#define DATA_WORDS 8	/* 64 bytes */

struct test_ring {
	struct fxt_ring_ctrl ctrl;
	struct fxt_ring_consumer consumer;
	uint64_t data[DATA_WORDS];
	struct fxt_ring_reader r;
};

static void ring_init(struct test_ring *t)
{
	memset(t, 0, sizeof(*t));
	t->r.ctrl = &t->ctrl;
	t->r.consumer = &t->consumer;
	t->r.data = t->data;
	t->r.mask = sizeof(t->data) - 1;
}

/* A record of words words at byte position pos: header, then pos + i. */
static void put_record(struct test_ring *t, uint64_t pos, unsigned int words)
{
	unsigned int i;

	t->data[pos / 8 % DATA_WORDS] =
		fxt_record_header(FXT_RECORD_EVENT, words);
	for (i = 1; i < words; i++)
		t->data[(pos / 8 + i) % DATA_WORDS] = pos + i;
}

static void reads_whole_records_across_the_wrap(void **state)
{
	struct test_ring t;
	uint64_t out[DATA_WORDS];

	ring_init(&t);
	/* Consumed up to 48; records of 3 words at 48 (wraps) and 2 at 72. */
	put_record(&t, 48, 3);
	put_record(&t, 72, 2);
	t.consumer.tail = 48;
	t.ctrl.head = 88;
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 1), 40);
	assert_int_equal(out[0], fxt_record_header(FXT_RECORD_EVENT, 3));
	assert_int_equal(out[1], 49);
	assert_int_equal(out[2], 50);	/* data[0]: after the wrap */
	assert_int_equal(out[3], fxt_record_header(FXT_RECORD_EVENT, 2));
	assert_int_equal(out[4], 73);
	assert_int_equal(t.consumer.tail, 88);
	assert_int_equal(t.r.corrupt, 0);
	/* Empty now. */
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 1), 0);
}

static void stops_before_a_record_that_does_not_fit(void **state)
{
	struct test_ring t;
	uint64_t out[DATA_WORDS];

	ring_init(&t);
	put_record(&t, 0, 2);
	put_record(&t, 16, 4);
	t.ctrl.head = 48;
	assert_int_equal(fxt_ring_read(&t.r, out, 40, 1), 16);
	assert_int_equal(t.consumer.tail, 16);
	/* Without release the same records are read again. */
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 0), 32);
	assert_int_equal(out[1], 17);
	assert_int_equal(t.consumer.tail, 16);
	assert_int_equal(t.r.corrupt, 0);
}

static void circular_reads_from_oldest(void **state)
{
	struct test_ring t;
	uint64_t out[DATA_WORDS];

	ring_init(&t);
	/* The writer overwrote past the reader's tail of 0. */
	put_record(&t, 96, 4);
	put_record(&t, 128, 2);
	t.ctrl.oldest = 96;
	t.ctrl.head = 144;
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 1), 48);
	assert_int_equal(out[0], fxt_record_header(FXT_RECORD_EVENT, 4));
	assert_int_equal(out[1], 97);
	assert_int_equal(out[5], 129);
	assert_int_equal(t.consumer.tail, 144);
}

static void skips_and_counts_a_bad_size(void **state)
{
	struct test_ring t;
	uint64_t out[DATA_WORDS];

	ring_init(&t);
	put_record(&t, 0, 2);
	/* Claims 5 words where 4 are published: nothing after it is read. */
	put_record(&t, 16, 5);
	t.ctrl.head = 48;
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 1), 16);
	assert_int_equal(out[1], 1);
	assert_int_equal(t.r.corrupt, 1);
	assert_int_equal(t.consumer.tail, 48);
	/* A zero size, then a span longer than the ring: each counted. */
	t.data[6] = 0;
	t.ctrl.head = 56;
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 1), 0);
	assert_int_equal(t.r.corrupt, 2);
	t.ctrl.head = 56 + 72;
	assert_int_equal(fxt_ring_read(&t.r, out, sizeof(out), 1), 0);
	assert_int_equal(t.r.corrupt, 3);
	assert_int_equal(t.consumer.tail, 128);
}

static void record_bytes_from_the_header(void **state)
{
	struct test_ring t;

	ring_init(&t);
	put_record(&t, 8, 3);
	assert_int_equal(fxt_ring_word(t.data, t.r.mask, 72), t.data[1]);
	assert_int_equal(fxt_ring_record_bytes(t.data, t.r.mask, 8, 32), 24);
	assert_int_equal(fxt_ring_record_bytes(t.data, t.r.mask, 8, 24), 0);
}

static void data_bytes_rounding(void **state)
{
	assert_int_equal(fxt_ring_data_bytes(0, 4096, 1 << 20, 65536), 65536);
	assert_int_equal(fxt_ring_data_bytes(1, 4096, 1 << 20, 65536), 4096);
	assert_int_equal(fxt_ring_data_bytes(4097, 4096, 1 << 20, 65536), 8192);
	assert_int_equal(fxt_ring_data_bytes(1 << 30, 4096, 1 << 20, 65536),
			 1 << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_whole_records_across_the_wrap),
		cmocka_unit_test(stops_before_a_record_that_does_not_fit),
		cmocka_unit_test(circular_reads_from_oldest),
		cmocka_unit_test(skips_and_counts_a_bad_size),
		cmocka_unit_test(record_bytes_from_the_header),
		cmocka_unit_test(data_bytes_rounding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
