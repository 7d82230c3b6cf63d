// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every event type and argument type, written through the public macros
 * into a buffer set up in-process, read back with the project's reader
 * and checked field by field, plus exact words against the spec.
 */
#include "provider_test.h"

#include <sys/prctl.h>

#define MAX_RECORDS 256

struct seen {
	struct fxt_record rec[MAX_RECORDS];
	uint64_t words[MAX_RECORDS][64];	/* copies: rec.words dies */
	size_t n;
	unsigned int strings, threads;
	/* Decoded strings point into these: kept until seen_free(). */
	uint8_t *data;
	struct fxt_reader *reader;
};

static void seen_free(struct seen *s)
{
	fxt_reader_close(s->reader);
	free(s->data);
	free(s);
}

static void read_records(struct test_buffer *t, struct seen *s)
{
	size_t len;
	uint8_t *data = test_buffer_collect(t, &len);
	struct fxt_reader *r = test_reader(data, len);
	struct fxt_record rec;
	int ret;

	memset(s, 0, sizeof(*s));
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.type == FXT_RECORD_STRING) {
			s->strings++;
			continue;
		}
		if (rec.type == FXT_RECORD_THREAD)
			s->threads++;
		assert_true(s->n < MAX_RECORDS);
		assert_true(rec.size_words <= 64);
		memcpy(s->words[s->n], rec.words, rec.size_words * 8);
		s->rec[s->n++] = rec;
	}
	assert_int_equal(ret, 0);
	assert_false(fxt_reader_stats(r)->truncated);
	s->data = data;
	s->reader = r;
}

static const struct fxt_record *find_event(const struct seen *s,
					   const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->rec[i].type == FXT_RECORD_EVENT &&
		    str_is(s->rec[i].event.name, name))
			return &s->rec[i];
	fail_msg("no event named %s", name);
	return NULL;
}

static const struct fxt_arg *find_arg(const struct fxt_record *r,
				      const char *name)
{
	unsigned int i;

	for (i = 0; i < r->nargs; i++)
		if (str_is(r->args[i].name, name))
			return &r->args[i];
	fail_msg("no argument %s", name);
	return NULL;
}

static int dummy_object;

