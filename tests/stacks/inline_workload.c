// SPDX-License-Identifier: GPL-2.0-only
/*
 * inline-workload: two CPU-bound functions that gcc -O2 inlines into
 * their one caller (static, called once: neither keeps a symbol), each
 * timed by the program itself, for the inline frames' test.
 *
 * inline-workload [--seconds S]
 *     while S seconds (default 2) of its CPU time pass, work() calls
 *     hot_seventy() then hot_thirty() on the main thread, with 7 and 3
 *     units of work, and adds up the thread CPU time (CLOCK_THREAD_
 *     CPUTIME_ID) each call took. Prints pid=, then at the end
 *     seventy_ns= and thirty_ns=: its own split to compare with the
 *     samples'.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define UNIT_ITERATIONS 200000ull

static volatile uint64_t sink;

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t hot_seventy(uint64_t x, uint64_t units)
{
	uint64_t i;

	for (i = 0; i < units * UNIT_ITERATIONS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

static uint64_t hot_thirty(uint64_t x, uint64_t units)
{
	uint64_t i;

	for (i = 0; i < units * UNIT_ITERATIONS; i++)
		x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
	return x;
}

/* The caller both are inlined into. */
__attribute__((noinline)) static void work(double seconds)
{
	uint64_t seventy = 0, thirty = 0, x = sink, t0, t1, t2;
	uint64_t end = cpu_ns() + (uint64_t)(seconds * 1e9);

	do {
		t0 = cpu_ns();
		x = hot_seventy(x, 7);
		t1 = cpu_ns();
		x = hot_thirty(x, 3);
		t2 = cpu_ns();
		seventy += t1 - t0;
		thirty += t2 - t1;
	} while (t2 < end);
	sink = x;
	printf("seventy_ns=%llu\nthirty_ns=%llu\n", (unsigned long long)seventy,
	       (unsigned long long)thirty);
}

int main(int argc, char **argv)
{
	double seconds = 2;

	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = atof(argv[2]);
	printf("pid=%d\n", getpid());
	fflush(stdout);
	work(seconds);
	return 0;
}
