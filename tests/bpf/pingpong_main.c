// SPDX-License-Identifier: GPL-2.0-only
/*
 * pingpong ROUNDS [CPU]: runs the named-thread ping-pong and prints
 * "ping=TID pong=TID pid=PID" for the archive check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pingpong.h"

int main(int argc, char **argv)
{
	struct pingpong pp = {
		.rounds = argc > 1 ? atol(argv[1]) : 2000,
		.cpu = argc > 2 ? atoi(argv[2]) : 0,
	};
	int err;

	if (pp.rounds <= 0) {
		fprintf(stderr, "usage: %s ROUNDS [CPU]\n", argv[0]);
		return 2;
	}
	err = pingpong_run(&pp);
	if (err) {
		fprintf(stderr, "ping-pong: %s\n", strerror(-err));
		return 1;
	}
	printf("ping=%d pong=%d pid=%d\n", pp.ping_tid, pp.pong_tid, getpid());
	return 0;
}
