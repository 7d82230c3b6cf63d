// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffering modes and fallbacks: oneshot drops and counts, circular keeps
 * the durable records and the newest halves, a full string table or
 * thread table falls back to inline, oversized records are dropped, and
 * a fork child never writes into its parent's buffer.
 */
#include "provider_test.h"

#include <pthread.h>
#include <sys/wait.h>

/* An instant with one uint32 argument, indexed strings: 3 words. */
#define SMALL_EVENT_BYTES 24

static void write_seq(uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		TRACE_INSTANT("modes", "tick", TRACE_SCOPE_THREAD,
			      TRACE_ARG_U32("i", i));
}

struct readback {
	uint64_t events, strings, threads, kobjs, bytes;
	int64_t first, last;
	bool contiguous;
	uint8_t *data;
	struct fxt_reader *r;
};

static void read_back(struct test_buffer *t, struct readback *rb)
{
	size_t len;
	struct fxt_record rec;
	int ret;

	memset(rb, 0, sizeof(*rb));
	rb->first = rb->last = -1;
	rb->contiguous = true;
	rb->data = test_buffer_collect(t, &len);
	rb->r = test_reader(rb->data, len);
	while ((ret = fxt_reader_next(rb->r, &rec)) == 1) {
		rb->strings += rec.type == FXT_RECORD_STRING;
		rb->threads += rec.type == FXT_RECORD_THREAD;
		rb->kobjs += rec.type == FXT_RECORD_KERNEL_OBJECT;
		if (rec.type != FXT_RECORD_EVENT)
			continue;
		rb->bytes += rec.size_words * 8;
		assert_str(rec.event.name, "tick");
		if (rb->last >= 0 && rec.args[0].value.u32 != rb->last + 1)
			rb->contiguous = false;
		if (rb->first < 0)
			rb->first = rec.args[0].value.u32;
		rb->last = rec.args[0].value.u32;
		rb->events++;
	}
	assert_int_equal(ret, 0);
}

static void read_back_free(struct readback *rb)
{
	fxt_reader_close(rb->r);
	free(rb->data);
}

static void test_oneshot_drops_counted(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t dropped_live;
	struct readback rb;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 4096, 4096, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	write_seq(1000);
	/* Counted as they happen: a provider that dies still reports them. */
	dropped_live = t.hdr->records_dropped;
	assert_true(dropped_live > 0);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, dropped_live);
	read_back(&t, &rb);
	assert_true(rb.events > 0 && rb.events < 1000);
	assert_int_equal(rb.first, 0);
	assert_true(rb.contiguous);
	assert_int_equal(t.hdr->records_dropped, 1000 - rb.events);
	assert_int_equal(t.hdr->bytes_dropped,
			 (1000 - rb.events) * SMALL_EVENT_BYTES);
	/* The half is taken whole, in chunks of 10 events and a tail. */
	assert_int_equal(t.hdr->rolling_end[0], 4096);
	assert_int_equal(rb.bytes, 4096 / FXT_BUFFER_CHUNK_MIN *
					   (FXT_BUFFER_CHUNK_MIN /
					    SMALL_EVENT_BYTES * SMALL_EVENT_BYTES));
	read_back_free(&rb);
	test_buffer_free(&t);
}

