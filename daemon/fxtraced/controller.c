// SPDX-License-Identifier: GPL-2.0-only
/*
 * A controller (tracectl) connection. Controlling traces needs root, a
 * uid the administrator allowed with --allow-uid, or group "tracing",
 * checked on the peer's credentials, never on what it says.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "controller.h"
#include <fxt/fxt_msg.h>
#include "log.h"
#include "manager_state.h"
#include "provider.h"
#include "snapshot.h"
#include "trigger.h"
#include "trace.h"

#define PEER_GROUPS_MAX 256

static bool has_group(const gid_t *groups, size_t n, gid_t gid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/* The peer's supplementary groups as they were at connect(), never /proc. */
static bool in_tracing_group(int fd, gid_t primary)
{
	gid_t groups[PEER_GROUPS_MAX];
	_cleanup_free_ gid_t *many = NULL;
	socklen_t len = sizeof(groups);
	struct group *g = getgrnam(FXT_CTL_GROUP);

	if (!g)
		return false;
	if (primary == g->gr_gid)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) == 0)
		return has_group(groups, len / sizeof(gid_t), g->gr_gid);
	/* More groups than we guessed: len now says how many bytes. */
	if (errno != ERANGE || !(many = malloc(len)))
		return false;
	return getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, many, &len) == 0 &&
	       has_group(many, len / sizeof(gid_t), g->gr_gid);
}

static bool allowed(const struct manager *m, int fd, const struct ucred *cred)
{
	unsigned int i;

	if (cred->uid == 0)
		return true;
	for (i = 0; i < m->n_allow_uid; i++)
		if (m->allow_uid[i] == cred->uid)
			return true;
	return in_tracing_group(fd, cred->gid);
}

/*
 * A reply is one message per provider: more than the socket buffer holds
 * when many are connected. What does not fit waits here, sent as the
 * controller reads; until then its next request is not read, so the queue
 * never holds more than one reply.
 */
struct controller_out {
	struct controller_out *next;
	size_t len;
	char msg[];
};

static int queue(struct controller *c, const void *msg, size_t len)
{
	struct controller_out *o = malloc(sizeof(*o) + len);

	if (!o)
		return -ENOMEM;
	o->next = NULL;
	o->len = len;
	memcpy(o->msg, msg, len);
	if (!c->out_head)
		(void)sd_event_source_set_io_events(c->io, EPOLLOUT);
	*c->out_tail = o;
	c->out_tail = &o->next;
	return 0;
}

/* 0 when all is sent, -EAGAIN when the socket is full again, or -errno. */
static int flush_queue(struct controller *c)
{
	struct controller_out *o;
	int r;

	while ((o = c->out_head)) {
		r = fxt_msg_send(c->fd, o->msg, o->len, -1);
		if (r < 0)
			return r;
		c->out_head = o->next;
		free(o);
	}
	c->out_tail = &c->out_head;
	return sd_event_source_set_io_events(c->io, EPOLLIN);
}

int controller_send(struct controller *c, const void *msg, size_t len)
{
	int r;

	if (c->out_head)
		return queue(c, msg, len);
	r = fxt_msg_send(c->fd, msg, len, -1);
	return r == -EAGAIN ? queue(c, msg, len) : r;
}

/* What answers a controller from below it: the trace, snapshots, triggers. */
static int reply(void *ctx, const void *msg, size_t len)
{
	return controller_send(ctx, msg, len);
}

int controller_send_result(struct controller *c, int error,
			   const char *message)
{
	struct fxt_ctl_result res;

	trace_result(c->manager, error, message, &res);
	return controller_send(c, &res, sizeof(res));
}

int controller_send_providers(struct controller *c)
{
	struct fxt_ctl_provider d;
	struct provider *p;
	int r;

	for (p = c->manager->providers; p; p = p->next) {
		provider_describe(p, &d);
		r = controller_send(c, &d, sizeof(d));
		if (r < 0)
			return r;
	}
	return trace_send_kernel(c->manager, reply, c);
}

/*
 * A request that breaks the protocol: its one RESULT says so, then the
 * connection is closed (what follows it cannot be trusted to be framed).
 */
