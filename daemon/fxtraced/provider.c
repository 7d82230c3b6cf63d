// SPDX-License-Identifier: GPL-2.0-only
/*
 * A provider connection. Any user may be one: it gets a buffer of its own
 * and nothing else. What it claims (name, pid) is only a label; the pid
 * and uid come from SO_PEERCRED.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include <fxt/fxt_msg.h>
#include "log.h"
#include "manager_state.h"
#include "provider.h"

/*
 * Any user may connect and close at will: the lines of others than root
 * come in bursts, then counts (manager.h).
 */
/* The parent of pid from /proc, or -1. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *end;
	_cleanup_close_ int fd = -1;
	ssize_t n;
	int ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) state ppid": comm may hold anything but ')'s end */
	end = strrchr(buf, ')');
	if (!end || sscanf(end + 1, " %*c %d", &ppid) != 1)
		return -1;
	return ppid;
}

/* pid's parent, its parent, ... up to init or max of them. */
static unsigned int read_ancestors(pid_t pid, pid_t *out, unsigned int max)
{
	unsigned int n = 0;

	while (n < max && pid > 1) {
		pid = parent_of(pid);
		if (pid <= 0)
			break;
		out[n++] = pid;
	}
	return n;
}

bool provider_descends_from(const struct provider *p, pid_t ancestor)
{
	unsigned int i;

	if (p->pid == ancestor)
		return true;
	for (i = 0; i < p->nancestors; i++)
		if (p->ancestors[i] == ancestor)
			return true;
	return false;
}

static bool log_connection(struct provider *p)
{
	return !p->uid ||
	       log_burst_take(&p->manager->provider_lines, p->manager->event);
}

static void provider_gone(struct provider *p, const char *why)
{
	struct manager *m = p->manager;

	if (p->fd < 0)
		return;
	if (log_connection(p))
		log_full(LOG_INFO, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] %s", p->name, (int)p->pid, why);
	p->io = sd_event_source_disable_unref(p->io);
	close(p->fd);
	p->fd = -1;
	if (p->in_trace) {
		/* Its buffer is still mapped here: read it at stop. */
		m->provider_events->stopped(m, p);
		return;
	}
	provider_free(p);
	m->provider_events->changed(m);
}

static int handle_message(struct provider *p, const void *buf, size_t len)
{
	const struct provider_events *ev = p->manager->provider_events;
	const struct fxt_msg_header *h = buf;

	switch (h->type) {
	case FXT_MSG_PROVIDER_STARTED:
		p->started = true;
		ev->started(p->manager, p);
		return 0;
	case FXT_MSG_PROVIDER_STOPPED:
		if (p->stop_sent && !p->stopped)
			ev->stopped(p->manager, p);
		return 0;
	case FXT_MSG_PROVIDER_SAVE:
		if (len != sizeof(struct fxt_msg_save))
			return -EBADMSG;
		return ev->save(p->manager, p, buf);
	case FXT_MSG_PROVIDER_TRIGGER:
		if (len != sizeof(struct fxt_msg_trigger))
			return -EBADMSG;
		ev->trigger(p->manager, p, buf);
		return 0;
	default:
		return -EBADMSG;
	}
}

static int on_provider_io(sd_event_source *s, int fd, uint32_t revents,
			  void *userdata)
{
	struct provider *p = userdata;
	union fxt_msg_room msg;
	ssize_t n;
	int r;

	n = fxt_msg_recv(fd, msg.buf, sizeof(msg.buf), NULL);
	if (n == -EAGAIN)
		return 0;
	if (n == 0 || n == -ECONNRESET) {
		provider_gone(p, "disconnected");
		return 0;
	}
	r = n < 0 ? (int)n : handle_message(p, msg.buf, (size_t)n);
	if (r == -EAGAIN)
		/* Our answer did not fit: it leaves its socket unread. */
		log_full(LOG_WARNING, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] does not read its socket", p->name,
			 (int)p->pid);
	else if (r < 0)
		log_full(LOG_WARNING, -r, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] sent a bad message (type %u)",
			 p->name, (int)p->pid, n > 0 ? msg.hdr.type : 0);
	if (r < 0)
		provider_gone(p, "dropped");
	return 0;
}

static void copy_name(char *dst, const char *src)
{
	size_t i;

	/* Untrusted: printable ASCII only, so logs and archives stay sane. */
	for (i = 0; i + 1 < FXT_PROVIDER_NAME_MAX && src[i]; i++)
		dst[i] = (src[i] > ' ' && src[i] < 127) ? src[i] : '_';
	dst[i] = '\0';
	if (!i)
		strcpy(dst, "unnamed");
}

