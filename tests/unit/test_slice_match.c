// SPDX-License-Identifier: GPL-2.0-only
/*
 * The slice matcher (daemon/analysis/model/slice_match.h) that summary
 * and export share: ends close the innermost begin of their (pid, tid);
 * a begin past the depth, byte or thread bound is lost and counted, the
 * thread's deeper begins with it, and the ends of lost begins close
 * nothing; an end without a begin closes nothing. Run under ASan in CI:
 * whatever it allocates is freed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "slice_match.h"

static struct fxt_str str(const char *s)
{
	return (struct fxt_str){ .data = s, .len = (uint32_t)strlen(s) };
}

static void init(struct slice_match *m, uint32_t threads, uint32_t depth,
		 uint64_t max_bytes, uint64_t *used)
{
	slice_match_init(m, &(struct slice_match_bounds){
				    .threads = threads,
				    .depth = depth,
				    .first = 2,
				    .max_bytes = max_bytes,
				    .used = used,
			    });
}

/* Begin with category c and name n, the tag where c ends (as export). */
static int begin_names(struct slice_match *m, uint64_t pid, uint64_t tid,
		       uint64_t ns, const char *c, const char *n)
{
	struct fxt_str parts[2] = { str(c), str(n) };

	return slice_match_begin(m, pid, tid, ns, parts[0].len, parts, 2);
}

static void test_nesting(void **state)
{
	struct slice_match m;
	struct slice_closed c;
	int i;

	(void)state;
	init(&m, 16, 64, 1 << 20, NULL);
	assert_false(slice_match_end(&m, 1, 2, &c)); /* no begin, no thread */
	assert_int_equal(begin_names(&m, 1, 2, 10, "cat", "outer"), 0);
	assert_int_equal(begin_names(&m, 1, 2, 20, "c", "inner"), 0);
	assert_int_equal(slice_match_begin(&m, 1, 3, 30, 7, NULL, 0), 0);
	for (i = 0; i < 40; i++) /* past the first entries: the stack grows */
		assert_int_equal(begin_names(&m, 1, 2, 100 + i, "d", "x"), 0);
	for (i = 39; i >= 0; i--) {
		assert_true(slice_match_end(&m, 1, 2, &c));
		assert_int_equal(c.ns, 100 + i);
	}
	assert_true(slice_match_end(&m, 1, 2, &c));
	assert_int_equal(c.ns, 20);
	assert_int_equal(c.tag, 1);
	assert_int_equal(c.bytes.len, 6);
	assert_memory_equal(c.bytes.data, "cinner", 6);
	assert_true(slice_match_end(&m, 1, 2, &c));
	assert_int_equal(c.ns, 10);
	assert_int_equal(c.tag, 3);
	assert_memory_equal(c.bytes.data, "catouter", 8);
	assert_false(slice_match_end(&m, 1, 2, &c)); /* nothing open */
	assert_int_equal(slice_match_open(&m), 1); /* 1/3's, no bytes */
	assert_true(slice_match_end(&m, 1, 3, &c));
	assert_int_equal(c.tag, 7);
	assert_int_equal(c.bytes.len, 0);
	assert_int_equal(m.lost, 0);
	slice_match_free(&m);
	assert_int_equal(m.nthreads, 0);
	slice_match_free(&m); /* freeing twice is harmless */
}

/* Past depth 4: lost, counted, and the ends of the lost close nothing. */
static void test_depth_bound(void **state)
{
	struct slice_match m;
	struct slice_closed c;
	uint64_t i;

	(void)state;
	init(&m, 16, 4, 1 << 20, NULL);
	for (i = 0; i < 6; i++)
		assert_int_equal(slice_match_begin(&m, 1, 1, i, (uint32_t)i,
						   NULL, 0),
				 0);
	assert_int_equal(m.lost, 2);
	assert_int_equal(slice_match_open(&m), 4);
	assert_false(slice_match_end(&m, 1, 1, &c));
	/* a begin over a lost one is lost too, though there is room now */
	assert_int_equal(slice_match_begin(&m, 1, 1, 9, 9, NULL, 0), 0);
	assert_int_equal(m.lost, 3);
	assert_false(slice_match_end(&m, 1, 1, &c));
	assert_false(slice_match_end(&m, 1, 1, &c));
	for (i = 4; i-- > 0;) {
		assert_true(slice_match_end(&m, 1, 1, &c));
		assert_int_equal(c.ns, i);
		assert_int_equal(c.tag, i);
	}
	assert_false(slice_match_end(&m, 1, 1, &c));
	slice_match_free(&m);
}

