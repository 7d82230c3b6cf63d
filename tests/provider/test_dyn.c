// SPDX-License-Identifier: GPL-2.0-only
/*
 * TRACE_DYN(): names chosen at run time are interned by content (one
 * string record per content, whatever the address; the inline writer for
 * a name interned already), at most FXT_INTERN_DYNAMIC_MAX of them per
 * trace (then inline, never dropped); a dynamic category follows the
 * rules of a literal one. Exact words against the spec.
 */
#include "provider_test.h"

#include "intern.h"

#define MAX_STRINGS 2048

struct strings {
	char value[MAX_STRINGS][16];
	unsigned int records[MAX_STRINGS];	/* string records per index */
	uint8_t thread_index;
};

/* The string table of the data (values cut at 15 bytes); and the thread. */
static void read_strings(struct fxt_reader *r, struct strings *st)
{
	struct fxt_record rec;
	int ret;

	memset(st, 0, sizeof(*st));
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		if (rec.type == FXT_RECORD_THREAD)
			st->thread_index = rec.thread.index;
		if (rec.type != FXT_RECORD_STRING)
			continue;
		assert_true(rec.string.index < MAX_STRINGS);
		snprintf(st->value[rec.string.index], 16, "%.*s",
			 (int)rec.string.value.len, rec.string.value.data);
		st->records[rec.string.index]++;
	}
	assert_int_equal(ret, 0);
}

/* The index of value's string record, which must be the only one. */
static uint16_t index_of(const struct strings *st, const char *value)
{
	uint16_t i, found = 0;

	for (i = 1; i < MAX_STRINGS; i++) {
		if (!st->records[i] || strcmp(st->value[i], value))
			continue;
		assert_int_equal(st->records[i], 1);
		assert_int_equal(found, 0);
		found = i;
	}
	if (!found)
		fail_msg("no string record for \"%s\"", value);
	return found;
}

static unsigned int records_of(const struct strings *st, const char *value)
{
	unsigned int i, n = 0;

	for (i = 1; i < MAX_STRINGS; i++)
		if (st->records[i] && !strcmp(st->value[i], value))
			n += st->records[i];
	return n;
}

struct trace {
	struct test_buffer t;
	uint8_t *data;
	struct fxt_reader *r;
	struct strings st;
};

static void trace_start(struct trace *tr, const char *categories)
{
	memset(tr, 0, sizeof(*tr));
	tr->t.fd = -1;
	assert_int_equal(test_buffer_layout(&tr->t, 256 << 10, 1 << 20, false),
			 0);
	test_buffer_attach(&tr->t, FXT_BUFFERING_ONESHOT, categories, -1);
}

static void trace_read(struct trace *tr)
{
	size_t len;

	fxt_test_stop(tr->t.b);
	tr->data = test_buffer_collect(&tr->t, &len);
	tr->r = test_reader(tr->data, len);
	read_strings(tr->r, &tr->st);
	fxt_reader_close(tr->r);
	tr->r = test_reader(tr->data, len);
}

static void trace_free(struct trace *tr)
{
	fxt_reader_close(tr->r);
	free(tr->data);
	test_buffer_free(&tr->t);
}

static bool next_event(struct trace *tr, struct fxt_record *rec)
{
	int ret;

	while ((ret = fxt_reader_next(tr->r, rec)) == 1)
		if (rec->type == FXT_RECORD_EVENT)
			return true;
	assert_int_equal(ret, 0);
	return false;
}

/* Same pointer, changing content; same content, other pointers. */
static void test_interned_by_content(void **state)
{
	char name[32], other[32], arg[16];
	uint16_t rpc, a, b, n, field;
	struct fxt_record rec;
	struct trace tr;
	uint64_t library;
	unsigned int i;

	(void)state;
	trace_start(&tr, "rpc");
	library = fxt_test_library_events();
	strcpy(name, "method-a");
	strcpy(arg, "field");
	for (i = 0; i < 3; i++)
		TRACE_INSTANT("rpc", TRACE_DYN(name), TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32("n", i));
	strcpy(name, "method-b");
	TRACE_INSTANT("rpc", TRACE_DYN(name), TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("n", 3));
	strcpy(other, "method-a");
	TRACE_INSTANT("rpc", TRACE_DYN(other), TRACE_SCOPE_THREAD,
		      TRACE_ARG_I32("n", 4));
	/* A dynamic argument name: the library writes it, interned. */
	for (i = 5; i < 7; i++)
		TRACE_INSTANT("rpc", "literal", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32(TRACE_DYN(arg), i));
	/*
	 * In the library: the first use of each string (method-a, method-b)
	 * and of the other site; the dynamic argument names. The repeats
	 * of interned names inline.
	 */
	assert_int_equal(fxt_test_library_events() - library, 2 + 1 + 2);
	trace_read(&tr);

	rpc = index_of(&tr.st, "rpc");
	a = index_of(&tr.st, "method-a");
	b = index_of(&tr.st, "method-b");
	n = index_of(&tr.st, "n");
	field = index_of(&tr.st, "field");
	for (i = 0; i < 7; i++) {
		uint16_t want = i < 3 || i == 4 ? a : i == 3 ? b :
			index_of(&tr.st, "literal");

		assert_true(next_event(&tr, &rec));
		assert_int_equal(rec.size_words, 3);
		assert_int_equal(rec.words[0],
				 fxt_event_header(3, FXT_EVENT_INSTANT, 1,
						  tr.st.thread_index, rpc, want));
		assert_int_equal(rec.words[2],
				 fxt_arg_header(FXT_ARG_INT32, 1,
						i < 5 ? n : field, i));
	}
	assert_false(next_event(&tr, &rec));
	trace_free(&tr);
}

