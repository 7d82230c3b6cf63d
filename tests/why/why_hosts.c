// SPDX-License-Identifier: GPL-2.0-only
/*
 * why-hosts: a request answered on another "host" (another manager, in
 * a time namespace of its own), linked by a flow, for tracectl why on
 * the merged archive.
 *
 *   why-hosts server REQ_FIFO REPLY_FIFO N
 *       reads a request id, runs slice "handle" (category "app") with the
 *       request's flow ending in it, spins HANDLE_MS, replies; N times
 *       after one untraced warm-up. Prints server_tid= then a line per
 *       request: handle=I wall_ns=
 *   why-hosts client REQ_FIFO REPLY_FIFO N
 *       runs slice "request" with a flow begun in it, sends the id and
 *       waits for the reply; prints client_tid= then request=I wall_ns=
 * Each wall time is taken inside its slice.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>

#define HANDLE_MS 30
#define FLOW_BASE 0x5100

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin(unsigned int ms)
{
	uint64_t start = now_ns(), x = sink;

	while (now_ns() - start < ms * 1000000ull)
		for (int i = 0; i < 1000; i++)
			x = x * 6364136223846793005ull + 1;
	sink = x;
}

static void xfer(int fd, uint64_t *id, int out)
{
	ssize_t n = out ? write(fd, id, sizeof(*id)) : read(fd, id, sizeof(*id));

	if (n != (ssize_t)sizeof(*id)) {
		perror("why-hosts");
		exit(1);
	}
}

static void server(int req, int reply, int n)
{
	uint64_t id, start;
	int i;

	printf("server_tid=%d\n", gettid());
	for (i = -1; i < n; i++) {
		xfer(req, &id, 0);
		if (i < 0) {
			xfer(reply, &id, 1);
			continue;
		}
		TRACE_DURATION_BEGIN("app", "handle");
		TRACE_FLOW_END("app", "request", id);
		start = now_ns();
		spin(HANDLE_MS);
		printf("handle=%d wall_ns=%llu\n", i,
		       (unsigned long long)(now_ns() - start));
		TRACE_DURATION_END("app", "handle");
		xfer(reply, &id, 1);
	}
}

static void client(int req, int reply, int n)
{
	uint64_t id, start;
	int i;

	printf("client_tid=%d\n", gettid());
	for (i = -1; i < n; i++) {
		id = FLOW_BASE + (uint64_t)(i + 1);
		if (i < 0) {
			xfer(req, &id, 1);
			xfer(reply, &id, 0);
			continue;
		}
		TRACE_DURATION_BEGIN("app", "request");
		start = now_ns();
		TRACE_FLOW_BEGIN("app", "request", id);
		xfer(req, &id, 1);
		xfer(reply, &id, 0);
		printf("request=%d wall_ns=%llu\n", i,
		       (unsigned long long)(now_ns() - start));
		TRACE_DURATION_END("app", "request");
		usleep(10000);
	}
}

int main(int argc, char **argv)
{
	int srv, req, reply, n;

	if (argc != 5 || (strcmp(argv[1], "server") && strcmp(argv[1], "client"))) {
		fprintf(stderr, "usage: why-hosts server|client REQ_FIFO REPLY_FIFO N\n");
		return 2;
	}
	srv = !strcmp(argv[1], "server");
	n = atoi(argv[4]);
	fxt_provider_init(srv ? "why-server" : "why-client");
	/* Opened in the same order on both sides: no deadlock. */
	req = open(argv[2], srv ? O_RDONLY : O_WRONLY);
	reply = open(argv[3], srv ? O_WRONLY : O_RDONLY);
	if (req < 0 || reply < 0) {
		perror("why-hosts: open");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (srv)
		server(req, reply, n);
	else
		client(req, reply, n);
	return 0;
}
