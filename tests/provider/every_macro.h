/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every <fxt/provider.h> macro, with literal and run-time values, written
 * by a C++ translation unit (every_macro.cc) that each C++ compiler builds;
 * the C test reads the records back (test_cxx.c).
 */
#ifndef FXT_TEST_EVERY_MACRO_H
#define FXT_TEST_EVERY_MACRO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the events, those named "cxx-at-*" at the time at; returns how
 * many event records it wrote.
 */
unsigned int every_macro_write(const char *peer, int n, uint64_t at);

#ifdef __cplusplus
}
#endif

#endif /* FXT_TEST_EVERY_MACRO_H */
