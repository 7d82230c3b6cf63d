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
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "cleanup.h"
#include "controller.h"
#include <fxt/fxt_msg.h>
#include "list.h"
#include "listener.h"
#include "log.h"
#include "manager_state.h"
#include "provider.h"

/* A connection that has not said what it is yet. */
struct pending {
	struct manager *manager;
	LIST_FIELDS(struct pending);
	int fd;
	struct ucred cred;	/* read once, at accept */
	sd_event_source *io;
	sd_event_source *timeout;	/* MANAGER_HELLO_TIMEOUT_USEC */
};

static void pending_free(struct pending *pc)
{
	LIST_REMOVE(pc->manager->pending, pc);
	sd_event_source_disable_unref(pc->io);
	sd_event_source_disable_unref(pc->timeout);
	if (pc->fd >= 0)
		close(pc->fd);
	pc->manager->listener_events->gone(pc->manager);
	free(pc);
}

static unsigned int connections_of(const struct manager *m, uid_t uid)
{
	const struct pending *pc;
	const struct controller *c;
	const struct provider *p;
	unsigned int n = 0;

	for (pc = m->pending; pc; pc = pc->next)
		n += pc->cred.uid == uid;
	for (c = m->controllers; c; c = c->next)
		n += c->uid == uid;
	for (p = m->providers; p; p = p->next)
		n += p->fd >= 0 && p->uid == uid;
	return n;
}

static bool over_limit(struct manager *m, const struct ucred *cred)
{
	if (!cred->uid ||
	    connections_of(m, cred->uid) < MANAGER_CONNECTIONS_PER_UID)
		return false;
	/* One line per burst, not one per connection of a flood. */
	if (m->refused++ % 1024 == 0)
		log_warning("Refusing connections of uid %u: it has %u already (%u refused so far)",
			    (unsigned int)cred->uid, MANAGER_CONNECTIONS_PER_UID,
			    m->refused);
	return true;
}

static int on_accept_retry(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	(void)sd_event_source_set_enabled(m->listen_source, SD_EVENT_ON);
	return 0;
}

/*
 * Out of descriptors or memory: the connection stays in the backlog and
 * the socket readable, so accepting again at once would spin. Pause. The
 * timer exists from the start: out of descriptors, sd-event could not
 * create its timerfd.
 */
static void pause_accepting(struct manager *m, int error)
{
	log_warning_errno(error, "Failed to accept a connection; pausing for %llu ms",
			  MANAGER_ACCEPT_RETRY_USEC / 1000);
	if (sd_event_source_set_time_relative(m->accept_retry,
					      MANAGER_ACCEPT_RETRY_USEC) < 0 ||
	    sd_event_source_set_enabled(m->accept_retry, SD_EVENT_ONESHOT) < 0)
		return;	/* keep accepting: better a busy loop than deaf */
	(void)sd_event_source_set_enabled(m->listen_source, SD_EVENT_OFF);
}

static int add_accept_retry(struct manager *m)
{
	int r;

	r = sd_event_add_time_relative(m->event, &m->accept_retry,
				       CLOCK_MONOTONIC,
				       MANAGER_ACCEPT_RETRY_USEC, 0,
				       on_accept_retry, m);
	if (r < 0)
		return r;
	(void)sd_event_source_set_description(m->accept_retry,
					      "fxt-accept-retry");
	return sd_event_source_set_enabled(m->accept_retry, SD_EVENT_OFF);
}

