/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracectl's side of fxtraced's socket (control_proto.h): connect, send
 * one request (with a descriptor to pass), read its reply (the provider
 * and trigger descriptions, then the result), and say on stderr what went
 * wrong and what to do about it, each line starting "tracectl CMD:".
 */
#ifndef FXT_TRACECTL_CONTROL_CLIENT_H
#define FXT_TRACECTL_CONTROL_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "control_proto.h"

struct control_reply {
	struct fxt_ctl_provider *providers;
	size_t nproviders;
	struct fxt_ctl_trigger *triggers;	/* status */
	size_t ntriggers;
	struct fxt_ctl_result result;
};

/*
 * A connection to fxtraced, or -1 after saying why not and what to do
 * (sudo or the group, or how to start fxtraced).
 */
int control_connect(const char *cmd);
/*
 * Reads a reply on fd into rep (zeroed by the caller; its arrays are the
 * caller's to free): 0 or -errno.
 */
int control_read_reply(int fd, struct control_reply *rep);
/*
 * Sends a request (with pass_fd unless < 0) and waits for its reply;
 * timeout_ns (0: none) bounds the wait, saying it waits meanwhile.
 * 0, or -errno after saying why.
 */
int control_exchange_until(const char *cmd, const void *msg, size_t len,
			   int pass_fd, struct control_reply *rep,
			   uint64_t timeout_ns);
int control_exchange(const char *cmd, const void *msg, size_t len,
		     int pass_fd, struct control_reply *rep);
/* Prints why a request failed; 0, or 1 after printing why. */
int control_report(const char *cmd, const struct control_reply *rep);
/* control_exchange() without a descriptor, then control_report(). */
int control_request(const char *cmd, const void *msg, size_t len,
		    struct control_reply *rep);

#endif /* FXT_TRACECTL_CONTROL_CLIENT_H */
