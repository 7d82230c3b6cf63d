/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Two named threads passing a byte through a pair of pipes, both pinned
 * to one CPU: every round trip is two wakeups and two context switches
 * between known tids. Used by the module and the BPF backend tests.
 */
#ifndef FXT_TESTS_PINGPONG_H
#define FXT_TESTS_PINGPONG_H

#include <sys/types.h>

struct pingpong {
	int cpu;		/* pin both threads here; -1: do not pin */
	long rounds;
	int rt;			/* run both SCHED_FIFO */
	const char *last_name;	/* if set, ping renames itself last */
	pid_t ping_tid, pong_tid;	/* out */
	double ns_per_round;	/* out */
};

/* Returns 0 or -errno. Thread names: "fxt-ping", "fxt-pong". */
int pingpong_run(struct pingpong *pp);

#endif /* FXT_TESTS_PINGPONG_H */
