/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The enabled loops of the provider benchmark, compiled once as C
 * (provider_bench.c) and once as C++ (loops_cxx.cc): LOOP(name) declares
 * each one with the includer's name and linkage.
 */
static __attribute__((noinline)) void one_duration(unsigned long i)
{
	TRACE_DURATION("bench", "duration", TRACE_ARG_I32("a", (int32_t)i),
		       TRACE_ARG_I32("b", (int32_t)(2 * i)));
	__asm__ volatile("" ::: "memory");
}

LOOP(instant)(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		TRACE_INSTANT("bench", "instant", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32("a", (int32_t)i),
			      TRACE_ARG_I32("b", (int32_t)(2 * i)));
}

/* An RPC server's events: names chosen at run time, interned already. */
static char dyn_names[4][16] = { "method-a", "method-b", "method-c",
				 "method-d" };

LOOP(instant_dyn)(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		TRACE_INSTANT("bench", TRACE_DYN(dyn_names[i & 3]),
			      TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32("a", (int32_t)i),
			      TRACE_ARG_I32("b", (int32_t)(2 * i)));
}

LOOP(duration)(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		one_duration(i);
}
