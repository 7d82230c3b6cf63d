// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include <fxt/fxt_sched_uapi.h>

#include "profile_ingest.h"
#include "profile_sources.h"
#include "stacks.h"

struct stacks {
	struct profile_sources *src;
	struct profile_resolver r;
	struct profile_ingest *ingest; /* the trace's */
	/* The last snapshot's own ingest's counts, kept for its record. */
	struct profile_ingest_stats snapshot;
};

/* 1..255, at random: the generations of one trace differ (1 in 255). */
static uint8_t new_generation(void)
{
	uint8_t g = 0;

	while (!g)
		if (getrandom(&g, sizeof(g), 0) != sizeof(g))
			g = (uint8_t)(1 + (uint64_t)time(NULL) % 255);
	return g;
}

int stacks_new(uint32_t events, bool adopted, struct stacks **ret)
{
	struct stacks *s;
	int err;

	*ret = NULL;
	if (!(events & FXT_SCHED_EV_STACKS))
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = profile_sources_new("/proc/kallsyms", true, &s->src);
	if (!err) {
		profile_sources_resolver(s->src, &s->r);
		err = profile_ingest_new(&s->r, 0, 0, &s->ingest);
	}
	if (!err && adopted)
		profile_ingest_set_generation(s->ingest, new_generation());
	if (err) {
		stacks_free(s);
		return err;
	}
	*ret = s;
	return 0;
}

void stacks_free(struct stacks *s)
{
	if (!s)
		return;
	profile_ingest_free(s->ingest);
	profile_sources_free(s->src);
	free(s);
}

void stacks_follow(struct stacks *s)
{
	profile_sources_follow(s->src);
}

int stacks_tracker_error(const struct stacks *s)
{
	struct profile_sources_status st;

	if (!s)
		return 0;
	profile_sources_status(s->src, &st);
	return st.tracker_error;
}

void stacks_losses(const struct stacks *s, bool snapshot,
		   struct stacks_losses *l)
{
	struct profile_ingest_stats ps;
	struct profile_sources_status ss;
	uint64_t *c = l->count;

	if (!s)
		return;
	if (snapshot)
		ps = s->snapshot;
	else
		profile_ingest_stats(s->ingest, &ps);
	profile_sources_status(s->src, &ss);
	c[FXT_STACK_LOSS_KERNEL_DEPTH_LIMIT] += ps.kernel_depth_limit;
	c[FXT_STACK_LOSS_USER_DEPTH_LIMIT] += ps.user_depth_limit;
	c[FXT_STACK_LOSS_USER_READ_FAULT] += ps.user_read_fault;
	c[FXT_STACK_LOSS_LEAF_CALLER_UNREAD] += ps.leaf_caller_unknown;
	c[FXT_STACK_LOSS_JUNK_FRAME_WORD] += ps.junk_frame_word;
	/* The module's copied stacks, unwound here (BPF's: in the kernel). */
	c[FXT_STACK_LOSS_UNWIND_UNSUPPORTED] += ps.unwind_unsupported;
	c[FXT_STACK_LOSS_UNWIND_READ_FAULT] += ps.unwind_read_fault;
	c[FXT_STACK_LOSS_UNWIND_BAD_FRAME] += ps.unwind_bad_frame;
	l->copies_unwound += ps.unwind_walks;
	c[FXT_STACK_LOSS_PYTHON_UNNAMED] += ps.python_unnamed;
	c[FXT_STACK_LOSS_MAPPINGS_DROPPED] += ss.maps.dropped;
	c[FXT_STACK_LOSS_MAPPINGS_LOST] += ss.maps.lost;
	c[FXT_STACK_LOSS_UNNAMED_UNREADABLE] += ss.files_unreadable;
	c[FXT_STACK_LOSS_UNNAMED_UNOPENED] += ss.files_unopened;
	c[FXT_STACK_LOSS_UNNAMED_TOO_LARGE] += ss.usyms.too_large;
	c[FXT_STACK_LOSS_UNNAMED_OVER_BUDGET] +=
		ss.usyms.over_budget + ss.usyms.files_refused;
	if (ss.files_error)
		l->files_error = ss.files_error;
	l->jit_maps_read += ss.jit.read;
	l->jit_lines_skipped += ss.jit.lines.malformed + ss.jit.lines.too_long +
				ss.jit.lines.over_entries;
	l->jit_maps_cut +=
		ss.jit.lines.over_bytes + ss.jit.over_procs + ss.jit.over_memory;
	l->jit_dumps_read += ss.jit.dumps_read;
	l->jit_records_skipped +=
		ss.jit.dump.malformed + ss.jit.dump.over_records;
	l->jit_dumps_refused += ss.jit.dumps_refused;
	l->jit_dumps_unsupported += ss.jit.dump.refused;
	l->jit_dumps_truncated += ss.jit.dump.truncated;
}

