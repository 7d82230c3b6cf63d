// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include <fxt/fxt_msg.h>
#include <fxt/fxt_sched_uapi.h>
#include "kernel_losses.h"
#include "kernel_source.h"
#include "log.h"
#include "record_walk.h"
#include "thread_job.h"

#include "kernel_session.h"
#include "stacks.h"
#include "profile_ingest.h"

struct kernel_source {
	struct kernel_session *session;
	sd_event *event;
	sd_event_source *io;
	sd_event_source *mem_timer;	/* kernel:mem's system counters */
	sd_event_source *map_timer;	/* stacks: processes' new mappings */
	struct stacks *stacks;	/* kernel:sample, kernel:offcpu */
	bool paused;		/* streaming: a write failed, the ring fills */
	struct archive *archive;
	uint32_t id;
	/* Read from the rings but not written: the archive lacks them. */
	uint64_t records_lost, bytes_lost;
	int lost_error;		/* why the first of them was lost */
	bool visited;
	bool in_drain;		/* section header written for this drain */
	uint64_t drain_records;	/* in this drain's chunk */
	bool stopped;
	/* Stopping: the stack samples' names, looked up off the loop. */
	struct thread_job *names;
	int stop_error;
	kernel_source_done_fn done;
	void *done_userdata;
};

static int write_to_archive(void *ctx, const void *data, size_t len)
{
	struct kernel_source *ks = ctx;
	int r = 0;

	if (!ks->in_drain) {
		/* kernel_session_drain() writes the initialization record. */
		r = archive_begin_section(ks->archive, ks->id, "kernel",
					  &ks->visited, false);
		ks->in_drain = r >= 0;
	}
	if (r >= 0)
		r = archive_write(ks->archive, data, len);
	if (r >= 0)
		ks->drain_records += record_walk_count(data, len);
	if (r < 0) {
		ks->records_lost += record_walk_count(data, len);
		ks->bytes_lost += len;
		if (!ks->lost_error)
			ks->lost_error = r;
	}
	return r;
}

static int drain(struct kernel_source *ks)
{
	int r;

	ks->in_drain = false;
	ks->drain_records = 0;
	r = kernel_session_drain(ks->session, write_to_archive, ks);
	ks->in_drain = false;
	/* Whole records, also when the drain stopped short. */
	(void)archive_commit(ks->archive, ks->id, ks->drain_records);
	return r;
}

struct snapshot_sink {
	struct archive *archive;
	uint32_t id;
	bool visited;
	uint64_t records;
};

static int write_to_snapshot(void *ctx, const void *data, size_t len)
{
	struct snapshot_sink *s = ctx;
	int r = 0;

	if (!s->visited)
		r = archive_begin_section(s->archive, s->id, "kernel",
					  &s->visited, false);
	if (r >= 0)
		r = archive_write(s->archive, data, len);
	if (r >= 0)
		s->records += record_walk_count(data, len);
	return r;
}

/* A snapshot is read without the trace's archive: its own losses record. */
static int write_snapshot_losses(const struct kernel_source *ks,
				 const struct kernel_session_stats *st,
				 struct snapshot_sink *s)
{
	uint64_t rec[KERNEL_LOSSES_RECORD_WORDS];
	struct stacks_losses l;

	kernel_losses_read(st, ks->stacks, true, &l);
	return write_to_snapshot(s, rec,
				 kernel_losses_record(&l, rec) * sizeof(*rec));
}