static int reject(struct controller *c, int error, const char *why)
{
	struct manager *m = c->manager;
	char message[FXT_CTL_MESSAGE_MAX];

	if (log_burst_take(&m->bad_requests, m->event))
		log_warning("Closing the connection of controller uid %u (pid %d): %s",
			    (unsigned int)c->uid, (int)c->pid, why);
	snprintf(message, sizeof(message),
		 "malformed request: %s; the connection is closed", why);
	c->closing = true;
	return controller_send_result(c, error, message);
}

static int reject_length(struct controller *c, const char *what, size_t len,
			 size_t expected)
{
	char why[128];

	snprintf(why, sizeof(why), "%s of %zu bytes, expected %zu", what, len,
		 expected);
	return reject(c, -EBADMSG, why);
}

static int handle_start(struct controller *c, const void *buf, size_t len,
			int archive_fd)
{
	_cleanup_close_ int fd = archive_fd;
	char note[FXT_CTL_MESSAGE_MAX];
	int r;

	if (len != sizeof(struct fxt_ctl_start))
		return reject_length(c, "a start request", len,
				     sizeof(struct fxt_ctl_start));
	r = trace_start(c->manager, buf, TAKE_FD(fd), c->uid, note,
			sizeof(note));
	if (r < 0)
		log_warning_errno(r, "Refused to start a trace for uid %u: %s",
				  (unsigned int)c->uid, note);
	return controller_send_result(c, r, note);
}

static int handle_snapshot(struct controller *c, const void *buf, size_t len,
			   int archive_fd)
{
	_cleanup_close_ int fd = archive_fd;
	char note[FXT_CTL_MESSAGE_MAX];
	int r;

	if (len != sizeof(struct fxt_ctl_snapshot))
		return reject_length(c, "a snapshot request", len,
				     sizeof(struct fxt_ctl_snapshot));
	r = snapshot_take(c->manager, reply, c, buf, TAKE_FD(fd), c->uid,
			  note, sizeof(note));
	if (r == 0)
		return 0;	/* the result comes when the archive is written */
	log_warning_errno(r, "Refused a snapshot for uid %u: %s",
			  (unsigned int)c->uid, note);
	return controller_send_result(c, r, note);
}

static int handle_triggers(struct controller *c, const void *buf, size_t len,
			   int dir_fd)
{
	_cleanup_close_ int fd = dir_fd;
	char note[FXT_CTL_MESSAGE_MAX];
	int r;

	if (len != sizeof(struct fxt_ctl_triggers))
		return reject_length(c, "a triggers request", len,
				     sizeof(struct fxt_ctl_triggers));
	r = triggers_arm(c->manager, buf, TAKE_FD(fd), c->uid, note,
			 sizeof(note));
	if (r < 0)
		log_warning_errno(r, "Refused to arm triggers for uid %u: %s",
				  (unsigned int)c->uid, note);
	return controller_send_result(c, r, note);
}

static int handle_stop(struct controller *c)
{
	struct manager *m = c->manager;
	char note[FXT_CTL_MESSAGE_MAX] = "";
	int r = trace_stop(m, reply, c, c->uid);

	if (r == 0)
		return 0;	/* the result comes when the archive is written */
	if (r == -ESRCH && trace_hand_last(m, c->uid, reply, c) == 0)
		return 0;
	if (r == -ESRCH && m->last_output[0])
		snprintf(note, sizeof(note),
			 "no trace is running (the last one was written to %.400s)",
			 m->last_output);
	else if (r == -ESRCH)
		snprintf(note, sizeof(note),
			 "no trace is running; start one with: tracectl start");
	else
		snprintf(note, sizeof(note), "the trace is already stopping");
	return controller_send_result(c, r, note);
}

/* The answer to a wait, if one of its providers has joined: true. */
static bool answer_wait_joined(struct controller *c)
{
	struct fxt_ctl_provider d;
	unsigned int joined = 0;
	struct provider *p;
	char note[FXT_CTL_MESSAGE_MAX];

	for (p = c->manager->providers; p; p = p->next) {
		if (!p->in_trace || !p->started ||
		    !provider_descends_from(p, c->wait_pid))
			continue;
		provider_describe(p, &d);
		if (controller_send(c, &d, sizeof(d)) < 0)
			return true;
		joined++;
	}
	if (!joined)
		return false;
	c->wait_pid = 0;
	c->wait_timer = sd_event_source_disable_unref(c->wait_timer);
	snprintf(note, sizeof(note), "%u provider(s) joined", joined);
	(void)controller_send_result(c, 0, note);
	return true;
}

