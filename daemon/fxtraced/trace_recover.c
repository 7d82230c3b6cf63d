// SPDX-License-Identifier: GPL-2.0-only
/*
 * A restarted manager resumes the trace the state file describes: its
 * archive (from the descriptor store, else by its hidden name), its
 * kernel capture (taken back from the store, else afresh), its triggers;
 * its providers hand their buffers back as they reconnect.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "archive.h"
#include "cleanup.h"
#include "host_mark.h"
#include <fxt/fxt_msg.h>
#include "kernel_session.h"
#include "kernel_source.h"
#include "log.h"
#include "manager_state.h"
#include "provider.h"
#include "state_trust.h"
#include "trace.h"
#include "trace_internal.h"
#include "trace_state.h"
#include "trace_store.h"

static struct trace_state_provider *listed_provider(struct trace *t,
						    uint32_t id)
{
	size_t i;

	for (i = 0; i < t->nlisted; i++)
		if (t->listed[i].id == id)
			return &t->listed[i];
	return NULL;
}

int trace_resume_provider(struct manager *m, struct provider *p,
			  const struct fxt_msg_provider_resume *msg,
			  int buffer_fd)
{
	struct trace *t = m->trace;
	struct trace_state_provider *l;
	unsigned int h;
	int r;

	if (!t || !t->recovered || t->finishing)
		return -ESRCH;
	l = listed_provider(t, msg->provider_id);
	/* Its own uid's, once: no one hands in another's records. */
	if (!l || l->reserved || l->uid != p->uid)
		return -EPERM;
	r = provider_buffer_adopt(&p->buffer, buffer_fd, t->buffer_size,
				  t->mode, t->uuid.bytes);
	if (r < 0)
		return r;
	l->reserved = 1;
	l->pid = p->pid;
	p->id = l->id;
	p->in_trace = true;
	p->started = msg->flags & FXT_RESUME_STARTED;
	p->recovered = true;
	for (h = 0; h < 2 && t->mode == FXT_BUFFERING_STREAMING; h++) {
		p->saved_generation[h] = msg->saved_generation[h];
		p->pending_save[h] = msg->pending_save[h];
	}
	log_full(LOG_INFO, 0, PROVIDER_LOG_FIELDS(p),
		 "Provider %s[%d] handed its buffer of trace %s back as id %u",
		 p->name, (int)p->pid, t->id, p->id);
	/* The fills it asked to save before the restart, written now. */
	if (trace_retry_saves(t, p) < 0)
		log_full(LOG_WARNING, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d]: writing its saved halves failed; tried again every second",
			 p->name, (int)p->pid);
	if (t->awaited)
		t->awaited--;
	if (t->stopping && !t->stop_timer && !t->awaited)
		trace_stop_providers(m);
	else if (t->stopping && t->stop_timer && provider_send_stop(p) < 0)
		p->stopped = true;
	return 0;
}

/*
 * The stored descriptor if systemd kept one, else the file by its hidden
 * name beside the output (needs the right to open it: root, or the
 * owner's uid); either only while it is the trace's (state_trust.h).
 */
static int archive_again(struct manager *m, const struct trace_state *st,
			 char *why, size_t why_len)
{
	_cleanup_close_ int fd = TAKE_FD(m->stored_archive_fd);
	int r;

	if (fd < 0)
		return state_archive_open(st, why, why_len);
	r = state_archive_check(fd, st, why, why_len);
	if (r < 0)
		return r;
	log_info("The archive of the interrupted trace came from the service manager's descriptor store");
	return TAKE_FD(fd);
}

/* A stop that was writing the archive: what it wrote is written again. */
static int cut_to_finish_mark(int fd, uint64_t mark)
{
	struct stat sb;

	if (!mark || fstat(fd, &sb) < 0 || (uint64_t)sb.st_size <= mark - 1)
		return 0;
	return ftruncate(fd, (off_t)(mark - 1)) < 0 ? -errno : 0;
}

/*
 * Kept whole records are taken on after; a "recovered" mark says where.
 * When not even the host records had reached the disk, they are written
 * again, with the start reading the state kept (host_mark.h); the trace
 * goes on without them if they cannot be.
 */
static int resume_archive(struct manager *m, struct trace *t, uint64_t *kept)
{
	int r;

	r = archive_resume(t->archive, kept);
	if (r < 0)
		return r;
	if (*kept <= FXT_WORD_BYTES) {
		r = host_mark_start(t->archive, manager_next_id(m), t->id,
				    &t->clock_start);
		if (r < 0)
			log_full(LOG_WARNING, -r, TRACE_LOG_FIELDS(t),
				 "Trace %s: cannot write the host and clock records again: %s",
				 t->id, strerror(-r));
	}
	r = archive_write_provider_event(t->archive, 0,
					 FXT_PROVIDER_EVENT_RECOVERED);
	return r < 0 ? r : archive_commit(t->archive, 0, 1);
}

