// SPDX-License-Identifier: GPL-2.0-only
/*
 * The provider of the merge's integration test: once category "merge" is
 * enabled, COUNT instants "tick" a PERIOD_MS apart, each stamped with a
 * CLOCK_BOOTTIME reading (fxt_now()) and carrying n and the REALTIME read
 * just before ("wall0") and just after ("wall1") it: whatever the load, the
 * wall-clock moment of the stamp lies between them. Prints "wrote COUNT"
 * and waits to be killed (a stop still collects its buffer).
 *
 *   wall_ticks NAME COUNT PERIOD_MS
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>

static uint64_t realtime_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void sleep_ms(unsigned long ms)
{
	struct timespec t = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };

	while (nanosleep(&t, &t))
		;
}

int main(int argc, char **argv)
{
	unsigned long count, period, waited = 0, n;
	uint64_t w0, w1, b;

	if (argc != 4) {
		fprintf(stderr, "usage: wall_ticks NAME COUNT PERIOD_MS\n");
		return 2;
	}
	count = strtoul(argv[2], NULL, 10);
	period = strtoul(argv[3], NULL, 10);
	fxt_provider_init(argv[1]);
	while (!fxt_category_enabled("merge")) {
		if (++waited > 60000)	/* a minute: the test gave up */
			return 1;
		sleep_ms(1);
	}
	for (n = 0; n < count; n++) {
		w0 = realtime_ns();
		b = fxt_now();
		w1 = realtime_ns();
		TRACE_INSTANT_AT("merge", "tick", b, TRACE_SCOPE_THREAD,
				 TRACE_ARG_U64("n", n),
				 TRACE_ARG_U64("wall0", w0),
				 TRACE_ARG_U64("wall1", w1));
		sleep_ms(period);
	}
	printf("wrote %lu\n", count);
	fflush(stdout);
	for (;;)
		pause();
}
