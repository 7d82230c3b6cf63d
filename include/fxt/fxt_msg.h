/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Framed messages on the manager's SOCK_SEQPACKET socket (the framing of
 * <fxt/provider_abi.h>), with at most one file descriptor passed by
 * SCM_RIGHTS. The one implementation of the protocol's framing, beside
 * this header (fxt_msg.c), built into libfxt-provider, fxtraced, tracectl
 * and the tests.
 */
#ifndef FXT_MSG_H
#define FXT_MSG_H

#include <stddef.h>
#include <sys/types.h>

#include <fxt/provider_abi.h>

/* The largest message either side sends (struct fxt_ctl_start). */
#define FXT_MSG_MAX 8192

/* Room for any one message received, aligned for its header. */
union fxt_msg_room {
	struct fxt_msg_header hdr;
	char buf[FXT_MSG_MAX];
};

void fxt_msg_init(void *msg, unsigned int type, size_t len);

/*
 * Sends one message, and fd unless it is negative. 0 or -errno. Blocks
 * only if sock is a blocking socket.
 */
int fxt_msg_send(int sock, const void *msg, size_t len, int fd);

/*
 * Receives one message into buf. Returns its length (>= the header),
 * 0 at end of stream, or -errno: -EAGAIN (nothing yet, non-blocking
 * socket), -EBADMSG (bad framing: magic, length, any control message but
 * one SCM_RIGHTS with one descriptor), -EPROTONOSUPPORT (version),
 * -EMSGSIZE (truncated), -EXFULL (descriptors truncated). A received
 * descriptor goes to *fd if fd is given, else it is closed; *fd is -1
 * when none came.
 */
ssize_t fxt_msg_recv(int sock, void *buf, size_t cap, int *fd);

/*
 * Connects a SOCK_SEQPACKET socket to path; returns the fd or -errno.
 * sock_flags: more socket() type flags (SOCK_NONBLOCK), or 0.
 */
int fxt_msg_connect_flags(const char *path, int sock_flags);

static inline int fxt_msg_connect(const char *path)
{
	return fxt_msg_connect_flags(path, 0);
}

/* $FXTRACE_SOCKET (ignored in set-id programs), else FXT_MANAGER_SOCKET. */
const char *fxt_msg_socket_path(void);

#endif /* FXT_MSG_H */
