// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-thread chunks of the buffer, word by word: where each thread's
 * records land, a record bigger than a chunk, the chunk cut at the end of
 * a half, chunks taken back when a half closes, and buffers of another
 * layout version refused.
 */
#include <pthread.h>

#include "provider_test.h"

#define CHUNK FXT_BUFFER_CHUNK_MIN
/* An instant with two int32 arguments: header, ts, two argument words. */
#define EV_BYTES 32

static const uint64_t *half_words(const struct test_buffer *t, unsigned int h)
{
	return (const uint64_t *)((const uint8_t *)t->hdr +
				  t->hdr->rolling_offset[h]);
}

static uint64_t word_at(const struct test_buffer *t, unsigned int h,
			uint64_t offset)
{
	return half_words(t, h)[offset / 8];
}

static void ev(int32_t a)
{
	TRACE_INSTANT("chunk", "ev", TRACE_SCOPE_THREAD, TRACE_ARG_I32("a", a),
		      TRACE_ARG_I32("b", -a));
}

/* Asserts an instant of ours at offset, with argument a; its thread ref. */
static unsigned int assert_ev(const struct test_buffer *t, unsigned int h,
			      uint64_t offset, int32_t a)
{
	uint64_t w = word_at(t, h, offset);

	assert_int_equal(FXT_GET(w, FXT_HDR_TYPE), FXT_RECORD_EVENT);
	assert_int_equal(fxt_record_bytes(w), EV_BYTES);
	assert_int_equal(FXT_GET(w, FXT_EVENT_TYPE), FXT_EVENT_INSTANT);
	assert_int_equal(FXT_GET(w, FXT_EVENT_NARGS), 2);
	assert_true((uint32_t)FXT_GET(word_at(t, h, offset + 16),
				      FXT_ARG_VALUE32) == (uint32_t)a);
	return (unsigned int)FXT_GET(w, FXT_EVENT_THREAD);
}

static void *other_thread(void *arg)
{
	(void)arg;
	ev(100);
	ev(101);
	return NULL;
}

/*
 * Each thread fills its own chunk from its start; the unused rest stays
 * zero; a record bigger than a chunk takes two, and the thread goes on
 * in the second.
 */