static void test_circular_keeps_durable_and_newest(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t half = 4096, older, newer;
	struct readback rb;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 64 << 10, half, true), 0);
	test_buffer_attach(&t, FXT_BUFFERING_CIRCULAR, "", -1);
	write_seq(10000);
	fxt_test_stop(t.b);
	older = t.hdr->rolling_generation[0] < t.hdr->rolling_generation[1] ? 0 : 1;
	newer = !older;
	assert_true(t.hdr->rolling_generation[newer] ==
		    t.hdr->rolling_generation[older] + 1);
	assert_true(t.hdr->rolling_generation[newer] > 10);
	/* The older half is full: it was closed when it had no room. */
	assert_true(t.hdr->rolling_end[older] > half - SMALL_EVENT_BYTES);
	read_back(&t, &rb);
	/* Names resolve: the string records survived in the durable area. */
	assert_true(rb.strings >= 3);
	assert_int_equal(rb.threads, 1);
	assert_int_equal(rb.kobjs, 2);
	assert_int_equal(rb.last, 9999);
	assert_true(rb.contiguous);
	/* The halves are taken in chunks of 10 events (and a tail). */
	assert_true(rb.bytes <= t.hdr->rolling_end[0] + t.hdr->rolling_end[1]);
	assert_true(rb.bytes >= (t.hdr->rolling_end[0] + t.hdr->rolling_end[1]) /
					FXT_BUFFER_CHUNK_MIN *
					(10 * SMALL_EVENT_BYTES) -
				FXT_BUFFER_CHUNK_MIN);
	assert_true(rb.events > half / SMALL_EVENT_BYTES);
	/* What wrapping overwrote is counted as dropped, like the kernel's. */
	assert_int_equal(t.hdr->records_dropped, 10000 - rb.events);
	assert_int_equal(t.hdr->bytes_dropped,
			 (10000 - rb.events) * SMALL_EVENT_BYTES);
	read_back_free(&rb);
	test_buffer_free(&t);
}

/* Durable area full: strings go inline, nothing else is lost. */
static void test_circular_durable_full(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct readback rb;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 8, 4096, true), 0);
	test_buffer_attach(&t, FXT_BUFFERING_CIRCULAR, "", -1);
	write_seq(50);
	fxt_test_stop(t.b);
	read_back(&t, &rb);
	assert_int_equal(rb.strings, 0);
	assert_int_equal(rb.events, 50);
	assert_true(rb.contiguous);
	read_back_free(&rb);
	test_buffer_free(&t);
}

/* Streaming whose SAVE cannot be sent: halves given up, all counted. */
static void test_streaming_unsent_save_counted(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct readback rb;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 64 << 10, 4096, true), 0);
	test_buffer_attach(&t, FXT_BUFFERING_STREAMING, "", -1);
	write_seq(1000);
	fxt_test_stop(t.b);
	read_back(&t, &rb);
	assert_int_equal(rb.last, 999);
	assert_true(rb.contiguous);
	assert_true(t.hdr->records_dropped > 0);
	assert_int_equal(rb.events + t.hdr->records_dropped, 1000);
	read_back_free(&rb);
	test_buffer_free(&t);
}

#define MANY_STRINGS 33000