/* Whether a stored name ends in "-<trace id>". */
static bool stored_for(const char *name, const char *trace_id)
{
	size_t len = strlen(name), id_len = strlen(trace_id);

	return len > id_len && name[len - id_len - 1] == '-' &&
	       !strcmp(name + len - id_len, trace_id);
}

/*
 * Closes the kernel descriptors the store gave back, but those of trace
 * keep_id (NULL: all), and has the store let them go too.
 */
static void drop_stored_kernel(struct manager *m, const char *keep_id)
{
	char msg[MANAGER_FDNAME_MAX + 32];
	size_t i, kept = 0;

	for (i = 0; i < m->nstored_kernel; i++) {
		struct manager_stored_fd *s = &m->stored_kernel[i];

		if (keep_id && stored_for(s->name, keep_id)) {
			m->stored_kernel[kept++] = *s;
			continue;
		}
		if (s->fd >= 0)
			close(s->fd);
		snprintf(msg, sizeof(msg), "FDSTOREREMOVE=1\nFDNAME=%s",
			 s->name);
		(void)sd_notify(0, msg);
		if (keep_id)
			log_warning("Letting go of %s from the descriptor store: not of trace %s, the one resumed",
				    s->name, keep_id);
	}
	m->nstored_kernel = kept;
}

/*
 * The kernel descriptors the store kept for trace t, taken from m (their
 * names stay, for a failed resume to let them go); their roles are cut
 * from the names into roles. Those of another trace are let go.
 */
static size_t take_kernel_fds(struct manager *m, const struct trace *t,
			      struct kernel_kept_fd *out,
			      char (*roles)[MANAGER_FDNAME_MAX])
{
	size_t i, n = 0, len;

	drop_stored_kernel(m, t->id);
	for (i = 0; i < m->nstored_kernel; i++) {
		struct manager_stored_fd *s = &m->stored_kernel[i];
		const char *role = s->name + strlen(MANAGER_FDSTORE_KERNEL);

		len = strlen(role) - strlen(t->id) - 1;
		snprintf(roles[n], MANAGER_FDNAME_MAX, "%.*s", (int)len, role);
		out[n] = (struct kernel_kept_fd){
			.fd = TAKE_FD(s->fd),
			.role = roles[n],
		};
		n++;
	}
	return n;
}

/*
 * The trace the state describes, as it was started, with the providers
 * listed (none back yet); no archive nor kernel capture yet.
 */
static int resumed_trace(struct manager *m, const struct trace_state *st,
			 struct trace_state_provider *listed, size_t nlisted,
			 struct trace **ret, char *note, size_t note_len)
{
	struct trace *t;
	size_t i;
	int r;

	r = trace_validate(&st->req, note, note_len);
	if (r < 0)
		return r;
	r = trace_new(m, &st->req, st->owner, ret, note, note_len);
	if (r < 0)
		return r;
	t = *ret;
	memcpy(t->uuid.bytes, st->trace_id, sizeof(t->uuid.bytes));
	sd_id128_to_string(t->uuid, t->id);
	t->kernel_id = st->kernel_id;
	t->started_ns = st->started_ns;
	t->clock_start = st->clock_start;
	t->recovered = true;
	t->listed = listed;
	t->nlisted = nlisted;
	for (i = 0; i < nlisted; i++)
		listed[i].reserved = 0;
	t->awaited = t->to_resume = (unsigned int)nlisted;
	if (m->next_provider_id < st->next_provider_id)
		m->next_provider_id = st->next_provider_id;
	return 0;
}

/*
 * The archive taken again (takes fd), the kernel capture and the timers.
 * The kernel capture from the descriptor store (the module's session,
 * the BPF programs and ring map) is taken back with its rings; otherwise
 * the capture starts again, what it held gone.
 */
static int set_up_again(struct manager *m, struct trace *t, int fd,
			const struct trace_state *st, uint64_t duration,
			char *note, size_t note_len)
{
	struct kernel_kept_fd adopt[MANAGER_STORED_KERNEL_MAX];
	char roles[MANAGER_STORED_KERNEL_MAX][MANAGER_FDNAME_MAX];
	enum fxt_ctl_kernel kernel = st->req.kernel;
	size_t nadopt;
	int r;

	r = cut_to_finish_mark(fd, st->finish_mark);
	nadopt = take_kernel_fds(m, t, adopt, roles);
	if (r >= 0) {
		r = trace_set_up(m, t, fd, kernel, adopt, nadopt, duration,
				 note, note_len);
	} else {
		close(fd);
		while (nadopt--)
			close(adopt[nadopt].fd);
		nadopt = 0;
	}
	t->kernel_adopted = nadopt && t->kernel;
	if (r < 0 && t->archive && !t->kernel && nadopt) {
		log_full(LOG_WARNING, -r, TRACE_LOG_FIELDS(t),
			 "Trace %s: the kernel capture could not be taken back (%s); capturing afresh",
			 t->id, note);
		trace_unstore_kernel(t);
		r = trace_open_kernel(m, t, kernel, NULL, 0, note, note_len);
		if (r >= 0)
			r = trace_start_duration_timer(m, t, duration);
		if (r >= 0)
			r = trace_start_retry_timer(m, t);
	}
	if (r < 0 && t->archive && !t->kernel && kernel != FXT_CTL_KERNEL_OFF) {
		log_full(LOG_WARNING, -r, TRACE_LOG_FIELDS(t),
			 "Trace %s: no kernel capture after the restart: %s",
			 t->id, note);
		r = 0;
		if (!t->retry_timer)
			r = trace_start_retry_timer(m, t);
		if (r >= 0 && duration && !t->duration_timer)
			r = trace_start_duration_timer(m, t, duration);
	}
	return r;
}