static int on_wait_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct controller *c = userdata;
	char note[FXT_CTL_MESSAGE_MAX];

	snprintf(note, sizeof(note),
		 "no provider of process %d joined the trace in time",
		 (int)c->wait_pid);
	c->wait_pid = 0;
	c->wait_timer = sd_event_source_disable_unref(c->wait_timer);
	(void)controller_send_result(c, -ETIMEDOUT, note);
	return 0;
}

void controllers_provider_joined(struct manager *m)
{
	struct controller *c;

	for (c = m->controllers; c; c = c->next)
		if (c->wait_pid)
			(void)answer_wait_joined(c);
}

static int handle_wait_joined(struct controller *c, const void *buf,
			      size_t len)
{
	const struct fxt_ctl_wait_joined *w = buf;
	uint32_t ms;
	int r;

	if (len != sizeof(*w))
		return reject_length(c, "a wait request", len, sizeof(*w));
	if (!c->manager->trace)
		return controller_send_result(c, -ESRCH, "no trace is running");
	if (w->pid <= 1 || c->wait_pid)
		return controller_send_result(c, -EINVAL,
					      "a wait for one process at a time, not pid 0 or 1");
	c->wait_pid = (pid_t)w->pid;
	r = trace_mark_command(c->manager, c->wait_pid);
	if (r < 0)
		log_warning_errno(r, "Could not mark process %d as the command in the archive",
				  (int)c->wait_pid);
	if (answer_wait_joined(c))
		return 0;
	ms = w->timeout_ms < FXT_CTL_WAIT_JOINED_MAX_MS ?
		     w->timeout_ms : FXT_CTL_WAIT_JOINED_MAX_MS;
	r = sd_event_add_time_relative(c->manager->event, &c->wait_timer,
				       CLOCK_MONOTONIC, (uint64_t)ms * 1000,
				       0, on_wait_timeout, c);
	if (r < 0) {
		c->wait_pid = 0;
		return controller_send_result(c, r, "cannot wait");
	}
	return 0;
}

/* What to do, for the user by name: the uid means little to it. */
static int refuse(struct controller *c)
{
	char message[FXT_CTL_MESSAGE_MAX], uid[16];
	const struct passwd *pw = getpwuid(c->uid);

	snprintf(uid, sizeof(uid), "%u", (unsigned int)c->uid);
	snprintf(message, sizeof(message),
		 "controlling traces needs root or group '%s': run with sudo or add yourself to group '%s': sudo usermod -aG %s %s, then log in again",
		 FXT_CTL_GROUP, FXT_CTL_GROUP, FXT_CTL_GROUP,
		 pw ? pw->pw_name : uid);
	return controller_send_result(c, -EPERM, message);
}

/*
 * Start and snapshot requests come with the archive, triggers with the
 * snapshot directory: *archive_fd, taken here.
 */
static int handle_request(struct controller *c, const void *buf, size_t len,
			  int *archive_fd)
{
	const struct fxt_msg_header *h = buf;
	char why[64];

	if (!c->allowed)
		return refuse(c);
	if ((h->type == FXT_MSG_CTL_STOP || h->type == FXT_MSG_CTL_STATUS) &&
	    len != sizeof(*h))
		return reject_length(c, h->type == FXT_MSG_CTL_STOP ?
						"a stop request" : "a status request",
				     len, sizeof(*h));
	switch (h->type) {
	case FXT_MSG_CTL_START:
		return handle_start(c, buf, len, TAKE_FD(*archive_fd));
	case FXT_MSG_CTL_STOP:
		return handle_stop(c);
	case FXT_MSG_CTL_SNAPSHOT:
		return handle_snapshot(c, buf, len, TAKE_FD(*archive_fd));
	case FXT_MSG_CTL_TRIGGERS:
		return handle_triggers(c, buf, len, TAKE_FD(*archive_fd));
	case FXT_MSG_CTL_WAIT_JOINED:
		return handle_wait_joined(c, buf, len);
	case FXT_MSG_CTL_STATUS: {
		char note[FXT_CTL_MESSAGE_MAX];
		int r = controller_send_providers(c);

		if (r >= 0)
			r = triggers_send_status(c->manager, reply, c);

		trace_write_note(c->manager, note, sizeof(note));
		return r < 0 ? r : controller_send_result(c, 0, note);
	}
	default:
		snprintf(why, sizeof(why), "unknown request type %u",
			 (unsigned int)h->type);
		return reject(c, -EBADMSG, why);
	}
}

