// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C loops of provider_bench.c, as a C++ translation unit: the same
 * macros through C++'s argument makers and TRACE_DURATION's destructor.
 */
#include <fxt/provider.h>

#include "loops_cxx.h"

void loop_instant_cxx(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		TRACE_INSTANT("bench", "instant", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32("a", (int32_t)i),
			      TRACE_ARG_I32("b", (int32_t)(2 * i)));
}

static __attribute__((noinline)) void one_duration(unsigned long i)
{
	TRACE_DURATION("bench", "duration", TRACE_ARG_I32("a", (int32_t)i),
		       TRACE_ARG_I32("b", (int32_t)(2 * i)));
	__asm__ volatile("" ::: "memory");
}

void loop_duration_cxx(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		one_duration(i);
}
