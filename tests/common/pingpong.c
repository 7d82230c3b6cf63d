// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pingpong.h"

struct side {
	struct pingpong *pp;
	int in, out;
	const char *name;
	pid_t tid;
	int err;
	pthread_barrier_t *ready;
	struct side *peer;
};

static int pin(const struct pingpong *pp)
{
	cpu_set_t set;
	struct sched_param sp = { .sched_priority = 10 };

	if (pp->cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(pp->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return -errno;
	}
	if (pp->rt && sched_setscheduler(0, SCHED_FIFO, &sp))
		return -errno;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *side_main(void *arg)
{
	struct side *s = arg;
	int is_ping = s->name[4] == 'p' && s->name[5] == 'i';
	char c = 0;
	uint64_t t0 = 0;
	long i;

	s->tid = (pid_t)syscall(SYS_gettid);
	prctl(PR_SET_NAME, s->name);
	s->err = pin(s->pp);
	pthread_barrier_wait(s->ready);
	if (s->err || s->peer->err)	/* both set before the barrier */
		return NULL;
	if (is_ping)
		t0 = now_ns();
	for (i = 0; i < s->pp->rounds; i++) {
		if (is_ping && write(s->out, &c, 1) != 1)
			goto io_error;
		if (read(s->in, &c, 1) != 1)
			goto io_error;
		if (!is_ping && write(s->out, &c, 1) != 1)
			goto io_error;
	}
	if (is_ping) {
		s->pp->ns_per_round = (double)(now_ns() - t0) / (double)s->pp->rounds;
		if (s->pp->last_name)
			prctl(PR_SET_NAME, s->pp->last_name);
	}
	return NULL;
io_error:
	s->err = -EIO;
	return NULL;
}

int pingpong_run(struct pingpong *pp)
{
	int a[2], b[2], err = 0;
	pthread_barrier_t ready;
	struct side ping = { pp, -1, -1, "fxt-ping", 0, 0, &ready, NULL };
	struct side pong = { pp, -1, -1, "fxt-pong", 0, 0, &ready, &ping };
	pthread_t t1, t2;

	if (pipe(a) || pipe(b))
		return -errno;
	ping.out = a[1];
	pong.in = a[0];
	pong.out = b[1];
	ping.in = b[0];
	ping.peer = &pong;
	pthread_barrier_init(&ready, NULL, 2);
	if (pthread_create(&t2, NULL, side_main, &pong))
		return -EAGAIN;
	if (pthread_create(&t1, NULL, side_main, &ping))
		return -EAGAIN;
	pthread_join(t1, NULL);
	close(a[1]);	/* pong sees EOF if ping stopped early */
	pthread_join(t2, NULL);
	pthread_barrier_destroy(&ready);
	close(a[0]);
	close(b[0]);
	close(b[1]);
	pp->ping_tid = ping.tid;
	pp->pong_tid = pong.tid;
	err = ping.err ? ping.err : pong.err;
	return err;
}
