// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pingpong.h"

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set);
}

static void *ping(void *arg)
{
	struct pingpong *pp = arg;
	char c = 'x';
	long i;

	prctl(PR_SET_NAME, "fxt-ping");
	pin(pp->cpu);
	pp->tid[0] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&pp->ready);
	for (i = 0; i < pp->rounds; i++) {
		if (write(pp->to_pong[1], &c, 1) != 1 ||
		    read(pp->to_ping[0], &c, 1) != 1)
			break;
	}
	return NULL;
}

static void *pong(void *arg)
{
	struct pingpong *pp = arg;
	char c;
	long i;

	prctl(PR_SET_NAME, "fxt-pong");
	pin(pp->cpu);
	pp->tid[1] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&pp->ready);
	for (i = 0; i < pp->rounds; i++) {
		if (read(pp->to_pong[0], &c, 1) != 1 ||
		    write(pp->to_ping[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

int pingpong_run(struct pingpong *pp, long rounds, int cpu)
{
	int err = 0;

	memset(pp, 0, sizeof(*pp));
	pp->rounds = rounds;
	pp->cpu = cpu;
	if (pipe(pp->to_pong) || pipe(pp->to_ping))
		return -errno;
	pthread_barrier_init(&pp->ready, NULL, 2);
	if (pthread_create(&pp->thread[1], NULL, pong, pp) ||
	    pthread_create(&pp->thread[0], NULL, ping, pp))
		err = -EAGAIN;
	else {
		pthread_join(pp->thread[0], NULL);
		pthread_join(pp->thread[1], NULL);
	}
	pthread_barrier_destroy(&pp->ready);
	close(pp->to_pong[0]);
	close(pp->to_pong[1]);
	close(pp->to_ping[0]);
	close(pp->to_ping[1]);
	return err;
}