static void write_everything(void)
{
	uint64_t start;
	static const char blob[] = "0123456789abc";

	TRACE_INSTANT("cat", "all-args", TRACE_SCOPE_THREAD,
		      TRACE_ARG_NULL("null"), TRACE_ARG_I32("i32", -5),
		      TRACE_ARG_U32("u32", 4000000000u),
		      TRACE_ARG_I64("i64", -1234567890123ll),
		      TRACE_ARG_U64("u64", 0xfedcba9876543210ull),
		      TRACE_ARG_DOUBLE("double", 2.5),
		      TRACE_ARG_STR("str", "dynamic value"),
		      TRACE_ARG_STR_LITERAL("lit", "literal"),
		      TRACE_ARG_PTR("ptr", &dummy_object),
		      TRACE_ARG_KOID("koid", 99), TRACE_ARG_BOOL("bool", 1),
		      TRACE_ARG_STR("empty", ""));
	TRACE_INSTANT("cat", "two-ints", TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("a", -5), TRACE_ARG_I32("b", 6));
	TRACE_INSTANT("cat", "proc", TRACE_SCOPE_PROCESS);
	TRACE_INSTANT("cat", "glob", TRACE_SCOPE_GLOBAL, TRACE_ARG_U32("x", 1));
	TRACE_INSTANT("off", "disabled", TRACE_SCOPE_THREAD);
	TRACE_INSTANT("wildcard", "by-prefix", TRACE_SCOPE_THREAD);
	TRACE_COUNTER("cat", "counter", 7, TRACE_ARG_I64("v", 42));
	TRACE_DURATION_BEGIN("cat", "begin", TRACE_ARG_U32("n", 1));
	TRACE_DURATION_END("cat", "begin");
	start = fxt_now();
	TRACE_COMPLETE("cat", "complete", start, start + 1000);
	{
		TRACE_DURATION("cat", "scoped", TRACE_ARG_I32("depth", 3));
		TRACE_INSTANT("cat", "inside", TRACE_SCOPE_THREAD);
	}
	TRACE_ASYNC_BEGIN("cat", "async", 42);
	TRACE_ASYNC_INSTANT("cat", "async-step", 42);
	TRACE_ASYNC_END("cat", "async", 42);
	TRACE_FLOW_BEGIN("cat", "flow", 43);
	TRACE_FLOW_STEP("cat", "flow", 43);
	TRACE_FLOW_END("cat", "flow", 43);
	TRACE_BLOB("cat", "blob", FXT_BLOB_DATA, blob, sizeof(blob) - 1);
	TRACE_LOG("cat", "hello log", 9);
	TRACE_LOGF("cat", "formatted %d", 17);
	TRACE_USERSPACE_OBJECT("cat", &dummy_object, "my-object",
			       TRACE_ARG_U32("size", 4));
	TRACE_KERNEL_OBJECT("cat", 777, FXT_ZX_OBJ_PROCESS, "other-process");
	TRACE_INSTANT("cat", "fifteen", TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("1", 1), TRACE_ARG_I32("2", 2),
		      TRACE_ARG_I32("3", 3), TRACE_ARG_I32("4", 4),
		      TRACE_ARG_I32("5", 5), TRACE_ARG_I32("6", 6),
		      TRACE_ARG_I32("7", 7), TRACE_ARG_I32("8", 8),
		      TRACE_ARG_I32("9", 9), TRACE_ARG_I32("10", 10),
		      TRACE_ARG_I32("11", 11), TRACE_ARG_I32("12", 12),
		      TRACE_ARG_I32("13", 13), TRACE_ARG_I32("14", 14),
		      TRACE_ARG_I32("15", 15));
}

static void check_all_args(const struct seen *s)
{
	const struct fxt_record *r = find_event(s, "all-args");

	assert_int_equal(r->event.type, FXT_EVENT_INSTANT);
	assert_str(r->event.category, "cat");
	assert_int_equal(r->nargs, 12);
	assert_int_equal(find_arg(r, "null")->type, FXT_ARG_NULL);
	assert_int_equal(find_arg(r, "i32")->value.i32, -5);
	assert_int_equal(find_arg(r, "u32")->value.u32, 4000000000u);
	assert_true(find_arg(r, "i64")->value.i64 == -1234567890123ll);
	assert_true(find_arg(r, "u64")->value.u64 == 0xfedcba9876543210ull);
	assert_true(find_arg(r, "double")->value.f64 == 2.5);
	assert_str(find_arg(r, "str")->value.str, "dynamic value");
	assert_str(find_arg(r, "lit")->value.str, "literal");
	assert_int_equal(find_arg(r, "ptr")->type, FXT_ARG_POINTER);
	assert_true(find_arg(r, "ptr")->value.pointer ==
		    (uint64_t)(uintptr_t)&dummy_object);
	assert_int_equal(find_arg(r, "koid")->type, FXT_ARG_KOID);
	assert_true(find_arg(r, "koid")->value.koid == 99);
	assert_true(find_arg(r, "bool")->value.b);
	assert_int_equal(find_arg(r, "empty")->type, FXT_ARG_STRING);
	assert_int_equal(find_arg(r, "empty")->value.str.len, 0);
	assert_true(r->event.thread.pid == (uint64_t)getpid());
	assert_true(r->event.thread.tid == (uint64_t)gettid());
}