static int hook_sink(void *ctx, bool snapshot, void **ret)
{
	struct stacks *s = ctx;

	if (!snapshot) {
		*ret = s->ingest;
		return 0;
	}
	/* Its own tables: the snapshot is read without the archive. */
	return profile_ingest_new(&s->r, 0, 0, (struct profile_ingest **)ret);
}

static void hook_sink_free(void *ctx, void *sink)
{
	struct stacks *s = ctx;

	if (sink == s->ingest)
		return;
	profile_ingest_stats(sink, &s->snapshot);
	profile_ingest_free(sink);
}

static int hook_record(void *sink, const uint64_t *rec, size_t words,
		       kernel_emit_fn emit, void *emit_ctx)
{
	return profile_ingest_record(sink, rec, words, emit, emit_ctx);
}

static int hook_finish(void *ctx, void *sink, kernel_emit_fn emit,
		       void *emit_ctx)
{
	struct stacks *s = ctx;
	struct timespec ts;
	struct usyms_budget b = { .bytes = 0 };

	clock_gettime(CLOCK_MONOTONIC, &ts);
	b.deadline_ns = (uint64_t)ts.tv_sec * 1000000000ull +
			(uint64_t)ts.tv_nsec + STACKS_SYMBOLS_NS;
	profile_sources_set_budget(s->src, &b);
	return profile_ingest_finish(sink, emit, emit_ctx);
}

static void hook_refresh(void *ctx)
{
	struct stacks *s = ctx;

	profile_sources_refresh(s->src);
}

static int hook_ksyms_error(void *ctx)
{
	struct stacks *s = ctx;
	struct profile_sources_status st;

	profile_sources_status(s->src, &st);
	return st.ksyms_error;
}

static void hook_add_stats(void *ctx, struct kernel_session_stats *st)
{
	struct stacks *s = ctx;
	struct profile_ingest_stats ps;

	profile_ingest_stats(s->ingest, &ps);
	st->dropped += ps.dropped;
	st->event_dropped[FXT_SCHED_EV_BIT_SAMPLE] +=
		ps.dropped - ps.dropped_offcpu;
	st->event_dropped[FXT_SCHED_EV_BIT_OFFCPU] += ps.dropped_offcpu;
	st->perfetto_dropped += ps.perfetto_dropped;
}

static const struct kernel_stacks_ops stacks_ops = {
	.sink = hook_sink,
	.sink_free = hook_sink_free,
	.record = hook_record,
	.finish = hook_finish,
	.refresh = hook_refresh,
	.add_stats = hook_add_stats,
	.ksyms_error = hook_ksyms_error,
};

struct py_procs *stacks_python(struct stacks *s)
{
	return s ? profile_sources_python(s->src) : NULL;
}

struct kernel_stacks_hook stacks_hook(struct stacks *s)
{
	return (struct kernel_stacks_hook){ .ops = s ? &stacks_ops : NULL,
					    .ctx = s };
}