int kernel_source_snapshot(struct kernel_source *ks, struct archive *a)
{
	struct snapshot_sink s = { .archive = a, .id = ks->id };
	struct kernel_session_stats st = { 0 };
	int r = kernel_session_snapshot(ks->session, write_to_snapshot, &s);

	kernel_session_stats(ks->session, &st);
	if (r >= 0 && ks->stacks)
		r = write_snapshot_losses(ks, &st, &s);
	if (r >= 0 && st.dropped)
		r = archive_write_provider_event(a, ks->id,
						 FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
	if (r < 0)
		return r;
	return archive_commit(a, ks->id, s.records);
}

int kernel_source_arm_latency(struct kernel_source *ks, uint64_t threshold_ns)
{
	if (ks->stopped)
		return -ESRCH;
	return kernel_session_arm_latency(ks->session, threshold_ns);
}

uint64_t kernel_source_latency_exceeded(const struct kernel_source *ks)
{
	return kernel_session_latency_exceeded(ks->session);
}

void kernel_source_lost(struct kernel_source *ks, uint64_t records,
			uint64_t bytes, int error)
{
	ks->records_lost += records;
	ks->bytes_lost += bytes;
	if (!ks->lost_error)
		ks->lost_error = error;
}

uint32_t kernel_source_id(const struct kernel_source *ks)
{
	return ks->id;
}

static int on_kernel_data(sd_event_source *s, int fd, uint32_t revents,
			  void *userdata)
{
	struct kernel_source *ks = userdata;
	int r;

	/* The disk is behind: the records wait in the rings, not in memory. */
	if (archive_queue_busy(ks->archive)) {
		ks->io = sd_event_source_disable_unref(ks->io);
		ks->paused = true;
		return 0;
	}
	r = drain(ks);
	if (r < 0) {
		log_warning_errno(r, "Failed to write kernel records; kernel capture continues into its buffers, writing is tried again");
		ks->io = sd_event_source_disable_unref(ks->io);
		ks->paused = true;
	}
	return 0;
}

static int on_mem_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct kernel_source *ks = userdata;
	uint64_t interval = kernel_session_mem_interval(ks->session);

	kernel_session_sample_memory(ks->session);
	if (sd_event_source_set_time_relative(s, interval / 1000) < 0 ||
	    sd_event_source_set_enabled(s, SD_EVENT_ON) < 0)
		log_warning("kernel:mem: system counters no longer sampled");
	return 0;
}

static int on_map_timer(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct kernel_source *ks = userdata;

	stacks_follow(ks->stacks);
	if (sd_event_source_set_time_relative(s, STACKS_FOLLOW_NS / 1000) < 0 ||
	    sd_event_source_set_enabled(s, SD_EVENT_ON) < 0)
		log_warning("kernel:sample: new mappings are read at drains only");
	return 0;
}

/*
 * Stack samples: the files processes map are opened while they live,
 * whether or not the rings are drained (oneshot and circular traces are
 * drained at their end).
 */
static int follow_mappings(sd_event *event, struct kernel_source *ks)
{
	int r;

	if (!ks->stacks)
		return 0;
	r = sd_event_add_time_relative(event, &ks->map_timer, CLOCK_MONOTONIC,
				       STACKS_FOLLOW_NS / 1000,
				       STACKS_FOLLOW_NS / 4000, on_map_timer, ks);
	if (r >= 0)
		(void)sd_event_source_set_description(ks->map_timer,
						      "fxt-kernel-mappings");
	return r;
}

/* kernel:mem: a first sample now (vmstat's rates count from it), then on. */
static int sample_memory(sd_event *event, struct kernel_source *ks)
{
	uint64_t interval = kernel_session_mem_interval(ks->session);
	int r;

	if (!interval)
		return 0;
	kernel_session_sample_memory(ks->session);
	/* Accuracy 1 ms: sd-event's default (250 ms) would skip samples. */
	r = sd_event_add_time_relative(event, &ks->mem_timer, CLOCK_MONOTONIC,
				       interval / 1000, 1000, on_mem_timer, ks);
	if (r >= 0)
		(void)sd_event_source_set_description(ks->mem_timer,
						      "fxt-kernel-mem");
	return r;
}

static enum kernel_backend_choice backend_choice(enum fxt_ctl_kernel c)
{
	switch (c) {
	case FXT_CTL_KERNEL_KMOD:
		return KERNEL_BACKEND_KMOD;
	case FXT_CTL_KERNEL_BPF:
		return KERNEL_BACKEND_BPF;
	case FXT_CTL_KERNEL_OFF:
		return KERNEL_BACKEND_OFF;
	default:
		return KERNEL_BACKEND_AUTO;
	}
}

static int watch(sd_event *event, struct kernel_source *ks)
{
	int fd = kernel_session_event_fd(ks->session);
	int r;

	if (fd < 0)
		return 0;
	r = sd_event_add_io(event, &ks->io, fd, EPOLLIN, on_kernel_data, ks);
	if (r < 0)
		return r;
	(void)sd_event_source_set_description(ks->io, "fxt-kernel");
	return 0;
}