/* Exact words: header, timestamp, two int32 arguments (spec layout). */
static void check_two_ints_words(const struct seen *s)
{
	const struct fxt_record *r = find_event(s, "two-ints");
	const uint64_t *w = s->words[r - s->rec];
	uint16_t cat = FXT_GET(w[0], FXT_EVENT_CATEGORY);
	uint16_t name = FXT_GET(w[0], FXT_EVENT_NAME);
	uint8_t thread = FXT_GET(w[0], FXT_EVENT_THREAD);

	assert_int_equal(r->size_words, 4);
	assert_true(cat && !(cat & FXT_STRING_REF_INLINE));
	assert_true(name && !(name & FXT_STRING_REF_INLINE));
	assert_int_equal(thread, 1);
	assert_true(w[0] == fxt_event_header(4, FXT_EVENT_INSTANT, 2, 1, cat,
					     name));
	assert_true(w[1] == r->event.ts);
	assert_true(FXT_GET(w[2], FXT_ARG_TYPE) == FXT_ARG_INT32);
	assert_true(FXT_GET(w[2], FXT_ARG_SIZE) == 1);
	assert_true((uint32_t)FXT_GET(w[2], FXT_ARG_VALUE32) == (uint32_t)-5);
	assert_true(w[3] == fxt_arg_header(FXT_ARG_INT32, 1,
					   FXT_GET(w[3], FXT_ARG_NAME), 6));
}

static void check_event_types(const struct seen *s)
{
	const struct fxt_record *r;

	r = find_event(s, "proc");
	assert_int_equal(r->nargs, 1);
	assert_str(find_arg(r, "scope")->value.str, "process");
	r = find_event(s, "glob");
	assert_int_equal(r->nargs, 2);
	assert_str(find_arg(r, "scope")->value.str, "global");
	find_event(s, "by-prefix");
	r = find_event(s, "counter");
	assert_int_equal(r->event.type, FXT_EVENT_COUNTER);
	assert_true(r->event.extra == 7);
	assert_true(find_arg(r, "v")->value.i64 == 42);
	assert_int_equal(find_event(s, "begin")->event.type,
			 FXT_EVENT_DURATION_BEGIN);
	r = find_event(s, "complete");
	assert_int_equal(r->event.type, FXT_EVENT_DURATION_COMPLETE);
	assert_true(r->event.extra == r->event.ts + 1000);
	r = find_event(s, "scoped");
	assert_int_equal(r->event.type, FXT_EVENT_DURATION_COMPLETE);
	assert_true(r->event.extra >= find_event(s, "inside")->event.ts);
	assert_true(r->event.ts <= find_event(s, "inside")->event.ts);
	assert_int_equal(find_arg(r, "depth")->value.i32, 3);
	r = find_event(s, "async");
	assert_int_equal(r->event.type, FXT_EVENT_ASYNC_BEGIN);
	assert_true(r->event.extra == 42);
	assert_int_equal(find_event(s, "async-step")->event.type,
			 FXT_EVENT_ASYNC_INSTANT);
	r = find_event(s, "flow");
	assert_int_equal(r->event.type, FXT_EVENT_FLOW_BEGIN);
	assert_true(r->event.extra == 43);
	assert_int_equal(find_event(s, "fifteen")->nargs, 15);
	assert_int_equal(find_arg(find_event(s, "fifteen"), "15")->value.i32,
			 15);
}