DEFINE_TRIVIAL_CLEANUP_FUNC(struct provider *, provider_free);

static unsigned int providers_of(const struct manager *m, uid_t uid)
{
	const struct provider *p;
	unsigned int n = 0;

	for (p = m->providers; p; p = p->next)
		n += p->uid == uid;
	return n;
}

/* A message of a header alone: TERMINATE, IDLE. */
static void send_header(struct provider *p, enum fxt_msg_type type)
{
	struct fxt_msg_header h;

	fxt_msg_init(&h, type, sizeof(h));
	(void)fxt_msg_send(p->fd, &h, sizeof(h), -1);
}

/*
 * RESUME: the buffer goes back into the trace it came from, or the
 * provider forgets it (TERMINATE) and starts over as a new one.
 */
static bool resume(struct manager *m, struct provider *p,
		   const struct fxt_msg_header *msg, size_t len, int buffer_fd)
{
	int r = -EBADMSG;

	if (len == sizeof(struct fxt_msg_provider_resume) && buffer_fd >= 0)
		r = m->provider_events->resume(m, p, (const void *)msg,
					       buffer_fd);
	if (r >= 0)
		return true;
	log_full(LOG_INFO, -r, PROVIDER_LOG_FIELDS(p),
		 "Provider %s[%d] offered a buffer of an earlier trace; told to forget it",
		 p->name, (int)p->pid);
	if (buffer_fd >= 0)
		close(buffer_fd);
	send_header(p, FXT_MSG_TERMINATE);
	return false;
}

int provider_new(struct manager *m, int fd, const struct ucred *cred,
		 const struct fxt_msg_header *hello, size_t len, int buffer_fd)
{
	const struct fxt_msg_provider_hello *h = (const void *)hello;
	bool resuming = hello->type == FXT_MSG_PROVIDER_RESUME;
	_cleanup_close_ int owned_fd = fd, owned_buffer = buffer_fd;
	_cleanup_(provider_freep) struct provider *new = NULL;
	struct provider *p;
	int r;

	if (resuming ? len != sizeof(struct fxt_msg_provider_resume) :
		       len != sizeof(*h) || buffer_fd >= 0)
		return -EBADMSG;
	if (cred->uid && providers_of(m, cred->uid) >= MANAGER_PROVIDERS_PER_UID)
		return -EUSERS;
	new = calloc(1, sizeof(*new));
	if (!new)
		return -ENOMEM;
	new->manager = m;
	new->fd = TAKE_FD(owned_fd);
	new->buffer.fd = -1;
	new->pid = cred->pid;
	new->nancestors = read_ancestors(new->pid, new->ancestors,
					 PROVIDER_ANCESTORS_MAX);
	new->uid = cred->uid;
	copy_name(new->name, h->name);
	/* In connection order, as tracectl lists them. */
	LIST_APPEND(m->providers, new);
	r = manager_watch_input(m, &new->io, new->fd, on_provider_io, new,
				"fxt-provider");
	if (r < 0)
		return r;
	p = TAKE_PTR(new);
	if (!resuming || !resume(m, p, hello, len, TAKE_FD(owned_buffer)))
		p->id = manager_next_id(m);
	if (log_connection(p))
		log_full(LOG_INFO, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] (uid %u) connected as id %u%s",
			 p->name, (int)p->pid, (unsigned int)p->uid, p->id,
			 p->recovered ? ", its buffer back in the trace" : "");
	r = m->provider_events->connected(m, p);
	/* Over a budget: no buffer this trace, still welcome. */
	if (r < 0 && r != -EDQUOT && r != -ENOSPC) {
		log_full(LOG_WARNING, -r, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] could not join the trace",
			 p->name, (int)p->pid);
		provider_gone(p, "dropped");
		return 0;
	}
	/* In no trace now: it counts no events as missed (FXT_MSG_IDLE). */
	if (!p->in_trace)
		send_header(p, FXT_MSG_IDLE);
	m->provider_events->changed(m);
	return 0;
}

struct provider *provider_free(struct provider *p)
{
	if (!p)
		return NULL;
	LIST_REMOVE(p->manager->providers, p);
	sd_event_source_disable_unref(p->io);
	if (p->fd >= 0)
		close(p->fd);
	provider_buffer_destroy(&p->buffer);
	free(p);
	return NULL;
}

