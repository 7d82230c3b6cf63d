// SPDX-License-Identifier: GPL-2.0-only
/*
 * unwind-workload: known user stacks in a program built without frame
 * pointers, for the test of table-driven (.eh_frame) unwinding in the
 * stack sampler. Built twice (tests/stacks/meson.build): -O2
 * -fomit-frame-pointer -DNOINLINE_HOT, its hot functions called as
 * themselves; and -O2 -g, where gcc inlines them into work() (static,
 * called once: neither keeps a symbol) and only DWARF names them.
 *
 * unwind-workload [--seconds S]
 *     Main thread: while S seconds (default 2) of its CPU time pass,
 *     work() calls hot_seventy() then hot_thirty(), with 7 and 3 units
 *     of work, and adds up the thread CPU time (CLOCK_THREAD_CPUTIME_ID)
 *     each call took. Every ~20 ms (its wall time) it takes the shared
 *     mutex, holds it for ~5 ms while it goes on working, and writes a
 *     byte to the worker's pipe as it takes it.
 *     Thread "worker": until the pipe is closed, worker() calls
 *     update_shared_state() (blocks in pthread_mutex_lock(), a futex
 *     wait, while the main thread holds the mutex), usleep(3000), then
 *     wait_on_pipe() (blocks in read() until the next byte): three
 *     off-CPU stacks of known user frames, root to leaf start_thread,
 *     worker, then each.
 *     Prints pid= and worker= (the worker's tid, once it runs), then at
 *     the end seventy_ns= and thirty_ns=: the main thread's own split, to
 *     compare with the samples', and blocks= (the worker's rounds).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define UNIT_ITERATIONS 200000ull
#define LOCK_EVERY_NS 20000000ull
#define LOCK_HOLD_NS 5000000ull

/*
 * -DNOINLINE_HOT: the hot functions called as themselves, with their
 * own symbols (noclone: no hot_seventy.constprop.0 either), so that the
 * frame-pointer-less build's samples have them as leaf and work() as
 * the caller to unwind to. Without it, gcc -O2 inlines them into work().
 */
#ifdef NOINLINE_HOT
#define HOT __attribute__((noinline, noclone))
#else
#define HOT
#endif

/* Global, so that their names are in the symbol table as they are. */
void *worker(void *arg);
int update_shared_state(void);
int wait_on_pipe(void);
void work(double seconds);

static volatile uint64_t sink;
static volatile uint64_t shared_state;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int pipe_fds[2];

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

HOT static uint64_t hot_seventy(uint64_t x, uint64_t units)
{
	uint64_t i;

	for (i = 0; i < units * UNIT_ITERATIONS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

HOT static uint64_t hot_thirty(uint64_t x, uint64_t units)
{
	uint64_t i;

	for (i = 0; i < units * UNIT_ITERATIONS; i++)
		x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
	return x;
}

/* Waits for the mutex the main thread holds ~5 ms of every ~20. */
__attribute__((noinline, noclone)) int update_shared_state(void)
{
	pthread_mutex_lock(&lock);
	shared_state++;
	pthread_mutex_unlock(&lock);
	return 0;
}

/* Blocks in read() until the main thread's next byte: 1, or 0 at EOF. */
__attribute__((noinline, noclone)) int wait_on_pipe(void)
{
	char c;

	return read(pipe_fds[0], &c, 1) == 1;
}

__attribute__((noinline, noclone)) void *worker(void *arg)
{
	uint64_t *rounds = arg;

	printf("worker=%d\n", gettid());
	fflush(stdout);
	do {
		update_shared_state();
		usleep(3000);
		(*rounds)++;
	} while (wait_on_pipe());
	return NULL;
}

/*
 * Between rounds of work: takes the mutex every LOCK_EVERY_NS, with a
 * byte to the pipe (so that the worker, woken, meets the mutex held),
 * and lets it go LOCK_HOLD_NS later.
 */
static void pace(uint64_t *next_lock, int *held)
{
	uint64_t now = now_ns(CLOCK_MONOTONIC);

	if (*held && now >= *next_lock - LOCK_EVERY_NS + LOCK_HOLD_NS) {
		pthread_mutex_unlock(&lock);
		*held = 0;
	} else if (!*held && now >= *next_lock) {
		pthread_mutex_lock(&lock);
		*held = 1;
		if (write(pipe_fds[1], "x", 1) != 1)
			abort();
		*next_lock = now + LOCK_EVERY_NS;
	}
}

/* The caller both hot functions are inlined into (without NOINLINE_HOT). */
__attribute__((noinline, noclone)) void work(double seconds)
{
	uint64_t seventy = 0, thirty = 0, x = sink, t0, t1, t2;
	uint64_t end = now_ns(CLOCK_THREAD_CPUTIME_ID) +
		       (uint64_t)(seconds * 1e9);
	uint64_t next_lock = now_ns(CLOCK_MONOTONIC);
	int held = 0;

	do {
		t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		x = hot_seventy(x, 7);
		t1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		x = hot_thirty(x, 3);
		t2 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		seventy += t1 - t0;
		thirty += t2 - t1;
		pace(&next_lock, &held);
	} while (t2 < end);
	if (held)
		pthread_mutex_unlock(&lock);
	sink = x;
	printf("seventy_ns=%llu\nthirty_ns=%llu\n", (unsigned long long)seventy,
	       (unsigned long long)thirty);
}

int main(int argc, char **argv)
{
	double seconds = 2;
	uint64_t rounds = 0;
	pthread_t t;

	if (argc == 3 && !strcmp(argv[1], "--seconds")) {
		seconds = atof(argv[2]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: unwind-workload [--seconds S]\n");
		return 2;
	}
	if (pipe(pipe_fds) || pthread_create(&t, NULL, worker, &rounds))
		return 1;
	pthread_setname_np(t, "worker");
	printf("pid=%d\n", getpid());
	fflush(stdout);
	work(seconds);
	/* EOF ends the worker's loop at its next read. */
	close(pipe_fds[1]);
	pthread_join(t, NULL);
	printf("blocks=%llu\n", (unsigned long long)rounds);
	return 0;
}