static void check_other_records(const struct seen *s)
{
	unsigned int blobs = 0, logs = 0, uobjs = 0, kobjs = 0, types = 0;
	bool thread_named = false, process_named = false;
	char comm[17] = "";
	size_t i;

	prctl(PR_GET_NAME, comm);
	for (i = 0; i < s->n; i++) {
		const struct fxt_record *r = &s->rec[i];

		if (r->type == FXT_RECORD_EVENT)
			types |= 1u << r->event.type;
		if (r->type == FXT_RECORD_BLOB) {
			assert_str(r->blob.name, "blob");
			assert_int_equal(r->blob.payload_len, 13);
			assert_memory_equal(r->blob.payload, "0123456789abc", 13);
			blobs++;
		}
		if (r->type == FXT_RECORD_LOG) {
			assert_true(str_is(r->log.message, "hello log") ||
				    str_is(r->log.message, "formatted 17"));
			assert_true(r->log.thread.tid == (uint64_t)gettid());
			logs++;
		}
		if (r->type == FXT_RECORD_USERSPACE_OBJECT) {
			assert_str(r->userspace_object.name, "my-object");
			assert_true(r->userspace_object.pointer ==
				    (uint64_t)(uintptr_t)&dummy_object);
			assert_true(r->userspace_object.pid ==
				    (uint64_t)getpid());
			uobjs++;
		}
		if (r->type != FXT_RECORD_KERNEL_OBJECT)
			continue;
		kobjs++;
		if (r->kernel_object.obj_type == FXT_ZX_OBJ_THREAD &&
		    r->kernel_object.koid == (uint64_t)gettid()) {
			assert_str(r->kernel_object.name, comm);
			assert_int_equal(r->nargs, 1);
			assert_str(r->args[0].name, "process");
			assert_int_equal(r->args[0].type, FXT_ARG_KOID);
			assert_true(r->args[0].value.koid == (uint64_t)getpid());
			thread_named = true;
		}
		if (r->kernel_object.obj_type == FXT_ZX_OBJ_PROCESS &&
		    r->kernel_object.koid == (uint64_t)getpid()) {
			assert_str(r->kernel_object.name, "records-test");
			process_named = true;
		}
	}
	/* Every event type 0..10 appeared. */
	assert_int_equal(types, (1u << (FXT_EVENT_TYPE_MAX + 1)) - 1);
	assert_int_equal(blobs, 1);
	assert_int_equal(logs, 2);
	assert_int_equal(uobjs, 1);
	assert_int_equal(kobjs, 3);
	assert_true(thread_named);
	assert_true(process_named);
	assert_int_equal(s->threads, 1);
}

static void test_every_record(void **state, uint64_t durable)
{
	struct test_buffer t = { .fd = -1 };
	struct seen *s = malloc(sizeof(*s));

	(void)state;
	assert_non_null(s);
	assert_int_equal(test_buffer_layout(&t, durable, 1 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "cat,wild*", -1);
	write_everything();
	assert_true(TRACE_ENABLED("cat"));
	assert_true(TRACE_ENABLED("wildcard.sub"));
	assert_false(TRACE_ENABLED("off"));
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 0);
	assert_true(t.hdr->rolling_end[0] > 0);
	assert_true(durable ? t.hdr->durable_end > 0 : !t.hdr->durable_end);
	read_records(&t, s);
	assert_true(t.hdr->records_written == s->n + s->strings);
	check_all_args(s);
	check_two_ints_words(s);
	check_event_types(s);
	check_other_records(s);
	test_buffer_free(&t);
	seen_free(s);
}

static void test_with_durable_area(void **state)
{
	test_every_record(state, 64 << 10);
}

static void test_without_durable_area(void **state)
{
	test_every_record(state, 0);
}

/* After stop nothing is written, and the sites say so. */
static void test_stop_disables(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t end;
	int i;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 0, 1 << 16, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	for (i = 0; i < 2; i++)
		TRACE_INSTANT("any", "before-stop", TRACE_SCOPE_THREAD);
	fxt_test_stop(t.b);
	end = t.hdr->rolling_end[0];
	assert_true(end > 0);
	for (i = 0; i < 10; i++)
		TRACE_INSTANT("any", "after-stop", TRACE_SCOPE_THREAD);
	assert_false(fxt_category_enabled("any"));
	assert_true(t.hdr->rolling_end[0] == end);
	assert_true(*(uint64_t *)((uint8_t *)t.hdr + t.hdr->rolling_offset[0] +
				  end) == 0);
	test_buffer_free(&t);
}