static void test_threads_own_chunks(void **state)
{
	static const char payload[300];
	struct test_buffer t = { .fd = -1 };
	unsigned int mine, theirs;
	pthread_t th;
	uint64_t blob;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 4096, 16 * CHUNK, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	ev(1);
	ev(2);
	assert_int_equal(pthread_create(&th, NULL, other_thread, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	ev(3);
	TRACE_BLOB("chunk", "blob", FXT_BLOB_DATA, payload, sizeof(payload));
	ev(4);
	fxt_test_stop(t.b);

	/* Chunk 0: this thread's three events, then zeros. */
	mine = assert_ev(&t, 0, 0, 1);
	assert_int_equal(assert_ev(&t, 0, EV_BYTES, 2), mine);
	assert_int_equal(assert_ev(&t, 0, 2 * EV_BYTES, 3), mine);
	assert_true(word_at(&t, 0, 3 * EV_BYTES) == 0);
	/* Chunk 1: the other thread's two, which exited holding it. */
	theirs = assert_ev(&t, 0, CHUNK, 100);
	assert_int_equal(assert_ev(&t, 0, CHUNK + EV_BYTES, 101), theirs);
	assert_true(theirs != mine);
	assert_true(word_at(&t, 0, CHUNK + 2 * EV_BYTES) == 0);
	/* Chunks 2-3: the blob (header, name ref, 300 bytes), then ev(4). */
	blob = word_at(&t, 0, 2 * CHUNK);
	assert_int_equal(FXT_GET(blob, FXT_HDR_TYPE), FXT_RECORD_BLOB);
	assert_int_equal(fxt_record_bytes(blob), 8 + 304);
	assert_int_equal(assert_ev(&t, 0, 2 * CHUNK + 312, 4), mine);
	assert_true(word_at(&t, 0, 2 * CHUNK + 312 + EV_BYTES) == 0);
	/* The end mark covers the chunks taken, nothing after. */
	assert_int_equal(t.hdr->rolling_end[0], 4 * CHUNK);
	assert_true(word_at(&t, 0, 4 * CHUNK) == 0);
	assert_int_equal(t.hdr->records_dropped, 0);
	test_buffer_free(&t);
}

/* The last chunk of a half is cut at its end: a record fits to the byte. */
static void test_chunk_cut_at_half_end(void **state)
{
	struct test_buffer t = { .fd = -1 };
	/* 2.5 chunks: the third is cut to 128 bytes, 4 events. */
	uint64_t half = 2 * CHUNK + 4 * EV_BYTES, off;
	unsigned int i, n = 2 * (CHUNK / EV_BYTES) + 4;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 4096, half, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	for (i = 0; i < n + 3; i++)
		ev((int32_t)i);
	fxt_test_stop(t.b);
	for (i = 0, off = 0; i < n; i++, off += EV_BYTES)
		assert_ev(&t, 0, off, (int32_t)i);
	assert_int_equal(t.hdr->rolling_end[0], half);
	assert_int_equal(t.hdr->records_dropped, 3);
	assert_int_equal(t.hdr->bytes_dropped, 3 * EV_BYTES);
	test_buffer_free(&t);
}

static pthread_barrier_t step;

/* ev(100), then, once the other thread filled the half, ev(101). */
static void *holding_thread(void *arg)
{
	(void)arg;
	ev(100);
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	ev(101);
	return NULL;
}

/* Records in the durable area (up to its first zero header word). */
static uint64_t durable_records(const struct test_buffer *t)
{
	const uint8_t *d = (const uint8_t *)t->hdr + t->hdr->durable_offset;
	uint64_t off = 0, n = 0, w;

	while (off < t->hdr->durable_size) {
		memcpy(&w, d + off, sizeof(w));
		if (!w)
			break;
		off += fxt_record_bytes(w);
		n++;
	}
	return n;
}

/*
 * Circular: when a half closes, every thread's chunk is taken back, the
 * part-filled one of a thread that did not write meanwhile too: its next
 * event opens a chunk in the other half. A wrap counts what it
 * overwrites.
 */
static void test_half_switch_takes_chunks_back(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t half = 4 * CHUNK;
	unsigned int per_chunk = CHUNK / EV_BYTES, i, n = 0;
	pthread_t th;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 4096, half, true), 0);
	test_buffer_attach(&t, FXT_BUFFERING_CIRCULAR, "", -1);
	ev((int32_t)n++);	/* this thread: chunk 0 */
	pthread_barrier_init(&step, NULL, 2);
	assert_int_equal(pthread_create(&th, NULL, holding_thread, NULL), 0);
	pthread_barrier_wait(&step);	/* it holds chunk 1 */
	/* Chunks 0, 2, 3 full; the next event closes half 0. */
	while (n < 3 * per_chunk + 1)
		ev((int32_t)n++);
	assert_int_equal(t.hdr->rolling_end[0], half);
	assert_ev(&t, 0, CHUNK, 100);
	assert_true(word_at(&t, 0, CHUNK + EV_BYTES) == 0);
	assert_ev(&t, 0, half - EV_BYTES, (int32_t)(3 * per_chunk - 1));
	assert_ev(&t, 1, 0, (int32_t)(3 * per_chunk));
	pthread_barrier_wait(&step);
	assert_int_equal(pthread_join(th, NULL), 0);
	pthread_barrier_destroy(&step);
	/* Not in the rest of its old chunk: in a new one of half 1. */
	assert_true(word_at(&t, 0, CHUNK + EV_BYTES) == 0);
	assert_ev(&t, 1, CHUNK, 101);
	/* Fill half 1 (this thread's chunks 0, 2, 3), wrap to half 0. */
	for (i = 0; i < 3 * per_chunk; i++)
		ev((int32_t)n++);
	assert_ev(&t, 0, 0, (int32_t)(n - 1));
	assert_true(word_at(&t, 0, EV_BYTES) == 0);
	/* Half 0 held 3 * per_chunk + 1 events: overwritten, counted. */
	assert_int_equal(t.hdr->records_dropped, 3 * per_chunk + 1);
	assert_int_equal(t.hdr->bytes_dropped,
			 (3 * per_chunk + 1) * EV_BYTES);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->rolling_end[0], CHUNK);
	assert_int_equal(t.hdr->rolling_end[1], half);
	/* What survived: half 1 (3 * per_chunk of ours, ev(101)), half 0 (1). */
	assert_int_equal(t.hdr->records_written,
			 durable_records(&t) + (3 * per_chunk + 1) + 1);
	test_buffer_free(&t);
}

