// SPDX-License-Identifier: GPL-2.0-only
/*
 * A snapshot of a running circular trace. Each provider's section holds,
 * after its provider info and initialization records, a buffer overflow
 * event if it dropped (or overwrote) records, its durable area (the
 * string, thread and name records its events use), then its rolling
 * halves, oldest first; the kernel's section what its rings hold
 * (kernel_source_snapshot()).
 *
 * Nothing waits for the providers. A half is copied privately with its
 * generation read before and after (a seqlock's read side: the provider
 * marks a half clearing before it clears it for reuse, provider_abi.h),
 * and left out whole when the generation moved or was clearing: a record
 * overwritten while it was copied is never written torn. The
 * durable area only grows while the trace runs; it is copied after the
 * halves, so it holds every record their events refer to.
 *
 * Before the sections: the host record (with an id of the snapshot's
 * own) and the trace's start reading of the clocks; after them, a
 * reading taken then as the snapshot's stop (host_mark.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive.h"
#include "cleanup.h"
#include "host_mark.h"
#include <fxt/fxt_msg.h>
#include "kernel_source.h"
#include "log.h"
#include "manager_state.h"
#include "provider.h"
#include "record_walk.h"
#include "snapshot.h"
#include "trace.h"

struct snapshot {
	struct snapshot *next;
	struct manager *manager;
	void *requester;	/* gets the RESULT through reply; NULL */
	reply_fn reply;
	snapshot_done_fn done;
	void *done_userdata;
	struct archive *archive;
	char output[FXT_CTL_PATH_MAX];
	char temp_name[FXT_CTL_NAME_MAX];
	uid_t owner;
	int error;		/* of the copy, before the writer's */
};

struct area_copy {
	void *data;
	size_t len;
	uint64_t chunk;		/* 0: the durable area */
	bool lost;		/* reused while it was copied */
};

static void area_copy_clear(struct area_copy *c)
{
	free(c->data);
	c->data = NULL;
	c->len = 0;
}

/* Half h as it is now, or nothing if the provider reused it meanwhile. */
static int copy_half(const struct provider_buffer *b, unsigned int h,
		     struct area_copy *out, uint64_t *generation)
{
	struct provider_buffer_state before, after;
	int r;

	provider_buffer_state(b, &before);
	r = provider_buffer_copy_area(b, PROVIDER_AREA_ROLLING0 + h, false,
				      &out->data, &out->len);
	if (r < 0)
		return r;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	provider_buffer_state(b, &after);
	out->chunk = b->chunk_size;
	*generation = before.rolling_generation[h];
	out->lost = (before.rolling_generation[h] &
		     FXT_BUFFER_GENERATION_CLEARING) ||
		    after.rolling_generation[h] != before.rolling_generation[h];
	if (out->lost || !before.rolling_generation[h])
		area_copy_clear(out);
	return 0;
}

static int emit_to_archive(void *ctx, const void *data, size_t len)
{
	return archive_write(ctx, data, len);
}

static int write_area(struct archive *a, const struct area_copy *c,
		      struct record_walk_stats *st)
{
	size_t walked;

	if (!c->len)
		return 0;
	return record_walk_chunks(c->data, c->len, c->chunk, st, &walked,
				  emit_to_archive, a);
}

/*
 * Both halves, the older first: it is the one the provider reuses next.
 * A half reused meanwhile is gone, but then the other is complete and
 * the reused one the new current: copying again gets both, unless the
 * provider wraps faster than a half is copied (a manager preempted on a
 * busy machine). Then the newest half any try got whole is kept, so the
 * snapshot still holds what the provider wrote last.
 */
#define SNAPSHOT_HALF_TRIES 8

static int copy_halves(const struct provider_buffer *b,
		       struct area_copy half[2], uint64_t generation[2])
{
	struct area_copy kept = { 0 };
	uint64_t kept_generation = 0;
	struct provider_buffer_state st;
	unsigned int try, oldest, h, kept_half = 0;
	int r = 0;

	for (try = 0; try < SNAPSHOT_HALF_TRIES; try++) {
		area_copy_clear(&half[0]);
		area_copy_clear(&half[1]);
		provider_buffer_state(b, &st);
		oldest = st.rolling_generation[1] < st.rolling_generation[0];
		r = copy_half(b, oldest, &half[oldest], &generation[oldest]);
		if (r >= 0)
			r = copy_half(b, !oldest, &half[!oldest],
				      &generation[!oldest]);
		if (r < 0 || (!half[0].lost && !half[1].lost))
			break;
		for (h = 0; h < 2; h++) {
			if (!half[h].len || generation[h] < kept_generation)
				continue;
			area_copy_clear(&kept);
			kept = half[h];
			half[h] = (struct area_copy){ 0 };
			kept_half = h;
			kept_generation = generation[h];
		}
	}
	if (r >= 0 && !half[0].len && !half[1].len && kept.len) {
		half[kept_half] = kept;
		generation[kept_half] = kept_generation;
	} else {
		area_copy_clear(&kept);
	}
	return r;
}