/* Sites with numeric arguments only: the inline writer's cases. */
static void write_fixed(void)
{
	uint64_t start = fxt_now();

	TRACE_INSTANT("cat", "fx-instant", TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("a", -5), TRACE_ARG_U32("b", 6),
		      TRACE_ARG_BOOL("c", 1), TRACE_ARG_NULL("d"));
	TRACE_INSTANT("cat", "fx-wide", TRACE_SCOPE_THREAD,
		      TRACE_ARG_I64("i64", -1234567890123ll),
		      TRACE_ARG_U64("u64", 0xfedcba9876543210ull),
		      TRACE_ARG_DOUBLE("double", 2.5),
		      TRACE_ARG_PTR("ptr", &dummy_object),
		      TRACE_ARG_KOID("koid", 99));
	TRACE_INSTANT("cat", "fx-none", TRACE_SCOPE_THREAD);
	TRACE_COUNTER("cat", "fx-counter", 7, TRACE_ARG_I64("v", 42));
	TRACE_DURATION_BEGIN("cat", "fx-begin", TRACE_ARG_U32("n", 1));
	TRACE_DURATION_END("cat", "fx-begin");
	TRACE_COMPLETE("cat", "fx-complete", start, start + 1000,
		       TRACE_ARG_I32("x", 1));
	{
		TRACE_DURATION("cat", "fx-scoped", TRACE_ARG_I32("depth", 3),
			       TRACE_ARG_U64("big", 1ull << 40));
		TRACE_ASYNC_BEGIN("cat", "fx-async", 42);
		TRACE_FLOW_STEP("cat", "fx-flow", 43, TRACE_ARG_I32("f", 2));
	}
	TRACE_INSTANT("cat", "fx-fifteen", TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("1", 1), TRACE_ARG_I32("2", 2),
		      TRACE_ARG_I32("3", 3), TRACE_ARG_I32("4", 4),
		      TRACE_ARG_I32("5", 5), TRACE_ARG_I32("6", 6),
		      TRACE_ARG_I32("7", 7), TRACE_ARG_I32("8", 8),
		      TRACE_ARG_I32("9", 9), TRACE_ARG_I32("10", 10),
		      TRACE_ARG_I32("11", 11), TRACE_ARG_I32("12", 12),
		      TRACE_ARG_I32("13", 13), TRACE_ARG_I32("14", 14),
		      TRACE_ARG_I64("15", 15));
	/* Strings and process scope stay with the library. */
	TRACE_INSTANT("cat", "fx-string", TRACE_SCOPE_THREAD,
		      TRACE_ARG_STR("s", "v"));
	TRACE_INSTANT("cat", "fx-process", TRACE_SCOPE_PROCESS);
}

#define FIXED_EVENTS 13	/* events of write_fixed() */
#define LIBRARY_ONLY 2	/* of which always written by the library */
#define FIXED_PASSES 3

static bool str_eq(struct fxt_str a, struct fxt_str b)
{
	return a.len == b.len && !memcmp(a.data, b.data, a.len);
}

/* The words of a record, timestamps left out. */
static void assert_same_but_time(const struct fxt_record *a, const uint64_t *wa,
				 const struct fxt_record *b, const uint64_t *wb)
{
	unsigned int i, last = a->size_words - 1;
	bool end_time = a->event.type == FXT_EVENT_DURATION_COMPLETE;

	assert_int_equal(a->size_words, b->size_words);
	for (i = 0; i < a->size_words; i++) {
		if (i == 1 || (end_time && i == last))
			continue;
		if (wa[i] != wb[i])
			fail_msg("%.*s: word %u differs: %#llx, %#llx",
				 (int)a->event.name.len, a->event.name.data, i,
				 (unsigned long long)wa[i],
				 (unsigned long long)wb[i]);
	}
}

/*
 * The first pass evaluates the sites (library writer); the next ones go
 * inline, except strings and process scope: the words must not differ.
 */