/* Full table: later new strings inline, in every record; none dropped. */
static void test_full_table_inline(void **state)
{
	char name[16];
	uint16_t rpc, first;
	struct fxt_record rec;
	struct trace tr;
	unsigned int i, events = 0;
	uint64_t inline_word = 0;

	(void)state;
	trace_start(&tr, "rpc");
	for (i = 0; i <= FXT_INTERN_DYNAMIC_MAX; i++) {
		snprintf(name, sizeof(name), "n%04u", i);
		TRACE_INSTANT("rpc", TRACE_DYN(name), TRACE_SCOPE_THREAD);
	}
	/* Interned ones stay so; the one left out stays inline. */
	TRACE_INSTANT("rpc", TRACE_DYN("n0000"), TRACE_SCOPE_THREAD);
	TRACE_INSTANT("rpc", TRACE_DYN(name), TRACE_SCOPE_THREAD);
	trace_read(&tr);

	rpc = index_of(&tr.st, "rpc");
	first = index_of(&tr.st, "n0000");
	assert_int_equal(index_of(&tr.st, "n1023"),
			 first + FXT_INTERN_DYNAMIC_MAX - 1);
	assert_int_equal(records_of(&tr.st, "n1024"), 0);
	memcpy(&inline_word, "n1024", 5);
	while (next_event(&tr, &rec)) {
		unsigned int k = events++;

		if (k < FXT_INTERN_DYNAMIC_MAX || k == FXT_INTERN_DYNAMIC_MAX + 1) {
			uint16_t want = k < FXT_INTERN_DYNAMIC_MAX ? first + k :
								     first;

			assert_int_equal(rec.size_words, 2);
			assert_int_equal(rec.words[0],
					 fxt_event_header(2, FXT_EVENT_INSTANT,
							  0, tr.st.thread_index,
							  rpc, want));
			continue;
		}
		assert_int_equal(rec.size_words, 3);
		assert_int_equal(rec.words[0],
				 fxt_event_header(3, FXT_EVENT_INSTANT, 0,
						  tr.st.thread_index, rpc,
						  fxt_string_ref_inline(5)));
		assert_int_equal(rec.words[2], inline_word);
	}
	assert_int_equal(events, FXT_INTERN_DYNAMIC_MAX + 3);
	trace_free(&tr);
}

/* A dynamic category is enabled by the rules of a literal one. */
static void test_dynamic_category(void **state)
{
	static const char *const cats[] = { "rpc", "other", "dyn-x", "dyn" };
	static const bool want[] = { true, false, true, false };
	struct fxt_record rec;
	struct trace tr;
	unsigned int i, events = 0;

	(void)state;
	trace_start(&tr, "rpc,dyn-*");
	for (i = 0; i < 4; i++) {
		char cat[16];

		snprintf(cat, sizeof(cat), "%s", cats[i]);
		assert_int_equal(TRACE_ENABLED(TRACE_DYN(cat)), want[i]);
		assert_int_equal(fxt_category_enabled(cat), want[i]);
		TRACE_INSTANT(TRACE_DYN(cat), "by-category", TRACE_SCOPE_THREAD,
			      TRACE_ARG_U32("i", i));
		TRACE_LOG(TRACE_DYN(cat), "log", 3);
		TRACE_BLOB(TRACE_DYN(cat), TRACE_DYN(cats[i]), FXT_BLOB_DATA,
			   "ab", 2);
	}
	trace_read(&tr);
	while (next_event(&tr, &rec)) {
		const struct fxt_arg *arg = &rec.args[0];

		assert_int_equal(rec.nargs, 1);
		assert_true(want[arg->value.u32]);
		assert_str(rec.event.category, cats[arg->value.u32]);
		events++;
	}
	assert_int_equal(events, 2);
	assert_int_equal(records_of(&tr.st, "other"), 0);
	trace_free(&tr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interned_by_content),
		cmocka_unit_test(test_full_table_inline),
		cmocka_unit_test(test_dynamic_category),
	};

	fxt_test_disable_transport();
	fxt_provider_init("dyn-test");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
