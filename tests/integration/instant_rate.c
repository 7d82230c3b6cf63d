// SPDX-License-Identifier: GPL-2.0-only
/*
 * instant-rate: one thread of the real libfxt-provider writing instants
 * as fast as it can, for the snapshot tests and their benchmark.
 *
 *   instant-rate --run-until FILE    writes "rate"/"ev" instants (one
 *                                    int64 argument, the count) until
 *                                    FILE exists, then prints
 *                                    "events N ns T rate R" (events/s)
 *   instant-rate --now               prints CLOCK_BOOTTIME in ns (the
 *                                    clock of trace timestamps)
 *
 * Prints "running" once it writes. Exit status 0, or 2 on a bad command
 * line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>

/* Looks for FILE every this many events: a stat() is not free. */
#define CHECK_EVERY 4096

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t n = 0, start, ns;

	if (argc == 2 && !strcmp(argv[1], "--now")) {
		printf("%llu\n", (unsigned long long)boottime_ns());
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "--run-until")) {
		fprintf(stderr, "usage: instant-rate --run-until FILE | --now\n");
		return 2;
	}
	TRACE_INSTANT("rate", "first", TRACE_SCOPE_THREAD);
	printf("running\n");
	fflush(stdout);
	start = boottime_ns();
	for (;;) {
		TRACE_INSTANT("rate", "ev", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I64("i", (int64_t)n));
		n++;
		if (n % CHECK_EVERY == 0 && access(argv[2], F_OK) == 0)
			break;
	}
	ns = boottime_ns() - start;
	printf("events %llu ns %llu rate %.0f\n", (unsigned long long)n,
	       (unsigned long long)ns, (double)n * 1e9 / (double)ns);
	return 0;
}