static void test_string_table_overflow_inline(void **state)
{
	struct test_buffer t = { .fd = -1 };
	char **names = calloc(MANY_STRINGS, sizeof(*names));
	uint64_t indexed = 0, inlined = 0, strings = 0, i = 0;
	size_t len;
	uint8_t *data;
	struct fxt_reader *r;
	struct fxt_record rec;

	(void)state;
	assert_non_null(names);
	for (i = 0; i < MANY_STRINGS; i++)
		assert_true(asprintf(&names[i], "name-%llu",
				     (unsigned long long)i) > 0);
	assert_int_equal(test_buffer_layout(&t, 1 << 20, 4 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	for (i = 0; i < MANY_STRINGS; i++)
		fxt_internal_event(NULL, "cat", names[i], FXT_EVENT_INSTANT,
				   0, 0, NULL, 0);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 0);
	data = test_buffer_collect(&t, &len);
	r = test_reader(data, len);
	i = 0;
	while (fxt_reader_next(r, &rec) == 1) {
		if (rec.type == FXT_RECORD_STRING)
			strings++;
		if (rec.type != FXT_RECORD_EVENT)
			continue;
		assert_str(rec.event.name, names[i]);
		if (FXT_GET(rec.words[0], FXT_EVENT_NAME) & FXT_STRING_REF_INLINE)
			inlined++;
		else
			indexed++;
		i++;
	}
	assert_int_equal(i, MANY_STRINGS);
	assert_int_equal(strings, FXT_STRING_INDEX_MAX);
	assert_true(inlined > 0);
	/* "cat" and "process" took two of the indices. */
	assert_int_equal(indexed, FXT_STRING_INDEX_MAX - 2);
	fxt_reader_close(r);
	free(data);
	for (i = 0; i < MANY_STRINGS; i++)
		free(names[i]);
	free(names);
	test_buffer_free(&t);
}

#define MANY_THREADS 300

static void *one_event(void *arg)
{
	*(uint64_t *)arg = (uint64_t)gettid();
	TRACE_INSTANT("modes", "tick", TRACE_SCOPE_THREAD, TRACE_ARG_U32("i", 0));
	return NULL;
}

static void test_thread_table_overflow_inline(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t tids[MANY_THREADS], seen = 0, inline_refs = 0;
	size_t len, k;
	uint8_t *data;
	struct fxt_reader *r;
	struct fxt_record rec;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 1 << 20, 1 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	/* One at a time: the order of thread records is the order here. */
	for (k = 0; k < MANY_THREADS; k++) {
		pthread_t th;

		assert_int_equal(pthread_create(&th, NULL, one_event,
						&tids[k]), 0);
		pthread_join(th, NULL);
	}
	fxt_test_stop(t.b);
	data = test_buffer_collect(&t, &len);
	r = test_reader(data, len);
	while (fxt_reader_next(r, &rec) == 1) {
		if (rec.type != FXT_RECORD_EVENT)
			continue;
		assert_true(rec.event.thread.tid == tids[seen]);
		assert_true(rec.event.thread.pid == (uint64_t)getpid());
		inline_refs += FXT_GET(rec.words[0], FXT_EVENT_THREAD) == 0;
		seen++;
	}
	assert_int_equal(seen, MANY_THREADS);
	assert_int_equal(inline_refs, MANY_THREADS - FXT_THREAD_INDEX_MAX);
	fxt_reader_close(r);
	free(data);
	test_buffer_free(&t);
}

static void test_oversized_dropped(void **state)
{
	static char big[FXT_BLOB_MAX + 1];
	struct test_buffer t = { .fd = -1 };
	char *long_string = malloc(FXT_STRING_LEN_MAX + 1);

	(void)state;
	assert_non_null(long_string);
	memset(long_string, 'x', FXT_STRING_LEN_MAX);
	long_string[FXT_STRING_LEN_MAX] = 0;
	assert_int_equal(test_buffer_layout(&t, 0, 1 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	TRACE_BLOB("modes", "big", FXT_BLOB_DATA, big, sizeof(big));
	/* Two 32000-byte strings cannot share one record (32 KiB max). */
	TRACE_INSTANT("modes", "huge", TRACE_SCOPE_THREAD,
		      TRACE_ARG_STR("a", long_string),
		      TRACE_ARG_STR("b", long_string));
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 2);
	free(long_string);
	test_buffer_free(&t);
}

/* The child's events must not land in the parent's buffer. */
static void test_fork_child_does_not_write(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct readback rb;
	int status;
	pid_t child;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 1 << 16, 1 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	write_seq(10);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		write_seq(1000);
		_exit(fxt_category_enabled("modes") ? 3 : 0);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* The parent still traces after the fork. */
	TRACE_INSTANT("modes", "tick", TRACE_SCOPE_THREAD, TRACE_ARG_U32("i", 10));
	fxt_test_stop(t.b);
	read_back(&t, &rb);
	assert_int_equal(rb.events, 11);
	assert_int_equal(rb.last, 10);
	assert_true(rb.contiguous);
	read_back_free(&rb);
	test_buffer_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oneshot_drops_counted),
		cmocka_unit_test(test_circular_keeps_durable_and_newest),
		cmocka_unit_test(test_circular_durable_full),
		cmocka_unit_test(test_streaming_unsent_save_counted),
		cmocka_unit_test(test_string_table_overflow_inline),
		cmocka_unit_test(test_thread_table_overflow_inline),
		cmocka_unit_test(test_oversized_dropped),
		cmocka_unit_test(test_fork_child_does_not_write),
	};

	fxt_test_disable_transport();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
