// SPDX-License-Identifier: GPL-2.0-only
/* Requests to fxtraced and their replies: see control_client.h. */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fxt/fxt_msg.h>

#include "cleanup.h"
#include "control_client.h"
#include "manager_hint.h"

int control_connect(const char *cmd)
{
	const char *path = fxt_msg_socket_path();
	int fd = fxt_msg_connect(path);

	if (fd >= 0)
		return fd;
	if (fd == -EACCES)
		fprintf(stderr, "tracectl %s: cannot connect to %s: %s\n"
			"run with sudo or add yourself to group '%s'\n",
			cmd, path, strerror(-fd), FXT_CTL_GROUP);
	else {
		fprintf(stderr, "tracectl %s: cannot reach fxtraced at %s: %s\n",
			cmd, path, strerror(-fd));
		manager_hint_unreachable(stderr, path);
	}
	return -1;
}

static ssize_t recv_blocking(int fd, void *buf, size_t cap)
{
	ssize_t n;

	do
		n = fxt_msg_recv(fd, buf, cap, NULL);
	while (n == -EAGAIN || n == -EINTR);
	return n;
}

/*
 * When a wait for the archive (tracectl stop) says that it waits: a
 * frozen or dead-slow disk holds the manager's writer.
 */
#define STOP_PATIENCE_MS 10000

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Until fd has a message, at most until deadline (ms of CLOCK_MONOTONIC;
 * 0: none): -ETIMEDOUT after saying, once, that it waits.
 */
static int wait_readable(int fd, const char *cmd, int64_t started,
			 int64_t deadline, bool *said)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t now = now_ms(), wait = 1000;
		int n;

		if (deadline && now >= deadline)
			return -ETIMEDOUT;
		if (deadline && deadline - now < wait)
			wait = deadline - now;
		n = poll(&p, 1, (int)wait);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (!*said && now_ms() - started >= STOP_PATIENCE_MS) {
			fprintf(stderr, "tracectl %s: fxtraced is still writing the archive (a slow or frozen file system?); waiting%s\n",
				cmd, deadline ? " (--timeout)" : "");
			*said = true;
		}
	}
}

/*
 * The array at items (of *n, each size bytes) grown by a copy of item:
 * 0, or -ENOMEM with the array kept.
 */
static int append(void *items, size_t *n, const void *item, size_t size)
{
	void **array = items;
	char *grown = realloc(*array, (*n + 1) * size);

	if (!grown)
		return -ENOMEM;
	memcpy(grown + *n * size, item, size);
	*array = grown;
	++*n;
	return 0;
}

/* Reads provider descriptions up to the result; 0 or -errno. */
static int read_reply_until(int fd, struct control_reply *rep,
			    const char *cmd, uint64_t timeout_ns)
{
	int64_t started = now_ms();
	int64_t deadline = timeout_ns ?
				   started + (int64_t)(timeout_ns / 1000000) : 0;
	bool said = false;

	union {
		struct fxt_msg_header hdr;
		struct fxt_ctl_provider provider;
		struct fxt_ctl_trigger trigger;
		struct fxt_ctl_result result;
		char buf[FXT_MSG_MAX];
	} msg;

	for (;;) {
		ssize_t n;
		int r = cmd ? wait_readable(fd, cmd, started, deadline, &said) : 0;

		if (r < 0)
			return r;
		n = recv_blocking(fd, msg.buf, sizeof(msg.buf));
		if (n <= 0)
			return n ? (int)n : -ECONNRESET;
		if (msg.hdr.type == FXT_MSG_CTL_RESULT &&
		    n == sizeof(msg.result)) {
			rep->result = msg.result;
			rep->result.message[FXT_CTL_MESSAGE_MAX - 1] = '\0';
			rep->result.output[FXT_CTL_PATH_MAX - 1] = '\0';
			rep->result.kernel[FXT_CTL_BACKEND_MAX - 1] = '\0';
			return 0;
		}
		if (msg.hdr.type == FXT_MSG_CTL_PROVIDER &&
		    n == sizeof(msg.provider)) {
			msg.provider.name[FXT_PROVIDER_NAME_MAX - 1] = '\0';
			r = append(&rep->providers, &rep->nproviders,
				   &msg.provider, sizeof(msg.provider));
		} else if (msg.hdr.type == FXT_MSG_CTL_TRIGGER &&
			   n == sizeof(msg.trigger)) {
			msg.trigger.name[FXT_TRIGGER_NAME_MAX - 1] = '\0';
			msg.trigger.file[FXT_CTL_NAME_MAX - 1] = '\0';
			r = append(&rep->triggers, &rep->ntriggers,
				   &msg.trigger, sizeof(msg.trigger));
		} else {
			return -EBADMSG;
		}
		if (r < 0)
			return r;
	}
}

int control_read_reply(int fd, struct control_reply *rep)
{
	return read_reply_until(fd, rep, NULL, 0);
}

int control_exchange_until(const char *cmd, const void *msg, size_t len,
			   int pass_fd, struct control_reply *rep,
			   uint64_t timeout_ns)
{
	_cleanup_close_ int fd = control_connect(cmd);
	int r;

	memset(rep, 0, sizeof(*rep));
	if (fd < 0)
		return -ENOTCONN;
	r = fxt_msg_send(fd, msg, len, pass_fd);
	if (r >= 0)
		r = timeout_ns ? read_reply_until(fd, rep, cmd, timeout_ns) :
				 control_read_reply(fd, rep);
	if (r == -ETIMEDOUT)
		fprintf(stderr, "tracectl %s: fxtraced has not finished writing the archive in time (a frozen or very slow file system?); the trace is stopped and the archive will be complete under its hidden name beside the output: run tracectl %s again to put it in place\n",
			cmd, cmd);
	else if (r < 0)
		fprintf(stderr, "tracectl %s: no answer from fxtraced: %s\n",
			cmd, strerror(-r));
	return r;
}

int control_exchange(const char *cmd, const void *msg, size_t len,
		     int pass_fd, struct control_reply *rep)
{
	return control_exchange_until(cmd, msg, len, pass_fd, rep, 0);
}

int control_report(const char *cmd, const struct control_reply *rep)
{
	if (rep->result.error) {
		fprintf(stderr, "tracectl %s: %s\n", cmd,
			rep->result.message[0] ? rep->result.message :
			strerror(-rep->result.error));
		return 1;
	}
	return 0;
}

int control_request(const char *cmd, const void *msg, size_t len,
		    struct control_reply *rep)
{
	if (control_exchange(cmd, msg, len, -1, rep) < 0)
		return 1;
	return control_report(cmd, rep);
}