/*
 * Debian's and Ubuntu's kernels add a level 3 to kernel.perf_event_paranoid
 * (their default), at which perf_event_open() takes CAP_SYS_ADMIN:
 * CAP_PERFMON is not enough, and kernel:sample's timers are refused.
 */
static int perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int level = 0;

	if (f && fscanf(f, "%d", &level) != 1)
		level = 0;
	if (f)
		fclose(f);
	return level;
}

static void explain_failure(int r, uint32_t events, char *why,
			    size_t why_len)
{
	int paranoid = r == -EACCES && (events & FXT_SCHED_EV_SAMPLE) ?
			       perf_paranoid() : 0;

	if (paranoid > 2)
		snprintf(why, why_len,
			 "kernel:sample: perf_event_open() refused: kernel.perf_event_paranoid is %d, which allows it to CAP_SYS_ADMIN only; set it to 2 (sysctl kernel.perf_event_paranoid=2, see fxtraced(8))",
			 paranoid);
	else
		snprintf(why, why_len, "kernel capture failed: %s",
			 strerror(-r));
}

/* text, said in the journal and appended to why (for the starter). */
static void note_stacks(const char *text, char *why, size_t why_len)
{
	size_t used = strlen(why);

	log_warning("Stack samples: %s", text);
	if (used < why_len)
		snprintf(why + used, why_len - used, "%s%s", used ? "; " : "",
			 text);
}

/*
 * Stack samples whose kernel frames will be "[kernel]", or whose user
 * frames "[unknown]" (the mappings of programs could not be followed):
 * said once in the journal and to the starter, with what to do.
 */
static void note_unnamed_frames(const struct kernel_source *ks, char *why,
				size_t why_len)
{
	int err = kernel_session_ksyms_error(ks->session);
	int paranoid;
	char text[256];

	if (err == -EPERM)
		note_stacks("kernel frames will be \"[kernel]\": /proc/kallsyms shows fxtraced no addresses; give it CAP_SYSLOG (see fxtraced(8))",
			    why, why_len);
	else if (err) {
		snprintf(text, sizeof(text),
			 "kernel frames will be \"[kernel]\": cannot read /proc/kallsyms: %s (see fxtraced(8))",
			 strerror(-err));
		note_stacks(text, why, why_len);
	}
	err = stacks_tracker_error(ks->stacks);
	if (!err)
		return;
	paranoid = err == -EACCES || err == -EPERM ? perf_paranoid() : 0;
	if (paranoid > 2)
		snprintf(text, sizeof(text),
			 "user frames will be \"[unknown]\": perf_event_open() refused, kernel.perf_event_paranoid is %d; set it to 2 (see fxtraced(8))",
			 paranoid);
	else
		snprintf(text, sizeof(text),
			 "user frames will be \"[unknown]\": cannot follow the programs' mappings: %s (see fxtraced(8))",
			 strerror(-err));
	note_stacks(text, why, why_len);
}

int kernel_source_open(sd_event *event, const struct kernel_source_config *cfg,
		       struct kernel_source **ret, char *why, size_t why_len)
{
	enum fxt_ctl_kernel choice = cfg->choice;
	struct kernel_session_config session = {
		.backend = backend_choice(choice),
		.mode = cfg->mode,
		.buffer_bytes_per_cpu = cfg->bytes_per_cpu,
		.mem_interval_ns = cfg->mem_interval_ns,
		.sample_hz = cfg->sample_hz,
		.offcpu_min_ns = cfg->offcpu_min_ns,
		.adopt_fds = cfg->adopt,
		.nadopt = cfg->nadopt,
		.unwind_cache = cfg->unwind_cache,
	};
	size_t nadopt = cfg->nadopt;
	struct kernel_source *ks;
	int r;

