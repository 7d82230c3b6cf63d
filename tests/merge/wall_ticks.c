// SPDX-License-Identifier: GPL-2.0-only
/*
 * The provider of the merge's integration test: once category "merge" is
 * enabled, COUNT instants "tick" a PERIOD_MS apart, each stamped with a
 * CLOCK_BOOTTIME reading (fxt_now()) and carrying n and the REALTIME read
 * just before ("wall0") and just after ("wall1") it: whatever the load, the
 * wall-clock moment of the stamp lies between them. Prints "wrote COUNT"
 * and waits to be killed (a stop still collects its buffer).
 *
 * With START_FILE, the ticks are numbered wall-clock moments, the same on
 * every host: once the file holds T0 (REALTIME ns, written whole by a
 * rename), tick n is the moment T0 + n x PERIOD_MS, stamped with the
 * BOOTTIME this host's clocks give that moment (from the tightest of a
 * few readings of REALTIME, BOOTTIME, REALTIME; waiting for the moment
 * when it is ahead, right away when it is past). Its wall0 is the moment,
 * wall1 the moment plus the reading's width: the stamp's true wall-clock
 * time lies between them, as without START_FILE.
 *
 *   wall_ticks NAME COUNT PERIOD_MS [START_FILE]
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

/* Polls cond for up to a minute (then the test gave up): 0 or -1. */
static int wait_for(int (*cond)(const char *), const char *arg)
{
	unsigned long waited = 0;

	while (!cond(arg)) {
		if (++waited > 60000)
			return -1;
		sleep_ms(1);
	}
	return 0;
}

static int category_on(const char *category)
{
	return fxt_category_enabled(category);
}

static uint64_t start_ns;

static int start_read(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long v = 0;
	int got;

	if (!f)
		return 0;
	got = fscanf(f, "%llu", &v) == 1 && v;
	fclose(f);
	start_ns = v;
	return got;
}

/* The BOOTTIME of wall-clock moment t; *width: the reading's width. */
static uint64_t boottime_at(uint64_t t, uint64_t *width)
{
	uint64_t w0, w1, b, best = UINT64_MAX, stamp = 0;
	int i;

	for (i = 0; i < 8; i++) {
		w0 = realtime_ns();
		b = fxt_now();
		w1 = realtime_ns();
		if (w1 - w0 < best) {
			best = w1 - w0;
			stamp = b + t - w0;
		}
	}
	*width = best;
	return stamp;
}

static void numbered_tick(unsigned long n, unsigned long period)
{
	uint64_t t = start_ns + (uint64_t)n * period * 1000000ull, width, b;
	uint64_t now = realtime_ns();

	if (t > now)
		sleep_ms((unsigned long)((t - now) / 1000000));
	b = boottime_at(t, &width);
	TRACE_INSTANT_AT("merge", "tick", b, TRACE_SCOPE_THREAD,
			 TRACE_ARG_U64("n", n), TRACE_ARG_U64("wall0", t),
			 TRACE_ARG_U64("wall1", t + width));
}

int main(int argc, char **argv)
{
	unsigned long count, period, n;
	uint64_t w0, w1, b;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: wall_ticks NAME COUNT PERIOD_MS "
				"[START_FILE]\n");
		return 2;
	}
	count = strtoul(argv[2], NULL, 10);
	period = strtoul(argv[3], NULL, 10);
	fxt_provider_init(argv[1]);
	if (wait_for(category_on, "merge") ||
	    (argc == 5 && wait_for(start_read, argv[4])))
		return 1;
	for (n = 0; argc == 5 && n < count; n++)
		numbered_tick(n, period);
	for (n = 0; argc == 4 && n < count; n++) {
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