int provider_join_trace(struct provider *p, enum fxt_buffering_mode mode,
			uint64_t data_size, const char *categories,
			const uint8_t trace_id[16])
{
	struct fxt_msg_buffer buf;
	struct fxt_msg_start start;
	int r;

	if (p->fd < 0 || p->in_trace)
		return 0;
	r = provider_buffer_create(&p->buffer, data_size, mode, p->name,
				   trace_id);
	if (r < 0)
		return r;
	p->in_trace = true;
	fxt_msg_init(&buf, FXT_MSG_BUFFER, sizeof(buf));
	buf.size = p->buffer.size;
	buf.provider_id = p->id;
	r = fxt_msg_send(p->fd, &buf, sizeof(buf), p->buffer.fd);
	/* Our mapping keeps the memory; the provider holds the only fd. */
	close(p->buffer.fd);
	p->buffer.fd = -1;
	if (r < 0)
		return r;
	fxt_msg_init(&start, FXT_MSG_START, sizeof(start));
	start.mode = mode;
	snprintf(start.categories, sizeof(start.categories), "%s", categories);
	return fxt_msg_send(p->fd, &start, sizeof(start), -1);
}

int provider_send_stop(struct provider *p)
{
	struct fxt_msg_header stop;

	if (p->fd < 0 || !p->in_trace)
		return -ENOTCONN;
	fxt_msg_init(&stop, FXT_MSG_STOP, sizeof(stop));
	p->stop_sent = true;
	return fxt_msg_send(p->fd, &stop, sizeof(stop), -1);
}

/* After the archive is written: the provider forgets its buffer. */
void provider_leave_trace(struct provider *p)
{
	if (p->fd >= 0 && p->in_trace)
		send_header(p, FXT_MSG_TERMINATE);
	provider_buffer_destroy(&p->buffer);
	p->in_trace = p->started = p->stopped = p->stop_sent = false;
	p->over_budget = p->over_memory_budget = false;
	p->visited = false;
	p->durable_saved = 0;
	memset(p->saved_generation, 0, sizeof(p->saved_generation));
	memset(p->pending_save, 0, sizeof(p->pending_save));
	p->drops_reported = 0;
	p->drops_implausible_logged = false;
	p->recovered = p->recovered_reported = false;
	memset(&p->walk, 0, sizeof(p->walk));
	if (p->fd < 0)
		provider_free(p);
}

void provider_describe(const struct provider *p, struct fxt_ctl_provider *out)
{
	struct provider_buffer_state st = { 0 };
	uint64_t max;

	fxt_msg_init(out, FXT_MSG_CTL_PROVIDER, sizeof(*out));
	out->id = p->id;
	out->pid = (__u32)p->pid;
	out->uid = (__u32)p->uid;
	out->flags = (p->fd >= 0 ? FXT_CTL_PROVIDER_ALIVE : 0) |
		     (p->in_trace ? FXT_CTL_PROVIDER_TRACING : 0) |
		     (p->stop_sent && !p->stopped ?
			      FXT_CTL_PROVIDER_NO_STOPPED : 0) |
		     (p->over_budget ? FXT_CTL_PROVIDER_OVER_BUDGET : 0) |
		     (p->over_memory_budget ?
			      FXT_CTL_PROVIDER_OVER_MEMORY_BUDGET : 0);
	if (p->in_trace && p->buffer.map) {
		provider_buffer_state(&p->buffer, &st);
		out->buffer_size = provider_buffer_data_size(&p->buffer);
		out->buffer_used = provider_buffer_used(&p->buffer);
	}
	out->records = p->walk.records;
	out->bytes = p->walk.bytes;
	out->skipped = p->walk.skipped;
	out->records_dropped = st.records_dropped;
	out->bytes_dropped = st.bytes_dropped;
	if (st.records_missed)
		out->flags |= FXT_CTL_PROVIDER_MISSED_START;
	if (p->in_trace && p->buffer.map &&
	    !provider_drops_plausible(p, &st, &max)) {
		out->flags |= FXT_CTL_PROVIDER_DROPS_IMPLAUSIBLE;
		out->records_dropped = max;
		out->bytes_dropped = 0;
	}
	memcpy(out->name, p->name, sizeof(out->name));
}

bool provider_drops_plausible(const struct provider *p,
			      const struct provider_buffer_state *st,
			      uint64_t *max)
{
	*max = provider_buffer_drops_max(&p->buffer);
	return st->records_dropped <= *max;
}

bool provider_check_drops(struct provider *p,
			  const struct provider_buffer_state *st)
{
	uint64_t max;

	if (provider_drops_plausible(p, st, &max))
		return true;
	if (!p->drops_implausible_logged && log_connection(p))
		log_full(LOG_WARNING, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] (uid %u) claims more dropped records than it could have dropped (at most %llu since its buffer was made): its drop count is shown as implausible",
			 p->name, (int)p->pid, (unsigned int)p->uid,
			 (unsigned long long)max);
	p->drops_implausible_logged = true;
	return false;
}
