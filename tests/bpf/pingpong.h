/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A pipe ping-pong between two named threads: every round trip is two
 * wakeups and (on one CPU) two context switches between known tids.
 */
#ifndef FXT_TESTS_PINGPONG_H
#define FXT_TESTS_PINGPONG_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

struct pingpong {
	int to_pong[2];
	int to_ping[2];
	long rounds;
	int cpu;		/* -1: no pinning */
	pid_t tid[2];		/* ping, pong */
	pthread_t thread[2];
	pthread_barrier_t ready;
};

/* Runs rounds round trips between threads "fxt-ping" and "fxt-pong". */
int pingpong_run(struct pingpong *pp, long rounds, int cpu);

#endif /* FXT_TESTS_PINGPONG_H */