static void *one_event_thread(void *arg)
{
	(void)arg;
	ev(200);
	return NULL;
}

/*
 * Without membarrier(): records of all threads side by side, none across
 * a chunk boundary (the reader's rule), the skipped tail zero.
 */
static void test_record_by_record(void **state)
{
	struct test_buffer t = { .fd = -1 };
	unsigned int i, mine;
	pthread_t th;
	uint64_t w;

	(void)state;
	fxt_test_record_by_record(true);
	assert_int_equal(test_buffer_layout(&t, 4096, 4 * CHUNK, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	fxt_test_record_by_record(false);
	for (i = 0; i < 7; i++)
		ev((int32_t)i);
	/* 48 bytes at 224 would cross 256: it starts there. */
	TRACE_INSTANT("chunk", "wide", TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("a", 7), TRACE_ARG_I32("b", 8),
		      TRACE_ARG_I32("c", 9), TRACE_ARG_I32("d", 10));
	assert_int_equal(pthread_create(&th, NULL, one_event_thread, NULL), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	fxt_test_stop(t.b);
	mine = assert_ev(&t, 0, 0, 0);
	for (i = 1; i < 7; i++)
		assert_int_equal(assert_ev(&t, 0, i * EV_BYTES, (int32_t)i),
				 mine);
	assert_true(word_at(&t, 0, 7 * EV_BYTES) == 0);
	w = word_at(&t, 0, CHUNK);
	assert_int_equal(FXT_GET(w, FXT_HDR_TYPE), FXT_RECORD_EVENT);
	assert_int_equal(fxt_record_bytes(w), 48);
	/* The other thread's event right after it, in the same chunk. */
	assert_true(assert_ev(&t, 0, CHUNK + 48, 200) != mine);
	assert_int_equal(t.hdr->rolling_end[0], CHUNK + 48 + EV_BYTES);
	test_buffer_free(&t);
}

/* A buffer laid out by another version, or with bad chunks: refused. */
static void test_other_layout_refused(void **state)
{
	static const uint64_t bad_chunks[] = { 0, 100, 3 * 256,
					       FXT_BUFFER_CHUNK_MAX * 2 };
	struct test_buffer t = { .fd = -1 };
	unsigned int i;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 4096, 4096, false), 0);
	t.hdr->magic = FXT_BUFFER_MAGIC;
	t.hdr->version = 1;
	assert_null(fxt_test_attach(dup(t.fd), t.size, FXT_BUFFERING_ONESHOT,
				    "", -1));
	t.hdr->version = FXT_BUFFER_VERSION;
	for (i = 0; i < sizeof(bad_chunks) / sizeof(bad_chunks[0]); i++) {
		t.hdr->chunk_size = bad_chunks[i];
		assert_null(fxt_test_attach(dup(t.fd), t.size,
					    FXT_BUFFERING_ONESHOT, "", -1));
	}
	t.hdr->chunk_size = CHUNK;
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	test_buffer_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_own_chunks),
		cmocka_unit_test(test_chunk_cut_at_half_end),
		cmocka_unit_test(test_half_switch_takes_chunks_back),
		cmocka_unit_test(test_record_by_record),
		cmocka_unit_test(test_other_layout_refused),
	};

	fxt_test_disable_transport();
	fxt_provider_init("chunks-test");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