static int on_first_message(sd_event_source *s, int fd, uint32_t revents,
			    void *userdata)
{
	struct pending *pc = userdata;
	union {
		struct fxt_msg_header hdr;
		struct fxt_msg_provider_hello hello;
		char buf[FXT_MSG_MAX];
	} msg;
	ssize_t n;
	int r;

	n = recv(fd, msg.buf, sizeof(msg.buf), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n >= (ssize_t)sizeof(msg.hello) &&
	    msg.hdr.magic == FXT_PROTO_MAGIC &&
	    msg.hdr.version != FXT_PROTO_VERSION &&
	    msg.hdr.type == FXT_MSG_PROVIDER_HELLO) {
		if (log_burst_take(&pc->manager->bad_connections,
				   pc->manager->event))
			log_warning("Refusing provider \"%.*s\" (pid %u, uid %u): its libfxt-provider speaks protocol %u, this fxtraced %u; run it with the libfxt-provider of this fxtraced",
				    FXT_PROVIDER_NAME_MAX, msg.hello.name,
				    (unsigned int)msg.hello.pid,
				    (unsigned int)pc->cred.uid,
				    (unsigned int)msg.hdr.version,
				    FXT_PROTO_VERSION);
		pending_free(pc);
		return 0;
	}
	if (n < (ssize_t)sizeof(msg.hdr) || msg.hdr.magic != FXT_PROTO_MAGIC ||
	    msg.hdr.version != FXT_PROTO_VERSION) {
		if (n > 0 && log_burst_take(&pc->manager->bad_connections,
					    pc->manager->event))
			log_warning("Dropping a connection of uid %u that does not speak protocol %u (more are counted, summed up every %llu s)",
				    (unsigned int)pc->cred.uid, FXT_PROTO_VERSION,
				    MANAGER_LOG_BURST_USEC / 1000000u);
		pending_free(pc);
		return 0;
	}
	/* epoll takes an fd once: the new owner's source replaces ours. */
	pc->io = sd_event_source_disable_unref(pc->io);
	if (msg.hdr.type == FXT_MSG_PROVIDER_HELLO ||
	    msg.hdr.type == FXT_MSG_PROVIDER_RESUME) {
		int buffer_fd;

		n = fxt_msg_recv(fd, msg.buf, sizeof(msg.buf), &buffer_fd);
		r = n < 0 ? (int)n : provider_new(pc->manager, TAKE_FD(pc->fd),
						  &pc->cred, &msg.hdr, n,
						  buffer_fd);
	} else {
		/* The controller reads its request itself. */
		r = controller_new(pc->manager, TAKE_FD(pc->fd), &pc->cred);
	}
	if (r < 0 && log_burst_take(&pc->manager->bad_connections,
				    pc->manager->event))
		log_warning_errno(r, "Dropping a new connection of uid %u (more are counted, summed up every %llu s)",
				  (unsigned int)pc->cred.uid,
				  MANAGER_LOG_BURST_USEC / 1000000u);
	pending_free(pc);
	return 0;
}

/*
 * Nothing said in time: closed, counted. A first message that waits (the
 * loop was busy past the deadline) is read instead.
 */
static int on_hello_timeout(sd_event_source *s, uint64_t usec,
			    void *userdata)
{
	struct pending *pc = userdata;
	struct manager *m = pc->manager;
	struct pollfd pfd = { .fd = pc->fd, .events = POLLIN };

	if (poll(&pfd, 1, 0) > 0)
		return on_first_message(pc->io, pc->fd, pfd.revents, pc);
	if (log_burst_take(&m->silent_connections, m->event))
		log_warning("Closing a connection of uid %u (pid %d): no first message within %llu s (more are counted, summed up every %llu s)",
			    (unsigned int)pc->cred.uid, (int)pc->cred.pid,
			    MANAGER_HELLO_TIMEOUT_USEC / 1000000u,
			    MANAGER_LOG_BURST_USEC / 1000000u);
	pending_free(pc);
	return 0;
}

/* Watched until its first message, for at most MANAGER_HELLO_TIMEOUT_USEC. */
static int watch_pending(struct manager *m, struct pending *pc)
{
	int r;

	r = manager_watch_input(m, &pc->io, pc->fd, on_first_message, pc,
				"fxt-new-connection");
	if (r < 0)
		return r;
	r = sd_event_add_time_relative(m->event, &pc->timeout, CLOCK_MONOTONIC,
				       MANAGER_HELLO_TIMEOUT_USEC, 0,
				       on_hello_timeout, pc);
	if (r < 0)
		return r;
	(void)sd_event_source_set_description(pc->timeout, "fxt-hello-timeout");
	return 0;
}