static int recover(struct manager *m, const struct trace_state *st,
		   struct trace_state_provider *listed, size_t nlisted)
{
	_cleanup_(trace_freep) struct trace *t = NULL;
	char note[FXT_CTL_MESSAGE_MAX] = "", why[STATE_TRUST_WHY_MAX];
	uint64_t now = now_ns(), duration = 0, kept = 0;
	bool from_store;
	int fd, r;

	r = resumed_trace(m, st, listed, nlisted, &t, note, sizeof(note));
	if (r < 0)
		return r;
	from_store = m->stored_archive_fd >= 0;
	fd = archive_again(m, st, why, sizeof(why));
	if (fd < 0) {
		t->listed = NULL;
		log_full(LOG_ERR, -fd, TRACE_LOG_FIELDS(t),
			 "Trace %s cannot be resumed: its file %s beside %s is not taken again: %s",
			 t->id, t->temp_name, t->output, why);
		return fd;
	}
	if (st->req.duration_ns) {
		uint64_t end = st->started_ns + st->req.duration_ns;

		duration = end > now ? end - now : 1000;
	}
	r = set_up_again(m, t, fd, st, duration, note, sizeof(note));
	if (r >= 0)
		r = resume_archive(m, t, &kept);
	if (r < 0) {
		t->listed = NULL;
		log_full(LOG_ERR, -r, TRACE_LOG_FIELDS(t),
			 "Trace %s cannot be resumed: %s", t->id,
			 note[0] ? note : strerror(-r));
		return r;
	}
	log_full(LOG_NOTICE, 0, TRACE_LOG_FIELDS(t),
		 "Trace %s resumed after a restart of fxtraced: %s keeps %llu bytes, %zu provider(s) to hand their buffers back, kernel %s%s",
		 t->id, t->output, (unsigned long long)kept, nlisted,
		 kernel_source_backend(t->kernel),
		 t->kernel_adopted ? ", its capture taken back from the descriptor store with what its rings hold" : "");
	t->resume_deadline_usec = now_ns() / 1000 + MANAGER_RESUME_WAIT_USEC;
	t->state_live = true;
	if (!from_store)
		trace_store_archive(t);
	if (!t->kernel_adopted)
		trace_store_kernel(t);
	m->nstored_kernel = 0;	/* the trace's now */
	m->trace = TAKE_PTR(t);
	trace_save_state(m);
	return 0;
}

int trace_recover(struct manager *m)
{
	struct trace_state_provider *listed = NULL;
	struct trace_state st;
	char why[STATE_TRUST_WHY_MAX];
	size_t n;
	int r;

	r = m->state_dir_fd >= 0 ?
		    trace_state_load(m->state_dir_fd, &st, &listed, &n, why,
				     sizeof(why)) : -ENOENT;
	if (r < 0 && r != -ENOENT)
		log_warning_errno(r, "Ignoring the trace state in %s: %s",
				  m->state_dir, why);
	if (r >= 0)
		r = recover(m, &st, listed, n);
	if (r >= 0)
		m->trace_events->resumed(m, &st);
	/* A directory not armed again (or of no trace): let it go. */
	if (m->stored_snapshot_dir_fd >= 0)
		close(m->stored_snapshot_dir_fd);
	m->stored_snapshot_dir_fd = -1;
	if (!m->triggers)
		(void)sd_notify(0, "FDSTOREREMOVE=1\nFDNAME=" MANAGER_FDSTORE_SNAPSHOT_DIR);
	if (r < 0) {
		free(listed);
		if (m->state_dir_fd >= 0)
			trace_state_remove(m->state_dir_fd);
		/* Stored descriptors without a trace to resume: let them go. */
		(void)sd_notify(0, "FDSTOREREMOVE=1\nFDNAME=" MANAGER_FDSTORE_ARCHIVE);
		drop_stored_kernel(m, NULL);
		if (m->stored_archive_fd >= 0)
			close(m->stored_archive_fd);
		m->stored_archive_fd = -1;
	}
	m->trace_events->changed(m);
	return 0;
}