	*ret = NULL;
	why[0] = '\0';
	memcpy(session.syscall_pids, cfg->syscall_pids,
	       sizeof(session.syscall_pids));
	r = choice == FXT_CTL_KERNEL_OFF ?
		    0 :
		    kernel_categories_parse(cfg->categories, &session.events,
					    why, why_len);
	ks = r < 0 || choice == FXT_CTL_KERNEL_OFF ? NULL :
						     calloc(1, sizeof(*ks));
	if (!ks) {
		/* What was kept is taken in all cases. */
		while (nadopt--)
			close(cfg->adopt[nadopt].fd);
		if (choice == FXT_CTL_KERNEL_OFF)
			return 0;
		return r < 0 ? r : -ENOMEM;
	}
	ks->archive = cfg->archive;
	ks->event = event;
	ks->id = cfg->provider_id;
	/* Before capture: mappings are tracked before the first sample. */
	r = stacks_new(session.events, session.nadopt > 0, &ks->stacks);
	session.stacks = stacks_hook(ks->stacks);
	session.py_procs = stacks_python(ks->stacks);
	if (r >= 0)
		r = kernel_session_open(&ks->session, &session, why, why_len);
	if (r >= 0 && !session.nadopt)
		r = kernel_session_start(ks->session);
	if (r >= 0 && cfg->mode == FXT_BUFFERING_STREAMING)
		r = watch(event, ks);
	if (r >= 0)
		r = sample_memory(event, ks);
	if (r >= 0)
		r = follow_mappings(event, ks);
	if (r >= 0)
		note_unnamed_frames(ks, why, why_len);
	if (r < 0) {
		if (!why[0])
			explain_failure(r, session.events, why, why_len);
		kernel_source_free(ks);
		return choice == FXT_CTL_KERNEL_AUTO ? 0 : r;
	}
	*ret = ks;
	return 0;
}

size_t kernel_source_keep_fds(const struct kernel_source *ks,
			      struct kernel_kept_fd *out, size_t max)
{
	return ks ? kernel_session_keep_fds(ks->session, out, max) : 0;
}

const char *kernel_source_backend(const struct kernel_source *ks)
{
	return ks ? kernel_session_backend(ks->session) : "off";
}

int kernel_source_resume(struct kernel_source *ks)
{
	int r;

	if (!ks->paused || archive_queue_busy(ks->archive))
		return 0;
	r = drain(ks);
	if (r >= 0)
		r = watch(ks->event, ks);
	ks->paused = r < 0;
	return r;
}

/*
 * Readers of the archive alone learn of kernel drops and of the stack
 * samples' losses from these records (after the names: their losses are
 * in). The records written that count (the losses'), or -errno.
 */