static int on_accept(sd_event_source *s, int fd, uint32_t revents,
		     void *userdata)
{
	struct manager *m = userdata;
	_cleanup_close_ int cfd = -1;
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	struct pending *pc;
	int r;

	cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0) {
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			pause_accepting(m, -errno);
		else if (errno != EAGAIN && errno != EINTR &&
			 errno != ECONNABORTED)
			log_warning_errno(-errno, "Failed to accept a connection");
		return 0;
	}
	if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0 ||
	    over_limit(m, &cred))
		return 0;
	pc = calloc(1, sizeof(*pc));
	if (!pc)
		return 0;
	pc->manager = m;
	pc->fd = TAKE_FD(cfd);
	pc->cred = cred;
	LIST_PREPEND(m->pending, pc);
	r = watch_pending(m, pc);
	if (r < 0) {
		log_warning_errno(r, "Failed to watch a new connection");
		pending_free(pc);
	}
	return 0;
}

static int make_parent_dir(const char *path)
{
	_cleanup_free_ char *copy = strdup(path);

	if (!copy)
		return -ENOMEM;
	if (mkdir(dirname(copy), 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * A socket of a dead manager: nobody answers on it. A live one would, and
 * anything that is not a socket is not ours to remove.
 */
static void remove_stale_socket(const char *path)
{
	struct stat st;
	int fd;

	if (lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
		return;
	fd = fxt_msg_connect(path);
	if (fd >= 0)
		close(fd);
	else if (fd == -ECONNREFUSED)
		(void)unlink(path);
}

static int bind_socket(struct manager *m, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;
	int r;

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
	remove_stale_socket(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return log_error_errno(-errno, "Failed to bind %s (is another fxtraced running?)",
				       path);
	(void)chmod(path, 0666);
	if (listen(fd, 64) < 0) {
		r = -errno;
		(void)unlink(path);
		return log_error_errno(r, "Failed to listen on %s", path);
	}
	m->socket_path = strdup(path);
	m->listen_fd = TAKE_FD(fd);
	return 0;
}

static int take_activated_socket(struct manager *m)
{
	_cleanup_strv_free_ char **names = NULL;
	int n = sd_listen_fds_with_names(0, &names), i, sockets = 0;

	if (n <= 0)
		return n;
	/* The descriptor store's come along: not sockets. */
	for (i = 0; i < n; i++) {
		if (names && names[i] &&
		    !strncmp(names[i], MANAGER_FDSTORE_PREFIX,
			     strlen(MANAGER_FDSTORE_PREFIX)))
			continue;
		if (sockets++)
			return log_error_errno(-EINVAL, "Expected one socket from the service manager, got more");
		m->listen_fd = SD_LISTEN_FDS_START + i;
	}
	if (!sockets)
		return 0;
	if (sd_is_socket_unix(m->listen_fd, SOCK_SEQPACKET, 1, NULL, 0) <= 0)
		return log_error_errno(-EINVAL, "The activated socket is not a listening AF_UNIX SOCK_SEQPACKET socket");
	m->activated = true;
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
	r = add_accept_retry(m);
	if (r < 0)
		return log_error_errno(r, "Failed to set up the accept timer");
	(void)sd_event_source_set_description(m->listen_source,
					      "fxt-listen");
	return 0;
}

void listener_close(struct manager *m)
{
	while (m->pending)
		pending_free(m->pending);
	m->accept_retry = sd_event_source_disable_unref(m->accept_retry);
	m->listen_source = sd_event_source_disable_unref(m->listen_source);
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	m->listen_fd = -1;
	if (m->socket_path)
		(void)unlink(m->socket_path);
	free(m->socket_path);
	m->socket_path = NULL;
}
