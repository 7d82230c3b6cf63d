// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON check that fuzz_convert relies on: it must accept what the
 * converter writes and reject every way a document can be broken, or a
 * converter bug would pass the fuzzer unseen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "json_check.h"

static const char *check_str(const char *s)
{
	return json_check(s, strlen(s), NULL);
}

static void accepts_valid(void **state)
{
	static const char *const good[] = {
		"{}", "[]", " [ ] \n", "0", "-0", "1.5e-3", "-12E+4", "true",
		"null", "\"\"", "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"",
		"\"\\ud83d\\ude00\"", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
		"{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[\n{\"ph\":\"i\","
		"\"ts\":1.000,\"args\":{\"a\":[1,{}]}}\n],\"x\":false\n}\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_null(check_str(good[i]));
}

static void rejects_invalid(void **state)
{
	static const char *const bad[] = {
		"", " ", "{", "[", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}",
		"{a:1}", "{\"a\":1,}", "[]]", "[] x", "01", "1.", ".5", "-",
		"1e", "NaN", "Infinity", "-Infinity", "nul", "tru",
		"\"abc", "\"\\x41\"", "\"\\u12\"", "\"\\ud800\"",
		"\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\x01\"", "\"a\tb\"",
		"\"\x80\"", "\"\xc0\xaf\"", "\"\xe0\x80\x80\"", "\"\xed\xa0\x80\"",
		"\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"", "\"\xc3\"",
		"\"\xe2\x82\"",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!check_str(bad[i]))
			fail_msg("accepted invalid JSON #%zu: %s", i, bad[i]);
	}
}

static void rejects_nul_and_deep_nesting(void **state)
{
	char deep[200];
	size_t at = 0;

	(void)state;
	assert_non_null(json_check("\"a\0b\"", 5, &at));
	assert_int_equal(at, 2);
	assert_non_null(json_check("[]\0", 3, NULL));
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_non_null(json_check(deep, sizeof(deep), NULL));
	assert_null(json_check(deep + 90, 20, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_valid),
		cmocka_unit_test(rejects_invalid),
		cmocka_unit_test(rejects_nul_and_deep_nesting),
	};

	return cmocka_run_group_tests_name("json check", tests, NULL, NULL);
}
