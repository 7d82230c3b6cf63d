/* SPDX-License-Identifier: GPL-2.0-only */
/* Non-fatal assertions for the kernel-capture tests: count and go on. */
#ifndef FXT_TESTS_BPF_CHECK_H
#define FXT_TESTS_BPF_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__,      \
				__LINE__, #cond);                          \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
			failures++;                                        \
		}                                                          \
	} while (0)

#endif /* FXT_TESTS_BPF_CHECK_H */
