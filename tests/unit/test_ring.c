// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring reader of <fxt/ring.h> on a ring laid out by hand in memory:
 * whole records, a record wrapping at the end of the data, circular
 * overwrites, a full buffer, and a header of impossible size; the peek of
 * a live circular ring, by hand and against a writer thread overwriting
 * it as fast as it can.
 */
#include <pthread.h>
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

static void peek_reads_from_oldest_and_releases_nothing(void **state)
{
	struct test_ring t;
	uint64_t out[DATA_WORDS];

	ring_init(&t);
	put_record(&t, 96, 4);
	put_record(&t, 128, 2);	/* 128 & 63 = 0: after the wrap */
	t.ctrl.oldest = 96;
	t.ctrl.head = 144;
	t.consumer.tail = 8;
	assert_int_equal(fxt_ring_peek(&t.r, out), 48);
	assert_int_equal(out[0], fxt_record_header(FXT_RECORD_EVENT, 4));
	assert_int_equal(out[1], 97);
	assert_int_equal(out[3], 99);
	assert_int_equal(out[4], fxt_record_header(FXT_RECORD_EVENT, 2));
	assert_int_equal(out[5], 129);
	assert_int_equal(t.consumer.tail, 8);
	/* Again: the same records. */
	memset(out, 0, sizeof(out));
	assert_int_equal(fxt_ring_peek(&t.r, out), 48);
	assert_int_equal(out[5], 129);
	/* Nothing held. */
	t.ctrl.oldest = t.ctrl.head;
	assert_int_equal(fxt_ring_peek(&t.r, out), 0);
	assert_int_equal(t.r.corrupt, 0);
}

static void peek_counts_a_bad_size(void **state)
{
	struct test_ring t;
	uint64_t out[DATA_WORDS];

	ring_init(&t);
	put_record(&t, 0, 2);
	put_record(&t, 16, 5);	/* 5 words where 4 are published */
	t.ctrl.head = 48;
	assert_int_equal(fxt_ring_peek(&t.r, out), 16);
	assert_int_equal(out[1], 1);
	assert_int_equal(t.r.corrupt, 1);
}

/*
 * The writer of include/fxt/ring.h in circular mode, as the BPF program
 * and the module do it: move oldest past the records to overwrite, write
 * the words, publish head. Record k has words words (2..5), each k.
 */
#define RACE_WORDS 64
#define RACE_RECORDS 20000000u

struct race {
	struct fxt_ring_ctrl ctrl;
	struct fxt_ring_consumer consumer;
	uint64_t data[RACE_WORDS];
	int done;
};

static void *race_writer(void *arg)
{
	struct race *r = arg;
	uint64_t head = 0, oldest = 0, k;
	unsigned int i, words;

	for (k = 1; k <= RACE_RECORDS; k++) {
		words = 2 + k % 4;
		while (head + words * 8 - oldest > sizeof(r->data)) {
			oldest += fxt_record_bytes(
				r->data[oldest / 8 % RACE_WORDS]);
			__atomic_store_n(&r->ctrl.oldest, oldest,
					 __ATOMIC_RELAXED);
		}
		__atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n(&r->data[head / 8 % RACE_WORDS],
				 fxt_record_header(FXT_RECORD_EVENT, words),
				 __ATOMIC_RELAXED);
		for (i = 1; i < words; i++)
			__atomic_store_n(&r->data[(head / 8 + i) % RACE_WORDS],
					 k, __ATOMIC_RELAXED);
		head += words * 8;
		__atomic_store_n(&r->ctrl.head, head, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void peek_never_tears_a_record_being_overwritten(void **state)
{
	static struct race r;
	struct fxt_ring_reader reader = {
		.ctrl = &r.ctrl,
		.consumer = &r.consumer,
		.data = r.data,
		.mask = sizeof(r.data) - 1,
	};
	uint64_t out[RACE_WORDS], peeks = 0, records = 0;
	pthread_t writer;

	assert_int_equal(pthread_create(&writer, NULL, race_writer, &r), 0);
	while (!__atomic_load_n(&r.done, __ATOMIC_ACQUIRE)) {
		uint64_t len = fxt_ring_peek(&reader, out), pos, last = 0;

		for (pos = 0; pos < len; pos += fxt_record_bytes(out[pos / 8])) {
			unsigned int words = fxt_record_words(out[pos / 8]), i;
			uint64_t k = out[pos / 8 + 1];

			assert_int_equal(words, 2 + k % 4);
			for (i = 2; i < words; i++)
				assert_int_equal(out[pos / 8 + i], k);
			if (last)
				assert_int_equal(k, last + 1);
			last = k;
			records++;
		}
		peeks++;
	}
	pthread_join(writer, NULL);
	assert_int_equal(reader.corrupt, 0);
	assert_true(peeks > 0);
	print_message("%llu peeks, %llu whole records\n",
		      (unsigned long long)peeks, (unsigned long long)records);
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
		cmocka_unit_test(peek_reads_from_oldest_and_releases_nothing),
		cmocka_unit_test(peek_counts_a_bad_size),
		cmocka_unit_test(peek_never_tears_a_record_being_overwritten),
		cmocka_unit_test(record_bytes_from_the_header),
		cmocka_unit_test(data_bytes_rounding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
