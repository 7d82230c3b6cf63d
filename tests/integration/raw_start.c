// SPDX-License-Identifier: GPL-2.0-only
/*
 * A controller that sends the manager what the test asks for, to check
 * what the manager itself accepts:
 *   raw-start none|rdonly|rdwr PATH
 *     a start request with no descriptor, or PATH opened so (a FIFO
 *     opened O_RDWR does not block);
 *   raw-start short|unknown|longstop|shortwait PATH
 *     a malformed request: a start request cut short, a request type
 *     that does not exist, a stop request with a body, a wait for
 *     providers that joined without its body;
 *   raw-start wait PATH
 *     a wait for the providers of this process to join (PATH unused);
 *   raw-start triggers DIR
 *     arms the trigger "jank" of the running trace with DIR, opened
 *     without any of tracectl's checks.
 * Prints the result's error and message, and after a malformed request
 * "closed" or "open": whether the manager closed the connection after
 * it. Exit 0 when a result came.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "control_proto.h"
#include <fxt/fxt_msg.h>

/* The manager closes within this; a ceiling that only catches a hang. */
#define CLOSE_WAIT_MS 30000

static size_t malformed(const char *how, struct fxt_ctl_start *req)
{
	if (!strcmp(how, "short")) {
		fxt_msg_init(req, FXT_MSG_CTL_START, 64);
		return 64;
	}
	if (!strcmp(how, "unknown")) {
		fxt_msg_init(req, FXT_MSG_CTL_BASE + 9, sizeof(req->hdr));
		return sizeof(req->hdr);
	}
	if (!strcmp(how, "longstop")) {
		fxt_msg_init(req, FXT_MSG_CTL_STOP, 64);
		return 64;
	}
	if (!strcmp(how, "shortwait")) {
		fxt_msg_init(req, FXT_MSG_CTL_WAIT_JOINED, sizeof(req->hdr));
		return sizeof(req->hdr);
	}
	return 0;
}

/* A triggers request for "jank" in dir, into t; its length, 0: failed. */
static size_t arm_jank(const char *dir, struct fxt_ctl_triggers *t, int *fd)
{
	*fd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		perror(dir);
		return 0;
	}
	memset(t, 0, sizeof(*t));
	fxt_msg_init(t, FXT_MSG_CTL_TRIGGERS, sizeof(*t));
	t->count = 1;
	strcpy(t->names[0], "jank");
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	return sizeof(*t);
}

int main(int argc, char **argv)
{
	union {
		struct fxt_msg_header hdr;
		struct fxt_ctl_result result;
		char buf[FXT_MSG_MAX];
	} msg;
	struct fxt_ctl_start req = { 0 };
	struct fxt_ctl_triggers triggers;
	const void *out = &req;
	struct pollfd pfd;
	bool bad;
	size_t len;
	int sock, fd = -1;
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: raw-start none|rdonly|rdwr|short|unknown|longstop|shortwait|wait|triggers PATH\n");
		return 2;
	}
	len = malformed(argv[1], &req);
	bad = len > 0;
	if (!strcmp(argv[1], "wait")) {
		struct fxt_ctl_wait_joined *w = (struct fxt_ctl_wait_joined *)&req;

		fxt_msg_init(w, FXT_MSG_CTL_WAIT_JOINED, sizeof(*w));
		w->pid = (__u32)getpid();
		w->timeout_ms = 100;
		len = sizeof(*w);
	} else if (!strcmp(argv[1], "triggers")) {
		len = arm_jank(argv[2], &triggers, &fd);
		if (!len)
			return 1;
		out = &triggers;
	} else if (!bad) {
		if (strcmp(argv[1], "none")) {
			fd = open(argv[2], strcmp(argv[1], "rdonly") ? O_RDWR :
							       O_RDONLY);
			if (fd < 0) {
				perror(argv[2]);
				return 1;
			}
		}
		fxt_msg_init(&req, FXT_MSG_CTL_START, sizeof(req));
		req.kernel = FXT_CTL_KERNEL_OFF;
		snprintf(req.output, sizeof(req.output), "%s", argv[2]);
		len = sizeof(req);
	}
	sock = fxt_msg_connect(fxt_msg_socket_path());
	if (sock < 0 || fxt_msg_send(sock, out, len, fd) < 0) {
		fprintf(stderr, "raw-start: cannot reach the manager\n");
		return 1;
	}
	do
		n = fxt_msg_recv(sock, msg.buf, sizeof(msg.buf), NULL);
	while (n > 0 && msg.hdr.type != FXT_MSG_CTL_RESULT);
	if (n != sizeof(msg.result)) {
		fprintf(stderr, "raw-start: no result\n");
		return 1;
	}
	msg.result.message[FXT_CTL_MESSAGE_MAX - 1] = '\0';
	printf("error %d: %s\n", msg.result.error, msg.result.message);
	if (!bad)
		return 0;
	pfd = (struct pollfd){ .fd = sock, .events = POLLIN };
	n = poll(&pfd, 1, CLOSE_WAIT_MS) == 1 ?
		    fxt_msg_recv(sock, msg.buf, sizeof(msg.buf), NULL) : -1;
	printf("%s\n", n == 0 ? "closed" : "open");
	return 0;
}