/*
 * Bytes past the budget, counted in the caller's own count: the begin
 * of a long name is lost, and a deeper begin of no bytes with it.
 */
static void test_byte_bound(void **state)
{
	static char name[3000];
	struct slice_match m;
	struct slice_closed c;
	uint64_t used = 100, i, pushed = 50, kept;

	(void)state;
	memset(name, 'n', sizeof(name) - 1);
	init(&m, 16, UINT32_MAX, 64 << 10, &used);
	for (i = 0; i < pushed; i++)
		assert_int_equal(begin_names(&m, 1, 1, i, "c", name), 0);
	assert_true(m.lost > 0);
	assert_true(used <= 64 << 10 && used > 100);
	assert_int_equal(m.used, 0); /* the caller's count was used */
	assert_int_equal(m.lost + slice_match_open(&m), pushed);
	assert_int_equal(slice_match_begin(&m, 1, 1, 999, 0, NULL, 0), 0);
	assert_int_equal(m.lost + slice_match_open(&m), pushed + 1);
	/* the lost ones were the deepest: their ends come first */
	for (i = 0; i < m.lost; i++)
		assert_false(slice_match_end(&m, 1, 1, &c));
	kept = pushed + 1 - m.lost;
	for (i = 0; i < kept; i++) {
		assert_true(slice_match_end(&m, 1, 1, &c));
		assert_int_equal(c.ns, kept - 1 - i);
		assert_int_equal(c.bytes.len, sizeof(name));
		assert_int_equal(c.tag, 1);
	}
	assert_false(slice_match_end(&m, 1, 1, &c));
	/* another thread still has the budget's rest */
	assert_int_equal(begin_names(&m, 1, 2, 5, "c", "short"), 0);
	assert_true(slice_match_end(&m, 1, 2, &c));
	slice_match_free(&m);
}

/* One tid under two pids is two threads; past 2 threads, begins are lost. */
static void test_threads(void **state)
{
	struct slice_match m;
	struct slice_closed c;

	(void)state;
	init(&m, 2, 64, 1 << 20, NULL);
	assert_int_equal(begin_names(&m, 10, 7, 1, "c", "in10"), 0);
	assert_int_equal(begin_names(&m, 20, 7, 2, "c", "in20"), 0);
	assert_int_equal(begin_names(&m, 30, 7, 3, "c", "in30"), 0);
	assert_int_equal(m.nthreads, 2);
	assert_int_equal(m.lost, 1);
	assert_false(slice_match_end(&m, 30, 7, &c)); /* its begin was lost */
	assert_true(slice_match_end(&m, 10, 7, &c));
	assert_int_equal(c.ns, 1);
	assert_memory_equal(c.bytes.data, "cin10", 5);
	assert_false(slice_match_end(&m, 10, 7, &c));
	assert_true(slice_match_end(&m, 20, 7, &c));
	assert_int_equal(c.ns, 2);
	assert_memory_equal(c.bytes.data, "cin20", 5);
	slice_match_free(&m);
}

/* Many threads: the index grows and finds every one again. */
static void test_many_threads(void **state)
{
	struct slice_match m;
	struct slice_closed c;
	uint64_t t;

	(void)state;
	init(&m, 5000, 8, 1 << 20, NULL);
	for (t = 0; t < 5000; t++)
		assert_int_equal(slice_match_begin(&m, t % 3, t, t, 0, NULL, 0),
				 0);
	assert_int_equal(m.lost, 0);
	for (t = 5000; t-- > 0;) {
		assert_true(slice_match_end(&m, t % 3, t, &c));
		assert_int_equal(c.ns, t);
	}
	assert_int_equal(slice_match_open(&m), 0);
	slice_match_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_depth_bound),
		cmocka_unit_test(test_byte_bound),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_many_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
