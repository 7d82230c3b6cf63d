/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A controller (tracectl) connection: start, stop, status. Checked on the
 * peer's credentials: root, --allow-uid or group "tracing".
 */
#ifndef FXT_CONTROLLER_H
#define FXT_CONTROLLER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <systemd/sd-event.h>

#include "list.h"

struct manager;
struct ucred;

struct controller_out;

/* What a controller tells the manager that owns it (manager.c sets these). */
struct controller_events {
	/* One went away: the manager may have nothing left to wait for. */
	void (*gone)(struct manager *m);
	/* What was queued for one went out, or it went: an exit may wait. */
	void (*flushed)(struct manager *m);
};

struct controller {
	struct manager *manager;
	LIST_FIELDS(struct controller);
	int fd;
	sd_event_source *io;
	/* What its socket did not take yet; no request is read meanwhile. */
	struct controller_out *out_head, **out_tail;
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool allowed;
	bool closing;		/* closed once its last reply is sent */
	/* FXT_MSG_CTL_WAIT_JOINED not answered yet: for this process. */
	pid_t wait_pid;
	sd_event_source *wait_timer;
};

/* Takes fd, also on failure; cred: SO_PEERCRED, read once at accept. */
int controller_new(struct manager *m, int fd, const struct ucred *cred);
struct controller *controller_free(struct controller *c);
/* Sends or queues one message: 0, or -errno if the controller is gone. */
int controller_send(struct controller *c, const void *msg, size_t len);
int controller_send_result(struct controller *c, int error,
			   const char *message);
int controller_send_providers(struct controller *c);
/* A provider acknowledged START: answer the controllers waiting for it. */
void controllers_provider_joined(struct manager *m);

#endif /* FXT_CONTROLLER_H */
