// SPDX-License-Identifier: GPL-2.0-only
/*
 * Many connections to the manager from one user, as a flood would open
 * them.
 *
 *   conn-flood status N   N connections, each asking STATUS: prints how
 *                         many were answered and how many the manager
 *                         closed unanswered (over its per-user limit).
 *   conn-flood hold N MS  up to N connections that never speak, held MS
 *                         milliseconds (to run the manager out of
 *                         descriptors).
 *   conn-flood mute N BYTES MS
 *                         N connections that send BYTES bytes (0: none,
 *                         at most 8) and then nothing, held until the
 *                         manager closes them or MS milliseconds pass:
 *                         prints how many it closed.
 *   conn-flood garbage N  N connections one after another, each sending
 *                         bytes that are no message (until closed).
 *   conn-flood timed GAP_MS
 *                         STATUS requests one after another, GAP_MS
 *                         milliseconds apart, until killed: each
 *                         request's round trip (connect to RESULT) in
 *                         microseconds, a line each as it comes.
 *   conn-flood hello N    N providers that say HELLO, take no buffer
 *                         (no STARTED), acknowledge STOP; runs until
 *                         killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "control_proto.h"
#include <fxt/fxt_msg.h>

static void die(const char *what, int err)
{
	fprintf(stderr, "conn-flood: %s: %s\n", what, strerror(err));
	exit(1);
}

/* 1: a RESULT came; 0: closed without one. */
static int answered(int sock)
{
	union {
		struct fxt_msg_header hdr;
		char buf[FXT_MSG_MAX];
	} m;
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	ssize_t n;

	for (;;) {
		if (poll(&pfd, 1, 60000) <= 0)
			die("no answer and no close in 60 s", ETIMEDOUT);
		n = fxt_msg_recv(sock, m.buf, sizeof(m.buf), NULL);
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n == 0 || n == -ECONNRESET)
			return 0;
		if (n < 0)
			die("receive", (int)-n);
		if (m.hdr.type == FXT_MSG_CTL_RESULT)
			return 1;
	}
}

static int flood_status(unsigned int n)
{
	struct fxt_msg_header req;
	unsigned int i, yes = 0;
	int *socks = calloc(n, sizeof(int));

	if (!socks)
		die("calloc", ENOMEM);
	fxt_msg_init(&req, FXT_MSG_CTL_STATUS, sizeof(req));
	for (i = 0; i < n; i++) {
		socks[i] = fxt_msg_connect(fxt_msg_socket_path());
		if (socks[i] < 0)
			die("connect", -socks[i]);
		/* A refused connection may be closed already: EPIPE. */
		(void)fxt_msg_send(socks[i], &req, sizeof(req), -1);
	}
	for (i = 0; i < n; i++) {
		yes += answered(socks[i]);
		close(socks[i]);
	}
	free(socks);
	printf("answered %u closed %u\n", yes, n - yes);
	return 0;
}

static int flood_hold(unsigned int n, long ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	unsigned int i;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", fxt_msg_socket_path());
	for (i = 0; i < n; i++) {
		int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0);

		if (s < 0)
			die("socket", errno);
		if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			if (errno == EAGAIN)
				break;	/* the backlog is full */
			die("connect", errno);
		}
	}
	printf("holding %u\n", i);
	fflush(stdout);
	nanosleep(&ts, NULL);
	return 0;
}

static void answer(int sock)
{
	union {
		struct fxt_msg_header hdr;
		char buf[FXT_MSG_MAX];
	} m;
	struct fxt_msg_header stopped;
	ssize_t n = fxt_msg_recv(sock, m.buf, sizeof(m.buf), NULL);

	if (n == 0 || (n < 0 && n != -EAGAIN && n != -EINTR))
		die("the manager dropped a provider", n ? (int)-n : EPIPE);
	if (n > 0 && m.hdr.type == FXT_MSG_STOP) {
		fxt_msg_init(&stopped, FXT_MSG_PROVIDER_STOPPED,
			     sizeof(stopped));
		(void)fxt_msg_send(sock, &stopped, sizeof(stopped), -1);
	}
}

static int flood_hello(unsigned int n)
{
	struct fxt_msg_provider_hello hello;
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	unsigned int i;

	if (!pfd)
		die("calloc", ENOMEM);
	fxt_msg_init(&hello, FXT_MSG_PROVIDER_HELLO, sizeof(hello));
	hello.pid = (__u32)getpid();
	for (i = 0; i < n; i++) {
		int s = fxt_msg_connect(fxt_msg_socket_path());

		if (s < 0)
			die("connect", -s);
		snprintf(hello.name, sizeof(hello.name), "mute%u", i);
		if (fxt_msg_send(s, &hello, sizeof(hello), -1) < 0)
			die("send HELLO", errno);
		pfd[i] = (struct pollfd){ .fd = s, .events = POLLIN };
	}
	printf("connected %u\n", n);
	fflush(stdout);
	for (;;) {
		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			die("poll", errno);
		for (i = 0; i < n; i++)
			if (pfd[i].revents)
				answer(pfd[i].fd);
	}
	return 0;
}