static int snapshot_provider(struct provider *p, struct archive *a)
{
	const struct provider_buffer *b = &p->buffer;
	struct area_copy half[2] = { 0 }, durable = { 0 };
	struct record_walk_stats st = { 0 };
	struct provider_buffer_state now;
	uint64_t generation[2] = { 0 };
	bool visited = false;
	unsigned int i, oldest;
	int r;

	r = copy_halves(b, half, generation);
	if (r >= 0)
		r = provider_buffer_copy_area(b, PROVIDER_AREA_DURABLE, false,
					      &durable.data, &durable.len);
	if (r < 0)
		goto out;
	provider_buffer_state(b, &now);
	r = archive_begin_section(a, p->id, p->name, &visited, true);
	if (r >= 0 && now.records_dropped)
		r = archive_write_provider_event(a, p->id,
						 FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
	if (r >= 0 && p->recovered)
		r = archive_write_provider_event(a, p->id,
						 FXT_PROVIDER_EVENT_RECOVERED);
	if (r >= 0)
		r = write_area(a, &durable, &st);
	oldest = half[1].len && generation[1] < generation[0];
	for (i = 0; i < 2 && r >= 0; i++)
		r = write_area(a, &half[(oldest + i) % 2], &st);
	if (r >= 0)
		r = archive_commit(a, p->id, st.records);
out:
	area_copy_clear(&half[0]);
	area_copy_clear(&half[1]);
	area_copy_clear(&durable);
	return r;
}

/* The host and clock records: a snapshot goes on without them. */
static void mark_host(struct manager *m, struct archive *a, bool start)
{
	int r = start ? host_mark_start(a, manager_next_id(m), NULL,
					trace_clock_start(m)) :
			host_mark_stop(a, manager_next_id(m));

	if (r < 0)
		log_warning_errno(r, "Failed to write the host and clock records of a snapshot");
}

/*
 * The host and the trace's start, providers in id order as the stop
 * writes them, the kernel, then the clocks now.
 */
static int snapshot_sources(struct manager *m, struct archive *a)
{
	struct kernel_source *kernel = trace_kernel(m);
	struct provider *best;
	int r;

	mark_host(m, a, true);
	for (best = trace_next_provider(m, 0); best;
	     best = trace_next_provider(m, best->id)) {
		r = snapshot_provider(best, a);
		if (r < 0)
			return log_error_errno(r, "Failed to copy provider %s[%d] for a snapshot",
					       best->name, (int)best->pid);
	}
	r = kernel ? kernel_source_snapshot(kernel, a) : 0;
	if (r < 0)
		return log_error_errno(r, "Failed to copy the kernel rings for a snapshot");
	mark_host(m, a, false);
	return 0;
}

static struct snapshot *snapshot_free(struct snapshot *s)
{
	struct snapshot **pp;

	if (!s)
		return NULL;
	for (pp = &s->manager->snapshots; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	(void)archive_close(s->archive);
	free(s);
	return NULL;
}

DEFINE_TRIVIAL_CLEANUP_FUNC(struct snapshot *, snapshot_free);

static void send_result(struct snapshot *s, int error, uint64_t bytes)
{
	struct fxt_ctl_result res;

	if (!s->requester)
		return;
	fxt_msg_init(&res, FXT_MSG_CTL_RESULT, sizeof(res));
	trace_describe(s->manager, &res);
	res.error = 0;
	res.archive_error = error;
	snprintf(res.output, sizeof(res.output), "%s", s->output);
	snprintf(res.temp_name, sizeof(res.temp_name), "%s", s->temp_name);
	res.owner_uid = s->owner;
	if (error)
		snprintf(res.message, sizeof(res.message),
			 "writing the snapshot failed: %s", strerror(-error));
	else
		snprintf(res.message, sizeof(res.message),
			 "snapshot of %llu bytes", (unsigned long long)bytes);
	(void)s->reply(s->requester, &res, sizeof(res));
}

static void on_snapshot_written(struct archive *a, int fsync_error,
				const struct archive_lost *lost, size_t nlost,
				void *userdata)
{
	struct snapshot *s = userdata;
	struct archive_state st;
	int r = s->error, r2;

	archive_state(a, &st);
	if (!r && nlost)
		r = st.error ? st.error : -EIO;
	if (!r && fsync_error < 0)
		r = fsync_error;
	r2 = archive_close(a);
	s->archive = NULL;
	if (!r && r2 < 0)
		r = r2;
	/* The manager's own (a trigger's) is unnamed until done links it. */
	if (!r && st.removed && !s->done)
		r = -ENOENT;
	log_full(r < 0 ? LOG_ERR : LOG_INFO, -r, NULL,
		 "Snapshot written to %s: %llu bytes%s", s->output,
		 (unsigned long long)st.written, r < 0 ? ", incomplete" : "");
	send_result(s, r, st.written);
	if (s->done)
		s->done(s->done_userdata, r, st.written);
	snapshot_free(s);
}

static int validate(const struct fxt_ctl_snapshot *req, char *note,
		    size_t note_len)
{
	if (req->output[0] != '/' ||
	    !memchr(req->output, '\0', sizeof(req->output))) {
		snprintf(note, note_len, "the output path must be absolute");
		return -EINVAL;
	}
	if (!memchr(req->temp_name, '\0', sizeof(req->temp_name)) ||
	    !req->temp_name[0] || strchr(req->temp_name, '/') ||
	    !strcmp(req->temp_name, ".") || !strcmp(req->temp_name, "..")) {
		snprintf(note, note_len, "the temporary name is not a file name");
		return -EINVAL;
	}
	return 0;
}

static int check_circular(struct manager *m, char *note, size_t note_len)
{
	if (trace_state(m) != FXT_CTL_STATE_TRACING) {
		snprintf(note, note_len,
			 "no trace is running; start one with: tracectl start --mode circular");
		return -ESRCH;
	}
	if (trace_mode(m) != FXT_BUFFERING_CIRCULAR) {
		snprintf(note, note_len,
			 "snapshots need a circular trace (tracectl start --mode circular); this one keeps everything until: tracectl stop");
		return -EINVAL;
	}
	return 0;
}

/* Takes fd; on success the snapshot owns itself until it is written. */
static int start_snapshot(struct manager *m, reply_fn reply, void *ctx,
			  int fd, const char *output, const char *temp_name,
			  uid_t owner, snapshot_done_fn done, void *userdata,
			  char *note, size_t note_len)
{
	_cleanup_close_ int archive_fd = fd;
	_cleanup_(snapshot_freep) struct snapshot *s = NULL;
	int r;

	note[0] = '\0';
	r = check_circular(m, note, note_len);
	if (r < 0)
		return r;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->manager = m;
	s->next = m->snapshots;
	m->snapshots = s;
	snprintf(s->output, sizeof(s->output), "%s", output);
	snprintf(s->temp_name, sizeof(s->temp_name), "%s", temp_name);
	s->owner = owner;
	r = archive_open(archive_fd, MANAGER_ARCHIVE_QUEUE_MAX, &s->archive);
	if (r < 0) {
		snprintf(note, note_len, "cannot write %.400s: %s", s->output,
			 r == -EINVAL ? "not a regular file" :
			 r == -EBADF ? "not opened for writing" : strerror(-r));
		return r;
	}
	TAKE_FD(archive_fd);
	/* It is all in memory already: the writer only catches up. */
	archive_unbound(s->archive);
	r = archive_begin(s->archive);
	if (r < 0) {
		snprintf(note, note_len, "cannot write %.400s: %s", s->output,
			 strerror(-r));
		return r;
	}
	s->error = snapshot_sources(m, s->archive);
	s->requester = ctx;
	s->reply = reply;
	s->done = done;
	s->done_userdata = userdata;
	r = archive_finish(s->archive, m->event, on_snapshot_written, s);
	if (r < 0) {
		snprintf(note, note_len, "cannot write %.400s: %s", s->output,
			 strerror(-r));
		s->requester = NULL;
		s->done = NULL;
		return r;
	}
	TAKE_PTR(s);
	return 0;
}

int snapshot_take(struct manager *m, reply_fn reply, void *ctx,
		  const struct fxt_ctl_snapshot *req, int archive_fd,
		  uid_t owner, char *note, size_t note_len)
{
	_cleanup_close_ int fd = archive_fd;
	int r;

	note[0] = '\0';
	r = validate(req, note, note_len);
	if (r < 0)
		return r;
	if (fd < 0) {
		snprintf(note, note_len,
			 "no archive came with the request: tracectl opens the output and passes it");
		return -EBADF;
	}
	return start_snapshot(m, reply, ctx, TAKE_FD(fd), req->output,
			      req->temp_name, owner, NULL, NULL, note, note_len);
}

int snapshot_write(struct manager *m, int archive_fd, const char *output,
		   uid_t owner, snapshot_done_fn done, void *userdata,
		   char *note, size_t note_len)
{
	return start_snapshot(m, NULL, NULL, archive_fd, output, "", owner,
			      done, userdata, note, note_len);
}

void snapshot_free_all(struct manager *m)
{
	while (m->snapshots) {
		log_warning("Snapshot %s dropped: fxtraced is exiting",
			    m->snapshots->output);
		snapshot_free(m->snapshots);
	}
}

void snapshot_forget_requester(struct manager *m, const void *ctx)
{
	struct snapshot *s;

	for (s = m->snapshots; s; s = s->next)
		if (s->requester == ctx)
			s->requester = NULL;
}
