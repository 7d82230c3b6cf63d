// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The framing of the manager's socket, for both of its sides. Strict on
 * what it receives: a peer that sends anything but well-framed messages,
 * each with at most one descriptor, is a broken peer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fxt/fxt_msg.h>

void fxt_msg_init(void *msg, unsigned int type, size_t len)
{
	struct fxt_msg_header *h = msg;

	memset(msg, 0, len);
	h->magic = FXT_PROTO_MAGIC;
	h->version = FXT_PROTO_VERSION;
	h->type = (__u16)type;
	h->length = (__u32)len;
}

int fxt_msg_send(int sock, const void *msg, size_t len, int fd)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&control, 0, sizeof(control));
		mh.msg_control = control.buf;
		mh.msg_controllen = sizeof(control.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EMSGSIZE;
}

static void close_all_fds(struct msghdr *mh)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t n, i;
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			close(fd);
		}
	}
}

/* Exactly one SCM_RIGHTS with exactly one fd, or none at all. */
static int take_fd(struct msghdr *mh, int *fd)
{
	struct cmsghdr *c = CMSG_FIRSTHDR(mh);

	*fd = -1;
	if (!c)
		return 0;
	if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(sizeof(int)) || CMSG_NXTHDR(mh, c)) {
		close_all_fds(mh);
		return -EBADMSG;
	}
	memcpy(fd, CMSG_DATA(c), sizeof(int));
	return 0;
}

static int check_header(const void *buf, size_t n)
{
	const struct fxt_msg_header *h = buf;

	if (n < sizeof(*h) || h->magic != FXT_PROTO_MAGIC)
		return -EBADMSG;
	if (h->version != FXT_PROTO_VERSION)
		return -EPROTONOSUPPORT;
	if (h->length != n)
		return -EBADMSG;
	return 0;
}

ssize_t fxt_msg_recv(int sock, void *buf, size_t cap, int *fd)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = cap };
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	int received = -1, r;
	ssize_t n;

	if (fd)
		*fd = -1;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (mh.msg_flags & MSG_CTRUNC) {
		close_all_fds(&mh);
		return -EXFULL;
	}
	r = take_fd(&mh, &received);
	if (r < 0)
		return r;
	if (n == 0 && received < 0)
		return 0;
	r = (mh.msg_flags & MSG_TRUNC) ? -EMSGSIZE : check_header(buf, n);
	if (r < 0 || !fd) {
		if (received >= 0)
			close(received);
		return r < 0 ? r : n;
	}
	*fd = received;
	return n;
}

int fxt_msg_connect_flags(const char *path, int sock_flags)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sock, r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | sock_flags, 0);
	if (sock < 0)
		return -errno;
	if (connect(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		close(sock);
		return r;
	}
	return sock;
}

const char *fxt_msg_socket_path(void)
{
	const char *p = secure_getenv(FXT_SOCKET_ENV);

	return p && *p ? p : FXT_MANAGER_SOCKET;
}
