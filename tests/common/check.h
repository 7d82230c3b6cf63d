/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Assertions for the C test programs that do not run under cmocka (the
 * kernel-capture tests, the module's guest tests, the fuzz targets):
 * CHECK(cond, fmt, ...) prints the place, the condition and the message
 * on stderr and counts the failure in check_failures. What follows a
 * failure depends on the program, chosen before including this header:
 *   default              go on (the caller looks at check_failures)
 *   CHECK_RETURNS_1      return 1 from the test function
 *   CHECK_ABORTS         abort(): a fuzzer must see a crash
 */
#ifndef FXT_TESTS_CHECK_H
#define FXT_TESTS_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned int check_failures __attribute__((unused));

__attribute__((format(printf, 4, 5), unused)) static bool
check_failed(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout); /* in order with what the test printed */
	fprintf(stderr, "FAIL %s:%d: %s: ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	check_failures++;
	return true;
}

#define CHECK_FAILED(cond, ...) \
	(!(cond) && check_failed(__FILE__, __LINE__, #cond, __VA_ARGS__))

#if defined(CHECK_RETURNS_1)
#define CHECK(cond, ...)                             \
	do {                                         \
		if (CHECK_FAILED(cond, __VA_ARGS__)) \
			return 1;                    \
	} while (0)
#elif defined(CHECK_ABORTS)
#define CHECK(cond, ...)                             \
	do {                                         \
		if (CHECK_FAILED(cond, __VA_ARGS__)) \
			abort();                     \
	} while (0)
#else
#define CHECK(cond, ...) ((void)CHECK_FAILED(cond, __VA_ARGS__))
#endif

/* expr returns 0 or -errno. */
#define CHECK_OK(expr)                                               \
	do {                                                         \
		int check_err_ = (expr);                             \
		CHECK(check_err_ == 0, "%s", strerror(-check_err_)); \
	} while (0)

#endif /* FXT_TESTS_CHECK_H */