static int write_drops(struct kernel_source *ks)
{
	uint64_t rec[KERNEL_LOSSES_RECORD_WORDS];
	struct kernel_session_stats st = { 0 };
	struct stacks_losses l;
	int r = 0;

	kernel_session_stats(ks->session, &st);
	if (st.perfetto_dropped)
		log_warning("%" PRIu64 " stack samples are in the archive but not in its Perfetto data (it keeps %u at most)",
			    st.perfetto_dropped, PROFILE_PERFETTO_SAMPLES_MAX);
	kernel_losses_read(&st, ks->stacks, false, &l);
	if (ks->stacks)
		kernel_losses_log(&l);
	if (!st.dropped && !ks->stacks)
		return 0;
	r = archive_begin_section(ks->archive, ks->id, "kernel", &ks->visited,
				  false);
	if (r >= 0 && st.dropped)
		r = archive_write_provider_event(
			ks->archive, ks->id, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
	if (r < 0 || !ks->stacks)
		return r < 0 ? r : 0;
	r = archive_write(ks->archive, rec,
			  kernel_losses_record(&l, rec) * sizeof(*rec));
	return r < 0 ? r : 1;
}

/* The end of a stop: drops, the section committed, the result. */
static int finish_rest(struct kernel_source *ks, int r)
{
	int written = 0;

	if (r >= 0)
		r = written = write_drops(ks);
	(void)archive_commit(ks->archive, ks->id,
			     written > 0 ? (uint64_t)written : 0);
	if (r >= 0)
		r = ks->lost_error;
	return ks->stop_error < 0 ? ks->stop_error : r;
}

/* On its thread: only the session's stack tables and symbols are used. */
static int write_names(void *arg, thread_job_write_fn write, void *ctx)
{
	struct kernel_source *ks = arg;

	return kernel_session_write_names(ks->session, write, ctx);
}

/* Back on the event loop: what the thread wrote goes to the archive. */
static void on_names_written(struct thread_job *job, int result,
			     void *userdata)
{
	struct kernel_source *ks = userdata;

	ks->in_drain = false;
	ks->drain_records = 0;
	if (result >= 0)
		result = thread_job_replay(job, write_to_archive, ks);
	ks->in_drain = false;
	(void)archive_commit(ks->archive, ks->id, ks->drain_records);
	thread_job_free(ks->names);
	ks->names = NULL;
	ks->done(finish_rest(ks, result), ks->done_userdata);
}

int kernel_source_finish(struct kernel_source *ks, kernel_source_done_fn done,
			 void *userdata)
{
	int r;

	ks->io = sd_event_source_disable_unref(ks->io);
	ks->mem_timer = sd_event_source_disable_unref(ks->mem_timer);
	ks->map_timer = sd_event_source_disable_unref(ks->map_timer);
	ks->stop_error = kernel_session_stop(ks->session);
	ks->stopped = true;
	r = drain(ks);
	if (r < 0 || !kernel_session_names_pending(ks->session))
		return finish_rest(ks, r);
	ks->done = done;
	ks->done_userdata = userdata;
	r = thread_job_start(ks->event, "fxt-kernel-names", write_names, ks,
			     on_names_written, ks, &ks->names);
	if (r >= 0)
		return 1;
	/* No thread: on the event loop, as the names cannot wait. */
	log_warning_errno(r, "Failed to start a thread for the stack samples' names; naming them on the event loop");
	ks->in_drain = false;
	ks->drain_records = 0;
	r = kernel_session_write_names(ks->session, write_to_archive, ks);
	ks->in_drain = false;
	(void)archive_commit(ks->archive, ks->id, ks->drain_records);
	return finish_rest(ks, r);
}

/* The kernel row, then one row per selected category; returns how many. */
size_t kernel_source_describe(const struct kernel_source *ks,
			      struct fxt_ctl_provider *out, size_t max)
{
	struct kernel_category_stats cat[KERNEL_SOURCE_ROWS_MAX - 1];
	struct kernel_session_stats st = { 0 };
	size_t i, n, losses;

	fxt_msg_init(out, FXT_MSG_CTL_PROVIDER, sizeof(*out));
	kernel_session_stats(ks->session, &st);
	out->id = ks->id;
	out->flags = FXT_CTL_PROVIDER_KERNEL | FXT_CTL_PROVIDER_TRACING;
	out->records = st.records > ks->records_lost ?
			       st.records - ks->records_lost : 0;
	out->bytes = st.bytes > ks->bytes_lost ? st.bytes - ks->bytes_lost : 0;
	out->records_dropped = st.dropped;
	snprintf(out->name, sizeof(out->name), "kernel");
	/* Room kept for the losses' rows. */
	losses = ks->stacks ? FXT_STACK_LOSS_COUNT : 0;
	n = kernel_session_category_stats(ks->session, cat,
					  max > 1 + losses ? max - 1 - losses :
							     0);
	for (i = 0; i < n; i++) {
		struct fxt_ctl_provider *row = &out[1 + i];

		fxt_msg_init(row, FXT_MSG_CTL_PROVIDER, sizeof(*row));
		row->id = ks->id;
		row->flags = out->flags | FXT_CTL_PROVIDER_CATEGORY;
		row->records = cat[i].records;
		row->records_dropped = cat[i].dropped;
		snprintf(row->name, sizeof(row->name), "%s%s%s%s", cat[i].name,
			 cat[i].missing ? " (no tracepoint)" : "",
			 cat[i].refused ? " (program refused)" : "",
			 cat[i].unnamed_kernel_frames ?
				 " (kernel frames unnamed)" : "");
	}
	if (losses && 1 + n + losses <= max) {
		struct stacks_losses l;

		kernel_losses_read(&st, ks->stacks, false, &l);
		n += kernel_losses_rows(&l, ks->id, &out[1 + n]);
	}
	return 1 + n;
}

struct kernel_source *kernel_source_free(struct kernel_source *ks)
{
	if (!ks)
		return NULL;
	sd_event_source_disable_unref(ks->io);
	sd_event_source_disable_unref(ks->mem_timer);
	sd_event_source_disable_unref(ks->map_timer);
	/* Its thread uses the session: it ends first. */
	thread_job_free(ks->names);
	if (ks->session) {
		if (!ks->stopped)
			(void)kernel_session_stop(ks->session);
		kernel_session_close(ks->session);
	}
	/* The session's hook: after it. */
	stacks_free(ks->stacks);
	free(ks);
	return NULL;
}
