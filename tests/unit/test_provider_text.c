// SPDX-License-Identifier: GPL-2.0-only
/*
 * What tracectl prints of a provider (daemon/tracectl/provider_text.c):
 * names escaped as dump escapes strings, whatever the bytes and even
 * without a terminating NUL; a drop count the manager did not believe
 * shown as implausible and never summed; sums that saturate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "provider_text.h"

static void test_name_escaped(void **state)
{
	struct fxt_ctl_provider p = { 0 };
	char buf[PROVIDER_TEXT_NAME_MAX];

	(void)state;
	strcpy(p.name, "app\x1b[2J\a\r\"\\\xff");
	assert_string_equal(provider_text_name(&p, buf),
			    "app\\x1b[2J\\x07\\x0d\\\"\\\\\\xff");
	strcpy(p.name, "plain-name_1");
	assert_string_equal(provider_text_name(&p, buf), "plain-name_1");
}

/* Every byte an escape, no NUL: the worst case fits, terminated. */
static void test_name_worst_case(void **state)
{
	struct fxt_ctl_provider p;
	char buf[PROVIDER_TEXT_NAME_MAX + 1];
	size_t i;

	(void)state;
	memset(&p, 0, sizeof(p));
	memset(p.name, 0x1b, sizeof(p.name));
	buf[PROVIDER_TEXT_NAME_MAX] = 'Z';	/* must stay untouched */
	provider_text_name(&p, buf);
	assert_int_equal(strlen(buf), 4 * sizeof(p.name));
	for (i = 0; i < sizeof(p.name); i++)
		assert_memory_equal(buf + 4 * i, "\\x1b", 4);
	assert_int_equal(buf[PROVIDER_TEXT_NAME_MAX], 'Z');
}

static void test_drops(void **state)
{
	struct fxt_ctl_provider p = { .records_dropped = UINT64_MAX };
	char buf[PROVIDER_TEXT_DROPS_MAX];

	(void)state;
	assert_string_equal(provider_text_drops(&p, buf),
			    "18446744073709551615");
	p.flags = FXT_CTL_PROVIDER_DROPS_IMPLAUSIBLE;
	assert_string_equal(provider_text_drops(&p, buf), "implausible");
	p.records_dropped = 7;
	assert_string_equal(provider_text_drops(&p, buf), "implausible");
}

static void test_sum_saturates_and_skips_implausible(void **state)
{
	struct fxt_ctl_provider p = { .records_dropped = 5 };
	struct fxt_ctl_provider liar = {
		.records_dropped = 1000,
		.flags = FXT_CTL_PROVIDER_DROPS_IMPLAUSIBLE,
	};

	(void)state;
	assert_int_equal(provider_add_drops(10, &p), 15);
	assert_int_equal(provider_add_drops(10, &liar), 10);
	assert_true(provider_add_drops(UINT64_MAX - 2, &p) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_escaped),
		cmocka_unit_test(test_name_worst_case),
		cmocka_unit_test(test_drops),
		cmocka_unit_test(test_sum_saturates_and_skips_implausible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
