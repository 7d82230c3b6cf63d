// SPDX-License-Identifier: GPL-2.0-only
/*
 * Concurrent writers: 4 threads x 100k events into one buffer. Every
 * record must decode (no torn record: the reader reports none), each
 * thread's sequence must be complete and in order, and the counts in the
 * header must add up. The circular variant wraps thousands of times
 * while the threads write, which exercises half switching under load.
 */
#include "provider_test.h"

#include <pthread.h>

#define WRITERS 4
#define EVENTS 100000

struct writer {
	pthread_t thread;
	uint32_t index;
	uint64_t tid;
};

static pthread_barrier_t go;

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	uint32_t i;

	w->tid = (uint64_t)gettid();
	pthread_barrier_wait(&go);
	for (i = 0; i < EVENTS; i++)
		TRACE_INSTANT("mt", "event", TRACE_SCOPE_THREAD,
			      TRACE_ARG_U32("w", w->index),
			      TRACE_ARG_U32("i", i));
	return NULL;
}

static void run_writers(struct writer *w)
{
	unsigned int k;

	pthread_barrier_init(&go, NULL, WRITERS);
	for (k = 0; k < WRITERS; k++) {
		w[k].index = k;
		assert_int_equal(pthread_create(&w[k].thread, NULL,
						writer_main, &w[k]), 0);
	}
	for (k = 0; k < WRITERS; k++)
		pthread_join(w[k].thread, NULL);
	pthread_barrier_destroy(&go);
}

struct tally {
	uint64_t events[WRITERS];
	int64_t last[WRITERS];
	uint64_t records;
};

static void tally_events(struct test_buffer *t, struct writer *w,
			 struct tally *y, bool from_zero)
{
	size_t len;
	uint8_t *data = test_buffer_collect(t, &len);
	struct fxt_reader *r = test_reader(data, len);
	struct fxt_record rec;
	unsigned int k;
	int ret;

	memset(y, 0, sizeof(*y));
	for (k = 0; k < WRITERS; k++)
		y->last[k] = -1;
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		uint32_t wi, i;

		y->records++;
		if (rec.type != FXT_RECORD_EVENT)
			continue;
		assert_str(rec.event.name, "event");
		assert_int_equal(rec.nargs, 2);
		wi = rec.args[0].value.u32;
		i = rec.args[1].value.u32;
		assert_true(wi < WRITERS);
		assert_true(rec.event.thread.tid == w[wi].tid);
		/* In order; without wrapping also without gaps. */
		if (from_zero)
			assert_int_equal(i, y->last[wi] + 1);
		else
			assert_true((int64_t)i > y->last[wi]);
		y->last[wi] = i;
		y->events[wi]++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(fxt_reader_stats(r)->malformed, 0);
	fxt_reader_close(r);
	free(data);
}

static void test_oneshot_no_torn_records(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct writer w[WRITERS];
	struct tally y;
	unsigned int k;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 1 << 16, 32 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "mt", -1);
	run_writers(w);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 0);
	tally_events(&t, w, &y, true);
	for (k = 0; k < WRITERS; k++) {
		assert_int_equal(y.events[k], EVENTS);
		assert_int_equal(y.last[k], EVENTS - 1);
	}
	assert_true(t.hdr->records_written == y.records);
	/* Exited threads gave their state back (pthread key destructor). */
	assert_int_equal(fxt_test_registered_threads(), 0);
	test_buffer_free(&t);
}

static void test_circular_wraps_under_load(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct writer w[WRITERS];
	struct tally y;
	uint64_t total = 0;
	unsigned int k;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 1 << 16, 64 << 10, true), 0);
	test_buffer_attach(&t, FXT_BUFFERING_CIRCULAR, "mt", -1);
	run_writers(w);
	fxt_test_stop(t.b);
	assert_true(t.hdr->rolling_generation[0] + t.hdr->rolling_generation[1] >
		    100);
	tally_events(&t, w, &y, false);
	for (k = 0; k < WRITERS; k++)
		total += y.events[k];
	/* Both halves hold whole records: most of 128 KiB of 32-byte ones. */
	assert_true(total > (64 << 10) / 32);
	/* records_written counts what survived the wrapping. */
	assert_true(t.hdr->records_written == y.records);
	/* The rest was overwritten, and counted as dropped. */
	assert_int_equal(t.hdr->records_dropped,
			 (uint64_t)WRITERS * EVENTS - total);
	test_buffer_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oneshot_no_torn_records),
		cmocka_unit_test(test_circular_wraps_under_load),
	};

	fxt_test_disable_transport();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