static void test_inline_writer_words(void **state)
{
	struct test_buffer t = { .fd = -1 };
	struct seen *s = malloc(sizeof(*s));
	uint64_t before;
	size_t i, j, events = 0;
	int pass;

	(void)state;
	assert_non_null(s);
	assert_int_equal(test_buffer_layout(&t, 64 << 10, 1 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "cat", -1);
	write_fixed();	/* the thread joins: its records come first */
	before = fxt_test_library_events();
	for (pass = 1; pass < FIXED_PASSES; pass++)
		write_fixed();
	assert_int_equal(fxt_test_library_events() - before,
			 (FIXED_PASSES - 1) * LIBRARY_ONLY);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 0);
	read_records(&t, s);
	for (i = 0; i < s->n; i++) {
		const struct fxt_record *a = &s->rec[i];

		if (a->type != FXT_RECORD_EVENT)
			continue;
		events++;
		/* The same event of the next pass. */
		for (j = i + 1; j < s->n; j++) {
			const struct fxt_record *b = &s->rec[j];

			if (b->type == FXT_RECORD_EVENT &&
			    b->event.type == a->event.type &&
			    str_eq(a->event.name, b->event.name)) {
				assert_same_but_time(a, s->words[i], b,
						     s->words[j]);
				break;
			}
		}
	}
	assert_int_equal(events, FIXED_EVENTS * FIXED_PASSES);
	assert_int_equal(find_arg(find_event(s, "fx-scoped"), "big")->value.u64,
			 1ull << 40);
	assert_int_equal(find_arg(find_event(s, "fx-fifteen"), "15")->value.i64,
			 15);
	assert_true(find_event(s, "fx-complete")->event.extra ==
		    find_event(s, "fx-complete")->event.ts + 1000);
	test_buffer_free(&t);
	seen_free(s);
}

/* With buffers: the trace changes from first to second inside the scope. */
static void scoped_across(struct test_buffer *first, struct test_buffer *second)
{
	TRACE_DURATION("cat", "across", TRACE_ARG_I32("n", 1));

	if (!first)
		return;
	fxt_test_stop(first->b);
	test_buffer_attach(second, FXT_BUFFERING_ONESHOT, "cat", -1);
}

/* A scoped duration begun inline in one trace is not written in the next. */
static void test_scope_across_traces(void **state)
{
	struct test_buffer t1 = { .fd = -1 }, t2 = { .fd = -1 };
	struct seen *s = malloc(sizeof(*s));
	size_t i;

	(void)state;
	assert_non_null(s);
	assert_int_equal(test_buffer_layout(&t1, 64 << 10, 1 << 16, false), 0);
	assert_int_equal(test_buffer_layout(&t2, 64 << 10, 1 << 16, false), 0);
	test_buffer_attach(&t1, FXT_BUFFERING_ONESHOT, "cat", -1);
	TRACE_INSTANT("cat", "join", TRACE_SCOPE_THREAD);
	scoped_across(NULL, NULL);
	scoped_across(&t1, &t2);	/* the second time: inline */
	TRACE_INSTANT("cat", "in-second", TRACE_SCOPE_THREAD);
	fxt_test_stop(t2.b);
	read_records(&t2, s);
	find_event(s, "in-second");
	for (i = 0; i < s->n; i++)
		assert_false(s->rec[i].type == FXT_RECORD_EVENT &&
			     str_is(s->rec[i].event.name, "across"));
	assert_int_equal(t2.hdr->records_dropped, 0);
	test_buffer_free(&t1);
	test_buffer_free(&t2);
	seen_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_with_durable_area),
		cmocka_unit_test(test_without_durable_area),
		cmocka_unit_test(test_stop_disables),
		cmocka_unit_test(test_inline_writer_words),
		cmocka_unit_test(test_scope_across_traces),
	};

	fxt_test_disable_transport();
	fxt_provider_init("records-test");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
