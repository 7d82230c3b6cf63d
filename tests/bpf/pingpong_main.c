// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong ROUNDS [CPU]: runs the named-thread ping-pong and prints
 * "ping=TID pong=TID pid=PID" for the archive check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pingpong.h"

int main(int argc, char **argv)
{
	struct pingpong pp;
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	int cpu = argc > 2 ? atoi(argv[2]) : 0;

	if (rounds <= 0) {
		fprintf(stderr, "usage: %s ROUNDS [CPU]\n", argv[0]);
		return 2;
	}
	if (pingpong_run(&pp, rounds, cpu)) {
		perror("ping-pong");
		return 1;
	}
	printf("ping=%d pong=%d pid=%d\n", pp.tid[0], pp.tid[1], getpid());
	return 0;
}
