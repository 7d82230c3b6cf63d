// SPDX-License-Identifier: GPL-2.0-only
/*
 * The providers' string and thread tables share one memory budget: what
 * does not fit is dropped and left unset, never half kept or stale, and
 * the reader counts it and says so once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fxt_tables.h"
#include "test_support.h"

/* A page of string slots and a few small strings, not two pages. */
#define SMALL_BUDGET 8192u

static void test_string_past_budget_is_unset(void **state)
{
	struct fxt_table_budget b = { .max = SMALL_BUDGET };
	struct fxt_tables t = { 0 };
	static char big[4096];

	(void)state;
	assert_int_equal(fxt_tables_set_string(&t, &b, 1, "abc", 3), 0);
	assert_memory_equal(fxt_tables_string(&t, 1)->data, "abc", 3);
	/* index 300 needs a second page: dropped */
	assert_int_equal(fxt_tables_set_string(&t, &b, 300, "x", 1), 1);
	assert_null(fxt_tables_string(&t, 300));
	/* a longer value that does not fit: the old one is not kept */
	assert_int_equal(fxt_tables_set_string(&t, &b, 1, big, sizeof(big)), 1);
	assert_null(fxt_tables_string(&t, 1));
	assert_true(b.used <= b.max);
	/* what was given back fits again */
	assert_int_equal(fxt_tables_set_string(&t, &b, 2, big, 1024), 0);
	assert_int_equal(fxt_tables_string(&t, 2)->len, 1024);
	fxt_tables_free(&t, &b);
	assert_int_equal(b.used, 0);
}

static void test_thread_table_past_budget(void **state)
{
	struct fxt_thread_id id = { 1, 2 };
	struct fxt_table_budget b = { .max = 100 };
	struct fxt_tables t = { 0 };

	(void)state;
	assert_int_equal(fxt_tables_set_thread(&t, &b, 5, id), 1);
	assert_null(fxt_tables_thread(&t, 5));
	b.max = SMALL_BUDGET;
	assert_int_equal(fxt_tables_set_thread(&t, &b, 5, id), 0);
	assert_int_equal(fxt_tables_thread(&t, 5)->tid, 2);
	fxt_tables_reset(&t);
	assert_null(fxt_tables_thread(&t, 5));
	fxt_tables_free(&t, &b);
	assert_int_equal(b.used, 0);
}

/* The whole reader: counted, said once, references read as unset. */
static void test_reader_drops_and_counts(void **state)
{
	const uint64_t w[] = {
		FXT_MAGIC_RECORD,
		fxt_string_header(1, 8), 0x6161616161616161ull,
		fxt_string_header(300, 8), 0x6262626262626262ull,
		fxt_string_header(600, 8), 0x6363636363636363ull,
		/* an instant named by index 300, on an inline thread */
		fxt_event_header(4, FXT_EVENT_INSTANT, 0, FXT_THREAD_REF_INLINE,
				 1, 300),
		5, 7, 8,
	};
	struct fxt_reader_options opt = {
		.expect_magic = true,
		.diag = diag_collect,
		.max_table_bytes = SMALL_BUDGET,
	};
	struct diag_log log = { 0 };
	struct fxt_reader_stats stats;
	size_t i, limits = 0;

	(void)state;
	opt.diag_ctx = &log;
	assert_int_equal(read_all(w, sizeof(w), &opt, &stats), 5);
	assert_int_equal(stats.table_entries_dropped, 2);
	assert_int_equal(stats.malformed, 0);
	assert_int_equal(stats.nonconforming, 1);
	for (i = 0; i < log.n; i++)
		limits += log.e[i].kind == FXT_DIAG_LIMIT;
	assert_int_equal(limits, 1);
	assert_non_null(strstr(log.e[0].reason, "8192-byte limit"));
	assert_non_null(strstr(log.e[1].reason, "string index 300"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_string_past_budget_is_unset),
		cmocka_unit_test(test_thread_table_past_budget),
		cmocka_unit_test(test_reader_drops_and_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