/* Whether the manager closed sock: end of file or an error, no data. */
static int closed(int sock)
{
	char buf[64];
	ssize_t n = recv(sock, buf, sizeof(buf), MSG_DONTWAIT);

	return n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
}

static int flood_mute(unsigned int n, unsigned int bytes, long ms)
{
	struct pollfd *pfd = calloc(n, sizeof(*pfd));
	struct timespec start, now;
	unsigned int i, gone = 0;

	if (!pfd || bytes > 8)
		die("mute", pfd ? EINVAL : ENOMEM);
	for (i = 0; i < n; i++) {
		int s = fxt_msg_connect(fxt_msg_socket_path());

		if (s < 0)
			die("connect", -s);
		if (bytes && send(s, "\x01\x02\x03\x04\x05\x06\x07\x08", bytes,
				  MSG_NOSIGNAL) < 0 && errno != EPIPE &&
		    errno != ECONNRESET)
			die("send", errno);
		pfd[i] = (struct pollfd){ .fd = s, .events = POLLIN };
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (gone < n) {
		long left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - (now.tv_sec - start.tv_sec) * 1000 -
		       (now.tv_nsec - start.tv_nsec) / 1000000;
		if (left <= 0 || (poll(pfd, n, (int)left) < 0 && errno != EINTR))
			break;
		for (i = 0; i < n; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents ||
			    !closed(pfd[i].fd))
				continue;
			close(pfd[i].fd);
			pfd[i].fd = -1;
			gone++;
		}
	}
	printf("closed %u of %u\n", gone, n);
	for (i = 0; i < n; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	free(pfd);
	return 0;
}

/* N connections one after another, each sending bytes that are no message. */
static int flood_garbage(unsigned int n)
{
	static const char junk[32] = "GET / HTTP/1.0\r\n\r\n";
	char buf[64];
	unsigned int i;

	for (i = 0; i < n; i++) {
		int sock = fxt_msg_connect(fxt_msg_socket_path());

		if (sock < 0)
			die("connect", -sock);
		if (send(sock, junk, sizeof(junk), MSG_NOSIGNAL) < 0)
			die("send", errno);
		/* Until the manager closes it: one connection at a time. */
		while (recv(sock, buf, sizeof(buf), 0) > 0)
			;
		close(sock);
	}
	printf("sent %u\n", n);
	return 0;
}

/*
 * The manager's answer time alone, without a tracectl process's start:
 * STATUS after STATUS until killed, each round trip printed at once.
 */
static int flood_timed(long gap_ms)
{
	struct timespec gap = { gap_ms / 1000, (gap_ms % 1000) * 1000000 };
	struct fxt_msg_header req;
	struct timespec t0, t1;
	int sock;

	fxt_msg_init(&req, FXT_MSG_CTL_STATUS, sizeof(req));
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		sock = fxt_msg_connect(fxt_msg_socket_path());
		if (sock < 0)
			die("connect", -sock);
		if (fxt_msg_send(sock, &req, sizeof(req), -1) < 0)
			die("send STATUS", errno);
		if (!answered(sock))
			die("STATUS closed unanswered", ECONNRESET);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		close(sock);
		printf("%ld\n", (long)((t1.tv_sec - t0.tv_sec) * 1000000 +
				       (t1.tv_nsec - t0.tv_nsec) / 1000));
		fflush(stdout);
		nanosleep(&gap, NULL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "status"))
		return flood_status((unsigned int)strtoul(argv[2], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return flood_hold((unsigned int)strtoul(argv[2], NULL, 10),
				  strtol(argv[3], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "timed"))
		return flood_timed(strtol(argv[2], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "hello"))
		return flood_hello((unsigned int)strtoul(argv[2], NULL, 10));
	if (argc == 5 && !strcmp(argv[1], "mute"))
		return flood_mute((unsigned int)strtoul(argv[2], NULL, 10),
				  (unsigned int)strtoul(argv[3], NULL, 10),
				  strtol(argv[4], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "garbage"))
		return flood_garbage((unsigned int)strtoul(argv[2], NULL, 10));
	fprintf(stderr, "usage: conn-flood status N | hold N MS | timed GAP_MS | hello N | mute N BYTES MS | garbage N\n");
	return 2;
}