static int on_controller_io(sd_event_source *s, int fd, uint32_t revents,
			    void *userdata)
{
	struct controller *c = userdata;
	struct manager *m = c->manager;
	_cleanup_close_ int archive_fd = -1;
	union fxt_msg_room msg;
	ssize_t n;
	int r;

	if (c->out_head) {
		r = flush_queue(c);
		if ((r < 0 && r != -EAGAIN) || (r == 0 && c->closing)) {
			if (r < 0 && r != -EPIPE && r != -ECONNRESET)
				log_warning_errno(r, "Dropping controller of uid %u",
						  (unsigned int)c->uid);
			controller_free(c);
		}
		m->controller_events->flushed(m);
		return 0;
	}
	n = fxt_msg_recv(fd, msg.buf, sizeof(msg.buf), &archive_fd);
	if (n == -EAGAIN)
		return 0;
	if (n == -EBADMSG || n == -EPROTONOSUPPORT || n == -EMSGSIZE ||
	    n == -EXFULL) {
		(void)reject(c, (int)n, n == -EPROTONOSUPPORT ?
				"another protocol version" :
				n == -EXFULL ? "more than one descriptor" :
				"bad framing (magic, length or size)");
		if (!c->out_head)
			controller_free(c);
		return 0;
	}
	if (n <= 0) {
		if (n < 0 && n != -ECONNRESET)
			log_warning_errno((int)n, "Dropping controller of uid %u",
					  (unsigned int)c->uid);
		controller_free(c);
		return 0;
	}
	r = handle_request(c, msg.buf, (size_t)n, &archive_fd);
	if (r < 0 && r != -EPIPE && r != -ECONNRESET)
		log_warning_errno(r, "Failed to answer controller of uid %u",
				  (unsigned int)c->uid);
	if (c->closing && !c->out_head)
		controller_free(c);
	return 0;
}

DEFINE_TRIVIAL_CLEANUP_FUNC(struct controller *, controller_free);

int controller_new(struct manager *m, int fd, const struct ucred *cred)
{
	_cleanup_close_ int owned_fd = fd;
	_cleanup_(controller_freep) struct controller *new = NULL;
	struct controller *c;
	int r;

	new = calloc(1, sizeof(*new));
	if (!new)
		return -ENOMEM;
	new->manager = m;
	new->fd = TAKE_FD(owned_fd);
	new->out_tail = &new->out_head;
	new->pid = cred->pid;
	new->uid = cred->uid;
	new->gid = cred->gid;
	new->allowed = allowed(m, new->fd, cred);
	LIST_PREPEND(m->controllers, new);
	r = manager_watch_input(m, &new->io, new->fd, on_controller_io, new,
				"fxt-controller");
	if (r < 0)
		return r;
	c = TAKE_PTR(new);
	if (!c->allowed && log_burst_take(&m->refused_controllers, m->event))
		log_notice("Refusing control to uid %u (pid %d): not root, not in group '%s'",
			   (unsigned int)c->uid, (int)c->pid, FXT_CTL_GROUP);
	return 0;
}

struct controller *controller_free(struct controller *c)
{
	if (!c)
		return NULL;
	LIST_REMOVE(c->manager->controllers, c);
	trace_forget_requester(c->manager, c);
	snapshot_forget_requester(c->manager, c);
	sd_event_source_disable_unref(c->wait_timer);
	while (c->out_head) {
		struct controller_out *o = c->out_head;

		c->out_head = o->next;
		free(o);
	}
	sd_event_source_disable_unref(c->io);
	close(c->fd);
	c->manager->controller_events->gone(c->manager);
	free(c);
	return NULL;
}
