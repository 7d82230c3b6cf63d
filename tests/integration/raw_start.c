// SPDX-License-Identifier: GPL-2.0-only
/*
 * A controller that passes the manager whatever descriptor the test asks
 * for with a start request, to check what the manager itself accepts:
 *   raw-start none|rdonly|rdwr PATH
 * none passes nothing, rdonly/rdwr open PATH so (a FIFO opened O_RDWR
 * does not block). Prints the result's error and message; exit 0 when a
 * result came.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "control_proto.h"
#include <fxt/fxt_msg.h>

int main(int argc, char **argv)
{
	union {
		struct fxt_msg_header hdr;
		struct fxt_ctl_result result;
		char buf[FXT_MSG_MAX];
	} msg;
	struct fxt_ctl_start req;
	int sock, fd = -1;
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: raw-start none|rdonly|rdwr PATH\n");
		return 2;
	}
	if (strcmp(argv[1], "none")) {
		fd = open(argv[2], strcmp(argv[1], "rdonly") ? O_RDWR : O_RDONLY);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
	}
	fxt_msg_init(&req, FXT_MSG_CTL_START, sizeof(req));
	req.kernel = FXT_CTL_KERNEL_OFF;
	snprintf(req.output, sizeof(req.output), "%s", argv[2]);
	sock = fxt_msg_connect(fxt_msg_socket_path());
	if (sock < 0 || fxt_msg_send(sock, &req, sizeof(req), fd) < 0) {
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
	return 0;
}
