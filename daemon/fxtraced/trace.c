// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace: at most one at a time. Start gives every connected provider
 * a buffer; providers that connect later join. Stop sends STOP, waits for
 * every STOPPED (or the provider's death, or a timeout), then writes the
 * archive: each provider's section, then the kernel's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive.h"
#include "cleanup.h"
#include "collect.h"
#include "command_mark.h"
#include "host_mark.h"
#include <fxt/fxt_msg.h>
#include <fxt/fxt_sched_uapi.h>
#include "kernel_session.h"
#include "kernel_source.h"
#include "log.h"
#include "manager_state.h"
#include "provider.h"
#include "trace.h"
#include "trace_budget.h"
#include "trace_internal.h"
#include "trace_state.h"
#include "trace_store.h"

struct trace *trace_free(struct trace *t)
{
	if (!t)
		return NULL;
	sd_event_source_disable_unref(t->stop_timer);
	sd_event_source_disable_unref(t->duration_timer);
	sd_event_source_disable_unref(t->retry_timer);
	sd_event_source_disable_unref(t->resume_timer);
	free(t->listed);
	kernel_source_free(t->kernel);
	(void)archive_close(t->archive);
	free(t);
	return NULL;
}

static int on_duration_end(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	log_info("Trace duration reached, stopping");
	(void)trace_stop(m, NULL, NULL, 0);
	return 0;
}

int trace_validate(const struct fxt_ctl_start *req, char *note,
		   size_t note_len)
{
	if (req->mode > FXT_BUFFERING_STREAMING || req->kernel > FXT_CTL_KERNEL_OFF) {
		snprintf(note, note_len, "unknown mode or kernel backend");
		return -EINVAL;
	}
	if (req->output[0] != '/' ||
	    !memchr(req->output, '\0', sizeof(req->output))) {
		snprintf(note, note_len, "the output path must be absolute");
		return -EINVAL;
	}
	if (!memchr(req->temp_name, '\0', sizeof(req->temp_name)) ||
	    strchr(req->temp_name, '/') || !strcmp(req->temp_name, ".") ||
	    !strcmp(req->temp_name, "..")) {
		snprintf(note, note_len, "the temporary name is not a file name");
		return -EINVAL;
	}
	if (!memchr(req->categories, '\0', sizeof(req->categories))) {
		snprintf(note, note_len, "the category list is not terminated");
		return -EINVAL;
	}
	if (!memchr(req->name, '\0', sizeof(req->name)) ||
	    (req->name[0] && !fxt_ctl_trigger_name_valid(req->name))) {
		snprintf(note, note_len,
			 "a trace name is 1 to %u of A-Z a-z 0-9 _ . - (not starting with '.')",
			 FXT_CTL_TRACE_NAME_MAX - 1);
		return -EINVAL;
	}
	if (req->reserved0 ||
	    (req->sample_hz && (req->sample_hz < FXT_SCHED_SAMPLE_HZ_MIN ||
				req->sample_hz > FXT_SCHED_SAMPLE_HZ_MAX))) {
		snprintf(note, note_len,
			 "the sample rate must be between %u and %u Hz",
			 FXT_SCHED_SAMPLE_HZ_MIN, FXT_SCHED_SAMPLE_HZ_MAX);
		return -EINVAL;
	}
	if (req->buffer_size &&
	    (req->buffer_size < PROVIDER_BUFFER_MIN_SIZE ||
	     req->buffer_size > PROVIDER_BUFFER_MAX_SIZE)) {
		snprintf(note, note_len,
			 "the buffer size must be between %u bytes and %llu MiB",
			 PROVIDER_BUFFER_MIN_SIZE,
			 PROVIDER_BUFFER_MAX_SIZE >> 20);
		return -EINVAL;
	}
	return 0;
}

int trace_start_duration_timer(struct manager *m, struct trace *t,
			       uint64_t duration_ns)
{
	int r;

	if (!duration_ns)
		return 0;
	r = sd_event_add_time_relative(m->event, &t->duration_timer,
				       CLOCK_MONOTONIC, duration_ns / 1000, 0,
				       on_duration_end, m);
	if (r >= 0)
		(void)sd_event_source_set_description(t->duration_timer,
						      "fxt-trace-duration");
	return r;
}

static int send_saved(struct provider *p, unsigned int half,
		      uint64_t generation)
{
	struct fxt_msg_save saved;

	fxt_msg_init(&saved, FXT_MSG_SAVED, sizeof(saved));
	saved.half = half;
	saved.generation = generation;
	return fxt_msg_send(p->fd, &saved, sizeof(saved), -1);
}

/*
 * A line when writing starts failing and one when it works again, at most
 * one pair per MANAGER_WRITE_LOG_USEC: a disk on the edge of full does
 * not flood the journal. The writer thread does not log; this looks at
 * what it did since the last look.
 */
static void note_write_state(struct trace *t, const struct archive_state *st)
{
	uint64_t now = now_ns() / 1000;

	if (st->failures > t->failures_seen && !t->write_log_pending &&
	    (!t->write_logged_usec ||
	     now - t->write_logged_usec >= MANAGER_WRITE_LOG_USEC)) {
		log_full(LOG_ERR, -st->error, TRACE_LOG_FIELDS(t),
			 "Failed to write %s; what waits stays in memory and in the providers' buffers (what does not fit is dropped and counted), writing is tried again",
			 t->output);
		t->write_logged_usec = now;
		t->write_log_pending = true;
	}
	if (!st->failing && t->write_log_pending) {
		log_full(LOG_NOTICE, 0, TRACE_LOG_FIELDS(t),
			 "Writing %s again", t->output);
		t->write_log_pending = false;
	}
	t->failures_seen = st->failures;
}

/*
 * The SAVEs a failed write left unanswered, oldest fill first: the
 * provider keeps that half (and drops, counted, when both are full) until
 * it is written. 0 when none is left.
 */
int trace_retry_saves(struct trace *t, struct provider *p)
{
	while (p->pending_save[0] || p->pending_save[1]) {
		unsigned int h = !p->pending_save[0] ||
				 (p->pending_save[1] &&
				  p->pending_save[1] < p->pending_save[0]);
		int r = collect_save(p, t->archive, h);

		if (r < 0)
			return r;
		(void)send_saved(p, h, p->pending_save[h] - 1);
		p->pending_save[h] = 0;
	}
	return 0;
}

static int on_write_retry(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;
	struct trace *t = m->trace;
	struct archive_state st;
	struct provider *p;
	int r = 0;

	for (p = m->providers; p && r >= 0; p = p->next)
		if (p->in_trace && p->fd >= 0)
			r = trace_retry_saves(t, p);
	if (r >= 0 && t->kernel)
		(void)kernel_source_resume(t->kernel);
	/* The writer's failures, said from here: it does not log. */
	archive_state(t->archive, &st);
	note_write_state(t, &st);
	(void)sd_event_source_set_time_relative(s, MANAGER_WRITE_RETRY_USEC);
	(void)sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
	return 0;
}

int trace_start_retry_timer(struct manager *m, struct trace *t)
{
	int r;

	if (t->mode != FXT_BUFFERING_STREAMING)
		return 0;
	r = sd_event_add_time_relative(m->event, &t->retry_timer,
				       CLOCK_MONOTONIC,
				       MANAGER_WRITE_RETRY_USEC, 0,
				       on_write_retry, m);
	if (r >= 0)
		(void)sd_event_source_set_description(t->retry_timer,
						      "fxt-write-retry");
	return r;
}

static int open_archive(struct trace *t, int fd, char *note, size_t note_len)
{
	struct stat st;
	int r;

	if (fd < 0) {
		snprintf(note, note_len,
			 "no archive came with the request: tracectl opens the output and passes it");
		return -EBADF;
	}
	if (fstat(fd, &st) == 0) {
		t->archive_dev = st.st_dev;
		t->archive_ino = st.st_ino;
	}
	r = archive_open(fd, MANAGER_ARCHIVE_QUEUE_MAX, &t->archive);
	if (r < 0)
		snprintf(note, note_len, "cannot write %.400s: %s", t->output,
			 r == -EINVAL ? "not a regular file" :
			 r == -EBADF ? "not opened for writing" : strerror(-r));
	return r;
}

int trace_new(struct manager *m, const struct fxt_ctl_start *req,
	      uid_t owner, struct trace **ret, char *note,
	      size_t note_len)
{
	_cleanup_(trace_freep) struct trace *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->req = *req;
	t->mode = req->mode;
	r = trace_plan_memory(m, t, note, note_len);
	if (r < 0)
		return r;
	snprintf(t->categories, sizeof(t->categories), "%s", req->categories);
	snprintf(t->output, sizeof(t->output), "%s", req->output);
	snprintf(t->temp_name, sizeof(t->temp_name), "%s", req->temp_name);
	t->owner = owner;
	*ret = TAKE_PTR(t);
	return 0;
}

int trace_open_kernel(struct manager *m, struct trace *t,
		      enum fxt_ctl_kernel kernel,
		      const struct kernel_kept_fd *adopt, size_t nadopt,
		      char *note, size_t note_len)
{
	const struct kernel_source_config cfg = {
		.choice = kernel,
		.mode = t->mode,
		.bytes_per_cpu = t->req.kernel_buffer_size,
		.categories = t->categories,
		.syscall_pids = t->req.kernel_syscall_pids,
		.mem_interval_ns = m->mem_interval_ns,
		.sample_hz = t->req.sample_hz,
		.offcpu_min_ns = t->req.offcpu_min_ns,
		.provider_id = t->kernel_id,
		.archive = t->archive,
		.adopt = adopt,
		.nadopt = nadopt,
		.unwind_cache = m->unwind_cache,
	};

	return kernel_source_open(m->event, &cfg, &t->kernel, note, note_len);
}

/*
 * The archive (takes fd, also on failure), the kernel capture and the
 * timers: what a start and a resumed trace share.
 */
int trace_set_up(struct manager *m, struct trace *t, int archive_fd,
		 enum fxt_ctl_kernel kernel, const struct kernel_kept_fd *adopt,
		 size_t nadopt, uint64_t duration_ns, char *note,
		 size_t note_len)
{
	_cleanup_close_ int fd = archive_fd;
	int r;

	r = open_archive(t, fd, note, note_len);
	if (r < 0) {
		while (nadopt--)
			close(adopt[nadopt].fd);
		return r;
	}
	TAKE_FD(fd);
	if (!t->kernel_id)
		t->kernel_id = manager_next_id(m);
	r = trace_open_kernel(m, t, kernel, adopt, nadopt, note, note_len);
	if (r >= 0)
		r = trace_start_duration_timer(m, t, duration_ns);
	if (r >= 0)
		r = trace_start_retry_timer(m, t);
	return r;
}

/* The providers given a buffer in this trace, for a restart. */
static int list_provider(struct trace *t, const struct provider *p)
{
	struct trace_state_provider *l;

	l = reallocarray(t->listed, t->nlisted + 1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	t->listed = l;
	l = &t->listed[t->nlisted++];
	*l = (struct trace_state_provider){
		.id = p->id, .uid = p->uid, .pid = p->pid, .reserved = 1,
	};
	memcpy(l->name, p->name, sizeof(l->name));
	return 0;
}

/*
 * Every connected provider joins the new trace; those that got no
 * buffer for a budget are counted in note.
 */
static void join_all(struct manager *m, char *note, size_t note_len)
{
	unsigned int over_budget = 0, over_memory = 0;
	struct provider *p, *next;
	int r;

	for (p = m->providers; p; p = next) {
		next = p->next;
		r = trace_join(m, p);
		if (r == -EDQUOT)
			over_budget++;
		else if (r == -ENOSPC)
			over_memory++;
		else if (r < 0)
			log_full(LOG_WARNING, -r, PROVIDER_LOG_FIELDS(p),
				 "Provider %s[%d] could not join the trace",
				 p->name, (int)p->pid);
	}
	if (over_budget) {
		size_t used = strlen(note);

		snprintf(note + used, note_len - used,
			 "%s%u provider(s) got no buffer: their user's buffers reached its budget of %llu KiB (fxtraced --user-buffer-budget)",
			 used ? "; " : "", over_budget,
			 (unsigned long long)(m->user_buffer_budget >> 10));
	}
	if (over_memory) {
		size_t used = strlen(note);

		snprintf(note + used, note_len - used,
			 "%s%u provider(s) got no buffer: the trace's buffers reached its memory budget of %llu bytes",
			 used ? "; " : "", over_memory,
			 (unsigned long long)m->trace->req.memory_budget);
	}
}

/*
 * What a restarted manager resumes the trace from: rewritten whenever a
 * provider gets a buffer. Without it the trace still runs; a restart
 * would not resume it.
 */
void trace_save_state(struct manager *m)
{
	struct trace *t = m->trace;
	struct trace_state st = { 0 };

	if (!t || m->state_dir_fd < 0)
		return;
	m->trace_events->save_state(m, &st);
	st.req = t->req;
	memcpy(st.trace_id, t->uuid.bytes, sizeof(st.trace_id));
	st.owner = t->owner;
	st.kernel_id = t->kernel_id;
	st.next_provider_id = m->next_provider_id;
	st.started_ns = t->started_ns;
	st.clock_start = t->clock_start;
	st.archive_dev = t->archive_dev;
	st.archive_ino = t->archive_ino;
	st.finish_mark = t->finish_mark;
	trace_store_state(m, &st);
}

void trace_keep_triggers(struct manager *m, int dir_fd)
{
	if (!m->trace)
		return;
	trace_store_triggers_dir(m->trace, dir_fd);
	trace_save_state(m);
}

/*
 * The host and a reading of its clocks, at start right after the magic
 * number record, and a reading at stop. A trace goes on without them.
 */
static void mark_host(struct manager *m, struct trace *t, bool start)
{
	int r;

	if (start) {
		host_clock_read(&t->clock_start);
		r = host_mark_start(t->archive, manager_next_id(m), t->id,
				    &t->clock_start);
	} else {
		r = host_mark_stop(t->archive, manager_next_id(m));
	}
	if (r < 0)
		log_full(LOG_WARNING, -r, TRACE_LOG_FIELDS(t),
			 "Trace %s: cannot write the host and clock records to %s: %s",
			 t->id, t->output, strerror(-r));
}

int trace_start(struct manager *m, const struct fxt_ctl_start *req,
		int archive_fd, uid_t owner, char *note, size_t note_len)
{
	_cleanup_close_ int fd = archive_fd;
	_cleanup_(trace_freep) struct trace *t = NULL;
	int r;

	note[0] = '\0';
	if (m->trace) {
		snprintf(note, note_len,
			 "a trace is already running (to %s); stop it first with: tracectl stop",
			 m->trace->output);
		return -EBUSY;
	}
	r = trace_validate(req, note, note_len);
	if (r < 0)
		return r;
	r = trace_new(m, req, owner, &t, note, note_len);
	if (r < 0)
		return r;
	r = sd_id128_randomize(&t->uuid);
	if (r < 0)
		return r;
	sd_id128_to_string(t->uuid, t->id);
	r = trace_set_up(m, t, TAKE_FD(fd), req->kernel, NULL, 0,
			 req->duration_ns, note, note_len);
	if (r < 0)
		return r;
	r = archive_begin(t->archive);
	if (r < 0) {
		snprintf(note, note_len, "cannot write %.400s: %s", t->output,
			 strerror(-r));
		return r;
	}
	mark_host(m, t, true);
	t->started_ns = now_ns();
	log_full(LOG_INFO, 0, TRACE_LOG_FIELDS(t),
		 "Trace started: %s, trace %s%s%s, mode %u, kernel %s%s%s",
		 t->output, t->id, t->req.name[0] ? " named " : "",
		 t->req.name, t->mode, kernel_source_backend(t->kernel),
		 note[0] ? ": " : "", note);
	if (t->req.memory_budget)
		log_full(LOG_INFO, 0, TRACE_LOG_FIELDS(t),
			 "Trace %s: memory budget %llu bytes: %llu per provider buffer, kernel rings %llu per CPU x %u (%llu bytes in use)",
			 t->id, (unsigned long long)t->req.memory_budget,
			 (unsigned long long)t->buffer_size,
			 (unsigned long long)t->req.kernel_buffer_size,
			 t->ncpus, (unsigned long long)trace_memory_used(t));
	m->trace = TAKE_PTR(t);
	join_all(m, note, note_len);
	m->trace->state_live = true;
	trace_store_archive(m->trace);
	trace_store_kernel(m->trace);
	trace_save_state(m);
	m->trace_events->changed(m);
	return 0;
}

int trace_join(struct manager *m, struct provider *p)
{
	struct trace *t = m->trace;
	int r;

	if (!t || t->stopping || p->fd < 0 || p->in_trace)
		return 0;
	r = trace_check_budget(m, p);
	if (r < 0)
		return r;
	r = trace_check_memory_budget(m, p);
	if (r < 0)
		return r;
	r = provider_join_trace(p, t->mode, t->buffer_size, t->categories,
				t->uuid.bytes);
	if (r < 0 || !p->in_trace)
		return r;
	if (list_provider(t, p) < 0)
		log_warning("Out of memory: provider %s[%d] would not be resumed after a restart",
			    p->name, (int)p->pid);
	if (t->state_live)
		trace_save_state(m);
	return r;
}

/* The stop's answer: the trace's providers, its kernel rows, the result. */
static void answer_stop(struct manager *m, int error)
{
	struct trace *t = m->trace;
	struct provider *p;
	struct fxt_ctl_provider d;
	struct fxt_ctl_result res;
	char message[FXT_CTL_MESSAGE_MAX] = "";

	if (!t->stop_requester)
		return;
	for (p = m->providers; p; p = p->next) {
		if (!p->in_trace)
			continue;
		provider_describe(p, &d);
		(void)t->stop_reply(t->stop_requester, &d, sizeof(d));
	}
	(void)trace_send_kernel(m, t->stop_reply, t->stop_requester);
	if (!error && m->trace->write_error)
		snprintf(message, sizeof(message),
			 "writing %.400s failed for a while (%s); the providers kept their records meanwhile, drops are counted",
			 m->trace->output, strerror(-m->trace->write_error));
	else if (error == -ENOENT)
		snprintf(message, sizeof(message),
			 "the archive's file %.60s beside %.300s was removed during the trace",
			 m->trace->temp_name, m->trace->output);
	else if (error)
		snprintf(message, sizeof(message), "writing %.400s failed: %s",
			 m->trace->output, strerror(-error));
	trace_result(m, error, message, &res);
	(void)t->stop_reply(t->stop_requester, &res, sizeof(res));
}

struct provider *trace_next_provider(const struct manager *m, uint32_t after)
{
	struct provider *p, *best = NULL;

	for (p = m->providers; p; p = p->next)
		if (p->in_trace && p->id > after && (!best || p->id < best->id))
			best = p;
	return best;
}

/* Providers in id order, so archives list them as they connected. */
static int collect_providers(struct manager *m)
{
	struct trace *t = m->trace;
	struct provider *best;
	int r, first_error = 0;

	for (best = trace_next_provider(m, 0); best;
	     best = trace_next_provider(m, best->id)) {
		r = collect_provider(best, t->archive);
		if (r < 0 && !first_error)
			first_error = log_error_errno(r, "Failed to write provider %s[%d] to %s",
						      best->name, (int)best->pid, t->output);
	}
	return first_error;
}

/* What the writer could not put on disk after all leaves the counts. */
static int uncount_lost(struct manager *m, const struct archive_lost *lost,
			size_t nlost, int error)
{
	struct trace *t = m->trace;
	struct provider *p;
	size_t i;

	for (i = 0; i < nlost; i++) {
		if (t->kernel && lost[i].owner == kernel_source_id(t->kernel)) {
			kernel_source_lost(t->kernel, lost[i].records,
					   lost[i].bytes, error);
			continue;
		}
		for (p = m->providers; p; p = p->next) {
			if (p->id != lost[i].owner)
				continue;
			p->walk.records -= lost[i].records <= p->walk.records ?
						   lost[i].records : p->walk.records;
			p->walk.bytes -= lost[i].bytes <= p->walk.bytes ?
						 lost[i].bytes : p->walk.bytes;
		}
	}
	return nlost ? error : 0;
}

static void on_archive_written(struct archive *a, int fsync_error,
			       const struct archive_lost *lost, size_t nlost,
			       void *userdata);

/* The last of a trace's records, then the archive's writer finishes. */
static void finish_archive(struct manager *m)
{
	struct trace *t = m->trace;
	int r;

	mark_host(m, t, false);
	r = archive_finish(t->archive, m->event, on_archive_written, m);
	if (r < 0) {
		log_error_errno(r, "Failed to wait for the archive's writer");
		on_archive_written(t->archive, r, NULL, 0, m);
	}
}

static void on_kernel_finished(int result, void *userdata)
{
	struct manager *m = userdata;
	struct trace *t = m->trace;

	if (result < 0 && !t->collect_error)
		t->collect_error = log_error_errno(result, "Failed to write the kernel section to %s",
						   t->output);
	finish_archive(m);
}

/*
 * Everything still in the buffers goes to the writer, with no bound on
 * the queue; the result goes out once it is on disk (on_archive_written),
 * the event loop serving everyone else meanwhile: also while the kernel
 * section's stack frames are named (kernel_source_finish()).
 */
static void finish(struct manager *m)
{
	struct trace *t = m->trace;
	int r;

	if (t->finishing)
		return;
	t->finishing = true;
	t->retry_timer = sd_event_source_disable_unref(t->retry_timer);
	t->stop_timer = sd_event_source_disable_unref(t->stop_timer);
	t->resume_timer = sd_event_source_disable_unref(t->resume_timer);
	/* A restart from here on cuts back to this and collects again. */
	t->finish_mark = archive_bytes(t->archive) + 1;
	trace_save_state(m);
	archive_unbound(t->archive);
	t->collect_error = collect_providers(m);
	r = t->kernel ? kernel_source_finish(t->kernel, on_kernel_finished, m) : 0;
	if (r > 0)
		return;
	on_kernel_finished(r, m);
}

static void on_archive_written(struct archive *a, int fsync_error,
			       const struct archive_lost *lost, size_t nlost,
			       void *userdata)
{
	struct manager *m = userdata;
	struct trace *t = m->trace;
	struct provider *p, *next;
	struct archive_state st;
	bool removed;
	uint64_t bytes;
	int r, r2;

	archive_state(a, &st);
	note_write_state(t, &st);
	t->write_error = st.error;
	removed = st.removed;
	bytes = st.written;
	r = t->collect_error;
	r2 = uncount_lost(m, lost, nlost, st.error);
	if (r2 < 0 && !r)
		r = log_error_errno(r2, "Failed to write %s", t->output);
	if (fsync_error < 0 && !r)
		r = log_error_errno(fsync_error, "Failed to write %s", t->output);
	r2 = archive_close(t->archive);
	t->archive = NULL;
	if (r2 < 0 && !r)
		r = log_error_errno(r2, "Failed to write %s", t->output);
	if (removed) {
		r = -ENOENT;
		log_full(LOG_ERR, 0, TRACE_LOG_FIELDS(t),
			 "Trace %s: its file %s beside %s was removed during the trace",
			 t->id, t->temp_name, t->output);
	} else {
		log_full(r < 0 ? LOG_ERR : LOG_INFO, 0, TRACE_LOG_FIELDS(t),
			 "Trace written to %s, trace %s: %llu bytes%s",
			 t->output, t->id, (unsigned long long)bytes,
			 r < 0 ? ", incomplete" : "");
	}
	snprintf(m->last_output, sizeof(m->last_output), "%s", t->output);
	snprintf(m->last_temp_name, sizeof(m->last_temp_name), "%s",
		 t->temp_name);
	m->last_owner = t->owner;
	m->last_error = r;
	m->last_handed = !t->temp_name[0] ||
			 (t->stop_requester && t->stop_uid == t->owner);
	if (!m->last_handed)
		log_full(LOG_NOTICE, 0, TRACE_LOG_FIELDS(t),
			 "Trace %s is complete in %s beside %s: the next tracectl stop of uid %u puts it in place",
			 t->id, t->temp_name, t->output, (unsigned int)t->owner);
	t->written = true;
	if (m->state_dir_fd >= 0)
		trace_state_remove(m->state_dir_fd);
	trace_unstore_all(t);
	answer_stop(m, r);
	for (p = m->providers; p; p = next) {
		next = p->next;
		p->over_budget = p->over_memory_budget = false;
		if (p->in_trace)
			provider_leave_trace(p);
	}
	m->trace = trace_free(t);
	m->trace_events->finished(m);
}

static void finish_if_all_stopped(struct manager *m)
{
	struct provider *p;

	for (p = m->providers; p; p = p->next)
		if (p->in_trace && !p->stopped)
			return;
	finish(m);
}

static int on_stop_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;
	struct provider *p;

	for (p = m->providers; p; p = p->next)
		if (p->in_trace && !p->stopped)
			log_warning("Provider %s[%d] did not acknowledge STOP; reading its buffer as it is",
				    p->name, (int)p->pid);
	finish(m);
	return 0;
}

/* STOP to every provider; the archive is written once all answered. */
void trace_stop_providers(struct manager *m)
{
	struct trace *t = m->trace;
	struct provider *p;
	int r;

	t->resume_timer = sd_event_source_disable_unref(t->resume_timer);
	for (p = m->providers; p; p = p->next) {
		if (!p->in_trace || p->stopped || p->stop_sent)
			continue;
		if (provider_send_stop(p) < 0)
			p->stopped = true;	/* gone: read what is there */
	}
	r = sd_event_add_time_relative(m->event, &t->stop_timer,
				       CLOCK_MONOTONIC,
				       m->stop_timeout_usec, 0,
				       on_stop_timeout, m);
	if (r < 0) {
		log_warning_errno(r, "Failed to arm the stop timeout; not waiting for providers");
		finish(m);
		return;
	}
	(void)sd_event_source_set_description(t->stop_timer, "fxt-stop-timeout");
	m->trace_events->changed(m);
	finish_if_all_stopped(m);
}

static int on_resume_wait(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	log_full(LOG_WARNING, 0, TRACE_LOG_FIELDS(m->trace),
		 "Trace %s: %u provider(s) did not come back after the restart; their records are lost",
		 m->trace->id, m->trace->awaited);
	trace_stop_providers(m);
	return 0;
}

/*
 * A resumed trace: its providers reconnect within a second or two of the
 * restart; a stop waits for them until the deadline.
 */
static bool wait_for_resumes(struct manager *m)
{
	struct trace *t = m->trace;
	int r;

	if (!t->awaited)
		return false;
	r = sd_event_add_time(m->event, &t->resume_timer, CLOCK_MONOTONIC,
			      t->resume_deadline_usec, 0, on_resume_wait, m);
	if (r < 0)
		return false;
	(void)sd_event_source_set_description(t->resume_timer,
					      "fxt-resume-wait");
	log_full(LOG_INFO, 0, TRACE_LOG_FIELDS(t),
		 "Trace %s: the stop waits for %u provider(s) to come back after the restart",
		 t->id, t->awaited);
	return true;
}

static void set_requester(struct trace *t, reply_fn reply, void *ctx,
			  uid_t uid)
{
	t->stop_requester = ctx;
	t->stop_reply = reply;
	t->stop_uid = uid;
}

int trace_stop(struct manager *m, reply_fn reply, void *ctx, uid_t uid)
{
	struct trace *t = m->trace;

	if (!t)
		return -ESRCH;
	if (t->stopping) {
		if (t->stop_requester || !ctx)
			return -EALREADY;
		set_requester(t, reply, ctx, uid);
		return 0;
	}
	t->stopping = true;
	set_requester(t, reply, ctx, uid);
	m->trace_events->stopping(m);
	log_full(LOG_INFO, 0, TRACE_LOG_FIELDS(t), "Stopping trace %s (to %s)",
		 t->id, t->output);
	t->duration_timer = sd_event_source_disable_unref(t->duration_timer);
	t->retry_timer = sd_event_source_disable_unref(t->retry_timer);
	if (!wait_for_resumes(m))
		trace_stop_providers(m);
	else
		m->trace_events->changed(m);
	return 0;
}

void trace_provider_stopped(struct manager *m, struct provider *p)
{
	p->stopped = true;
	if (m->trace && m->trace->stopping)
		finish_if_all_stopped(m);
}

void trace_forget_requester(struct manager *m, const void *ctx)
{
	if (m->trace && m->trace->stop_requester == ctx)
		m->trace->stop_requester = NULL;
}

int trace_save(struct manager *m, struct provider *p,
	       const struct fxt_msg_save *save)
{
	struct trace *t = m->trace;
	int r;

	if (save->half > 1)
		return -EBADMSG;
	/* Late (the trace ended) or out of place: nothing to save. */
	if (!t || !p->in_trace || !t->archive || t->finishing ||
	    t->mode != FXT_BUFFERING_STREAMING) {
		log_debug("Ignoring SAVE from provider %s[%d]", p->name,
			  (int)p->pid);
		return 0;
	}
	/* Behind an unanswered one: in order, at the next retry. */
	if (p->pending_save[0] || p->pending_save[1]) {
		p->pending_save[save->half] = save->generation + 1;
		return 0;
	}
	r = collect_save(p, t->archive, save->half);
	if (r < 0) {
		p->pending_save[save->half] = save->generation + 1;
		return 0;
	}
	return send_saved(p, save->half, save->generation);
}

enum fxt_ctl_state trace_state(const struct manager *m)
{
	if (!m->trace)
		return FXT_CTL_STATE_IDLE;
	return m->trace->stopping ? FXT_CTL_STATE_STOPPING :
				    FXT_CTL_STATE_TRACING;
}

enum fxt_buffering_mode trace_mode(const struct manager *m)
{
	return m->trace->mode;
}

struct kernel_source *trace_kernel(const struct manager *m)
{
	return m->trace->kernel;
}

const struct fxt_clock_reading *trace_clock_start(const struct manager *m)
{
	return &m->trace->clock_start;
}

int trace_mark_command(struct manager *m, pid_t pid)
{
	struct trace *t = m->trace;

	if (!t || t->stopping || t->finishing)
		return -ESRCH;
	return command_mark_write(t->archive, manager_next_id(m), pid,
				  now_ns());
}

void trace_describe(const struct manager *m, struct fxt_ctl_result *res)
{
	const struct trace *t = m->trace;

	res->state = trace_state(m);
	if (!t) {
		snprintf(res->kernel, sizeof(res->kernel), "off");
		snprintf(res->output, sizeof(res->output), "%s",
			 m->last_output);
		if (!m->last_handed) {
			snprintf(res->temp_name, sizeof(res->temp_name), "%s",
				 m->last_temp_name);
			res->owner_uid = m->last_owner;
			res->archive_error = m->last_error;
		}
		return;
	}
	if (t->written) {	/* the stop result: the archive is done */
		snprintf(res->temp_name, sizeof(res->temp_name), "%s",
			 t->temp_name);
		res->owner_uid = t->owner;
		res->archive_error = m->last_error;
	}
	res->mode = t->mode;
	res->buffer_size = t->buffer_size;
	res->memory_budget = t->req.memory_budget;
	res->memory_used = trace_memory_used(t);
	snprintf(res->name, sizeof(res->name), "%s", t->req.name);
	res->elapsed_ns = now_ns() - t->started_ns;
	snprintf(res->kernel, sizeof(res->kernel), "%s",
		 kernel_source_backend(t->kernel));
	snprintf(res->output, sizeof(res->output), "%s", t->output);
}

void trace_result(const struct manager *m, int error, const char *message,
		  struct fxt_ctl_result *res)
{
	fxt_msg_init(res, FXT_MSG_CTL_RESULT, sizeof(*res));
	res->error = error;
	trace_describe(m, res);
	snprintf(res->message, sizeof(res->message), "%s",
		 message ? message : "");
}

void trace_log_fields(const struct manager *m, struct log_fields *f)
{
	*f = *TRACE_LOG_FIELDS(m->trace);
}

int trace_send_kernel(const struct manager *m, reply_fn reply, void *ctx)
{
	struct fxt_ctl_provider d[KERNEL_SOURCE_ROWS_MAX];
	size_t i, n;
	int r = 0;

	if (!m->trace || !m->trace->kernel)
		return 0;
	n = kernel_source_describe(m->trace->kernel, d,
				   KERNEL_SOURCE_ROWS_MAX);
	for (i = 0; i < n && r >= 0; i++)
		r = reply(ctx, &d[i], sizeof(d[i]));
	return r;
}
