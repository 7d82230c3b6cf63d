// SPDX-License-Identifier: GPL-2.0-only
/*
 * The listening socket: socket-activated (sd_listen_fds) or bound here,
 * world-connectable because any user may be a provider; controllers are
 * checked per connection. A new connection is a provider or a controller
 * according to its first message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "fxt_msg.h"
#include "log.h"
#include "manager.h"

/* A connection that has not said what it is yet. */
struct pending {
	struct manager *manager;
	int fd;
	sd_event_source *io;
};

static void pending_free(struct pending *pc, bool close_fd)
{
	sd_event_source_disable_unref(pc->io);
	if (close_fd)
		close(pc->fd);
	free(pc);
}

static int on_first_message(sd_event_source *s, int fd, uint32_t revents,
			    void *userdata)
{
	struct pending *pc = userdata;
	union {
		struct fxt_msg_header hdr;
		char buf[FXT_MSG_MAX];
	} msg;
	ssize_t n;
	int r;

	n = recv(fd, msg.buf, sizeof(msg.buf), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < (ssize_t)sizeof(msg.hdr) || msg.hdr.magic != FXT_PROTO_MAGIC ||
	    msg.hdr.version != FXT_PROTO_VERSION) {
		if (n > 0)
			log_warning("Dropping a connection that does not speak protocol %u",
				    FXT_PROTO_VERSION);
		pending_free(pc, true);
		return 0;
	}
	/* epoll takes an fd once: the new owner's source replaces ours. */
	pc->io = sd_event_source_disable_unref(pc->io);
	if (msg.hdr.type == FXT_MSG_PROVIDER_HELLO) {
		n = fxt_msg_recv(fd, msg.buf, sizeof(msg.buf), NULL);
		r = n < 0 ? (int)n : provider_new(pc->manager, fd, &msg.hdr, n);
	} else {
		/* The controller reads its request itself. */
		r = controller_new(pc->manager, fd);
	}
	if (r < 0)
		log_warning_errno(r, "Dropping a new connection");
	pending_free(pc, r < 0);
	return 0;
}

static int on_accept(sd_event_source *s, int fd, uint32_t revents,
		     void *userdata)
{
	struct manager *m = userdata;
	struct pending *pc;
	int cfd, r;

	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
			log_warning_errno(-errno, "Failed to accept a connection");
		return 0;
	}
	pc = calloc(1, sizeof(*pc));
	if (!pc) {
		close(cfd);
		return 0;
	}
	pc->manager = m;
	pc->fd = cfd;
	r = sd_event_add_io(m->event, &pc->io, cfd, EPOLLIN, on_first_message,
			    pc);
	if (r < 0) {
		log_warning_errno(r, "Failed to watch a new connection");
		pending_free(pc, true);
		return 0;
	}
	(void)sd_event_source_set_description(pc->io, "fxt-new-connection");
	return 0;
}

static int make_parent_dir(const char *path)
{
	char *copy = strdup(path);
	int r = 0;

	if (!copy)
		return -ENOMEM;
	if (mkdir(dirname(copy), 0755) < 0 && errno != EEXIST)
		r = -errno;
	free(copy);
	return r;
}

static int bind_socket(struct manager *m, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return log_error_errno(-ENAMETOOLONG, "Socket path %s", path);
	r = make_parent_dir(path);
	if (r < 0)
		return log_error_errno(r, "Failed to create the directory of %s",
				       path);
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return log_error_errno(-errno, "Failed to create a socket");
	/* A stale socket of a dead manager; a live one would answer. */
	if (fxt_msg_connect(path) == -ECONNREFUSED)
		(void)unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		close(fd);
		return log_error_errno(r, "Failed to bind %s (is another fxtraced running?)",
				       path);
	}
	(void)chmod(path, 0666);
	if (listen(fd, 64) < 0) {
		r = -errno;
		close(fd);
		(void)unlink(path);
		return log_error_errno(r, "Failed to listen on %s", path);
	}
	m->socket_path = strdup(path);
	m->listen_fd = fd;
	return 0;
}

static int take_activated_socket(struct manager *m)
{
	int n = sd_listen_fds(1);

	if (n <= 0)
		return n;
	if (n > 1)
		return log_error_errno(-EINVAL, "Expected one socket from the service manager, got %d",
				       n);
	if (sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_SEQPACKET, 1, NULL,
			      0) <= 0)
		return log_error_errno(-EINVAL, "The activated socket is not a listening AF_UNIX SOCK_SEQPACKET socket");
	m->listen_fd = SD_LISTEN_FDS_START;
	return 1;
}

int listener_open(struct manager *m, const char *path)
{
	int r;

	r = path ? 0 : take_activated_socket(m);
	if (r < 0)
		return r;
	if (r == 0) {
		r = bind_socket(m, path ? path : fxt_msg_socket_path());
		if (r < 0)
			return r;
	}
	r = sd_event_add_io(m->event, &m->listen_source, m->listen_fd, EPOLLIN,
			    on_accept, m);
	if (r < 0)
		return log_error_errno(r, "Failed to watch the socket");
	(void)sd_event_source_set_description(m->listen_source,
					      "fxt-listen");
	return 0;
}

void listener_close(struct manager *m)
{
	m->listen_source = sd_event_source_disable_unref(m->listen_source);
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	m->listen_fd = -1;
	if (m->socket_path)
		(void)unlink(m->socket_path);
	free(m->socket_path);
	m->socket_path = NULL;
}
