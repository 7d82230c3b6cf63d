// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every macro written from C++ (every_macro.cc, built by each C++
 * compiler: one test executable per compiler), read back: each event is
 * there, scopes left by a return or an exception are written, and the
 * records carry the run-time values; names chosen at run time (TRACE_DYN)
 * are interned by content: one string record for all the rounds.
 */
#include "provider_test.h"

#include "every_macro.h"

struct counts {
	unsigned int events, blobs, logs, objects, kernel_objects;
	unsigned int early, thrown, scoped, not_reached;
	unsigned int at, at_wrong;
	unsigned int dyn, dyn_field, dyn_strings;
	bool peer_arg, str_arg;
};

static void count(const void *data, size_t len, uint64_t at,
		  struct counts *c)
{
	struct fxt_reader *r = test_reader(data, len);
	struct fxt_record rec;
	unsigned int i;
	int ret;

	memset(c, 0, sizeof(*c));
	while ((ret = fxt_reader_next(r, &rec)) == 1) {
		switch (rec.type) {
		case FXT_RECORD_STRING:
			c->dyn_strings += str_is(rec.string.value, "cxx-dyn-7");
			break;
		case FXT_RECORD_EVENT:
			for (i = 0; i < rec.nargs; i++)
				c->dyn_field += str_is(rec.args[i].name,
						       "field");
			c->dyn += rec.event.name.len > 8 &&
				  !memcmp(rec.event.name.data, "cxx-dyn-", 8) &&
				  str_is(rec.event.category, "cat");
			if (rec.event.name.len < 4 ||
			    memcmp(rec.event.name.data, "cxx-", 4))
				break;
			c->events++;
			if (rec.event.name.len > 7 &&
			    !memcmp(rec.event.name.data, "cxx-at-", 7)) {
				c->at++;
				c->at_wrong += rec.event.ts != at;
			}
			c->early += str_is(rec.event.name, "cxx-early");
			c->scoped += str_is(rec.event.name, "cxx-scoped");
			c->not_reached += str_is(rec.event.name,
						 "cxx-not-reached");
			if (!str_is(rec.event.name, "cxx-throw") &&
			    !str_is(rec.event.name, "cxx-instant-args"))
				break;
			c->thrown += str_is(rec.event.name, "cxx-throw");
			for (i = 0; i < rec.nargs; i++) {
				if (rec.args[i].type != FXT_ARG_STRING)
					continue;
				c->peer_arg |= str_is(rec.args[i].value.str,
						      "peer-7");
				c->str_arg |= str_is(rec.args[i].value.str,
						     "peer peer-7");
			}
			break;
		case FXT_RECORD_BLOB:
			c->blobs++;
			break;
		case FXT_RECORD_LOG:
			c->logs++;
			break;
		case FXT_RECORD_USERSPACE_OBJECT:
			c->objects++;
			break;
		case FXT_RECORD_KERNEL_OBJECT:
			c->kernel_objects += rec.kernel_object.koid == 1007 ||
					     rec.kernel_object.koid == 2007;
			break;
		default:
			break;
		}
	}
	assert_int_equal(ret, 0);
	fxt_reader_close(r);
}

static void test_every_macro(void **state)
{
	struct test_buffer t = { .fd = -1 };
	unsigned int want = 0, rounds = 3, i;
	uint64_t at = fxt_now() - 1000000;
	struct counts c;
	uint8_t *data;
	size_t len;

	(void)state;
	assert_int_equal(test_buffer_layout(&t, 64 << 10, 1 << 20, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "cat", -1);
	/* The first round fills the sites' caches, the next ones are inline. */
	for (i = 0; i < rounds; i++)
		want += every_macro_write("peer-7", 7, at);
	fxt_test_stop(t.b);
	assert_int_equal(t.hdr->records_dropped, 0);
	data = test_buffer_collect(&t, &len);
	count(data, len, at, &c);
	assert_int_equal(c.events, want);
	assert_int_equal(c.early, rounds);
	assert_int_equal(c.thrown, rounds);
	assert_int_equal(c.scoped, rounds);
	assert_int_equal(c.not_reached, 0);
	/* Explicit times, from the library's writer and the inline one. */
	assert_int_equal(c.at, 2 * 11 * rounds);
	assert_int_equal(c.at_wrong, 0);
	/* Dynamic names: all there, their string written once. */
	assert_int_equal(c.dyn, 15 * rounds);
	assert_int_equal(c.dyn_field, 10 * rounds);
	assert_int_equal(c.dyn_strings, 1);
	assert_true(c.peer_arg);
	assert_true(c.str_arg);
	assert_int_equal(c.blobs, 2 * rounds);
	assert_int_equal(c.logs, 4 * rounds);
	assert_int_equal(c.objects, 3 * rounds);
	assert_int_equal(c.kernel_objects, 3 * rounds);
	free(data);
	test_buffer_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_macro),
	};

	fxt_test_disable_transport();
	fxt_provider_init("cxx-test");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
