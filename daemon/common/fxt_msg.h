/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Framed messages on the manager's SOCK_SEQPACKET socket, with at most one
 * file descriptor passed by SCM_RIGHTS. Used by fxtraced, tracectl and the
 * tests' protocol-level provider.
 */
#ifndef FXT_COMMON_MSG_H
#define FXT_COMMON_MSG_H

#include <stddef.h>
#include <sys/types.h>

#include <fxt/provider_abi.h>

/* The largest message either side sends (struct fxt_ctl_start). */
#define FXT_MSG_MAX 8192

void fxt_msg_init(void *msg, unsigned int type, size_t len);

/* Sends one message, and fd unless it is negative. 0 or -errno. */
int fxt_msg_send(int sock, const void *msg, size_t len, int fd);

/*
 * Receives one message into buf. Returns its length (>= the header),
 * 0 at end of stream, or -errno: -EAGAIN (nothing yet, non-blocking socket), -EBADMSG (bad
 * framing: magic, length), -EPROTONOSUPPORT (version), -EMSGSIZE,
 * -EXFULL (descriptors truncated). A received descriptor goes to *fd if
 * fd is given, else it is closed; *fd is -1 when none came.
 */
ssize_t fxt_msg_recv(int sock, void *buf, size_t cap, int *fd);

/* Connects a SOCK_SEQPACKET socket to path; returns the fd or -errno. */
int fxt_msg_connect(const char *path);

/* $FXTRACE_SOCKET, else the default path. */
const char *fxt_msg_socket_path(void);

#endif /* FXT_COMMON_MSG_H */
