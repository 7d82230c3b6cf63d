/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a trace says at a glance, in one streaming pass and bounded
 * memory: CPU time and wakeup latency per thread (from the scheduling
 * records), busy time per CPU, time per slice name (with self time, nested
 * slices of the same thread excluded), drops per provider, and on request
 * a down-sampled CPU timeline for the HTML report.
 *
 * Definitions (the same as the tests' independent computation):
 * - a thread's CPU time is the sum of its stretches on a CPU, from its
 *   switch-in to the next context switch on that CPU; stretches still
 *   running at the end close at the last scheduling record's time;
 * - its wakeup latency runs from a wakeup record, while it is neither on a
 *   CPU nor already woken, to its next switch-in at or after the wakeup;
 * - a slice is a duration begin/end pair or a complete event; its self
 *   time is its duration minus the durations of the slices that end within
 *   it on the same thread and were not claimed by an inner one. Slices are
 *   matched in record order, as the provider wrote them, by slice_match.h
 *   (as tracectl export matches them).
 */
#ifndef FXT_TRACE_SUMMARY_H
#define FXT_TRACE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "async_spans.h"
#include "cpu_timeline.h"
#include "cpu_tracks.h"
#include "fxt_reader.h"
#include "hash_index.h"
#include "host_clock.h"
#include "latency_hist.h"
#include "memory_summary.h"
#include "name_cache.h"
#include "process_tree.h"
#include "slice_match.h"
#include "slice_nesting.h"
#include "slice_watch.h"
#include "stack_profile.h"
#include "stack_tables.h"
#include "summary_merged.h"

/*
 * The ceilings that bound memory whatever the input (under 60 MiB at
 * worst, a few MiB for real traces; the report's timeline adds CPUs x
 * 96 KiB, at most 256 CPUs drawn, and its memory chart under 2.3 MiB):
 * threads and slice names past these are counted, not kept
 * (names are cut at 256 bytes); histogram pages (512 bytes each) and
 * the threads' slice stacks come from budgets shared by all threads.
 */
#define SUMMARY_THREADS_MAX 65536u
#define SUMMARY_SLICES_MAX 16384u
#define SUMMARY_HIST_BYTES (16u << 20)
#define SUMMARY_STACK_BYTES (8u << 20)

struct summary_thread {
	uint64_t tid;
	uint64_t pid;		/* 0 until a record tells */
	uint64_t cpu_ns;
	uint64_t switches;	/* times switched in */
	uint64_t wake_ns;	/* of the pending wakeup */
	bool wake_pending;
	bool on_cpu;
	struct latency_hist latency;
	/* its ended slices not yet claimed (open ones: trace_summary.match) */
	struct slice_nesting nest;
};

struct summary_slice {
	char *category;		/* NUL-terminated copies */
	char *name;
	uint32_t category_len, name_len;
	uint64_t hash;
	uint64_t count;
	uint64_t nested; /* of count: inside an instance of itself */
	uint64_t async; /* of count: async spans (begin to end of an id) */
	uint64_t total_ns; /* outermost instances only */
	uint64_t self_ns;
	uint64_t max_ns;
	/* the slowest instance on a thread (async spans are not); tid 0: none */
	uint64_t max_tid, max_start_ns, max_end_ns;
};

struct summary_cpu {
	uint64_t busy_ns;
	bool seen;
};

struct summary_drops {
	uint32_t provider_id;
	uint64_t buffer_overflows;
};

struct trace_summary_options {
	bool timeline;		/* keep the down-sampled CPU and memory timelines */
	/* Called every few thousand records with the input bytes read. */
	void (*progress)(void *ctx, uint64_t bytes_read);
	void *progress_ctx;
	/* The processes to keep to (threads and slices of others are left out) */
	struct process_tree_options process;
	/* Keep the slowest slices of this name (slice_watch.h); NULL: none */
	const char *slice_name;
	/* ... of this category (with or without a name); NULL: any */
	const char *slice_category;
	size_t slice_top;	/* how many; 0: SLICE_WATCH_DEFAULT */
};

struct trace_summary {
	struct trace_summary_options opt;
	struct name_cache *names;
	struct cpu_tracks running;	/* what runs on each CPU */
	struct summary_cpu *cpus;
	unsigned int ncpus;	/* entries allocated */

	struct summary_thread *threads;
	uint32_t nthreads, threads_cap;
	struct hash_index thread_index;	/* by tid */
	uint64_t threads_untracked;	/* records of threads past the max */

	struct summary_slice *slices;
	uint32_t nslices, slices_cap;
	struct hash_index slice_index;	/* by slice_hash() */
	uint64_t slices_lumped;	/* into "(other)" past the max */

	struct hist_pool pool;
	struct slice_budget budget; /* SUMMARY_STACK_BYTES: slice stacks */
	/* open begins by (pid, tid), tagged with their slice; from budget */
	struct slice_match match;

	struct summary_drops *drops;
	size_t ndrops;

	bool have_ts;
	uint64_t first_ns, last_ns;
	uint64_t last_sched_ns;
	struct cpu_timeline timeline;
	struct process_tree tree;
	struct memory_summary memory;	/* kernel:mem */
	struct memory_timeline memory_timeline;	/* with the timeline option */
	struct fxt_host_clock host;	/* where and when it was taken */
	struct summary_merged merged;	/* a merge's inputs */
	/* stack samples (stack_tables.h); the profile is built at the end */
	struct stack_tables stacks;
	struct stack_profile profile;
	bool stacks_seen;
	struct slice_watch watch;
	struct async_spans async; /* open async spans (slices too) */
};

int trace_summary_init(struct trace_summary *s,
		       const struct trace_summary_options *opt);
void trace_summary_done(struct trace_summary *s);

/* Reads r to its end. 0, the reader's -errno, or -ENOMEM. */
int trace_summary_read(struct trace_summary *s, struct fxt_reader *r);

static inline uint64_t trace_summary_span_ns(const struct trace_summary *s)
{
	return s->have_ts ? s->last_ns - s->first_ns : 0;
}

/*
 * Threads that were scheduled or woken, of the processes kept to
 * (process_tree.h), by CPU time, most first (ties: tid). The array is
 * malloc'ed; NULL with *n 0 on ENOMEM.
 */
const struct summary_thread **
trace_summary_threads(const struct trace_summary *s, size_t *n);
/* Slices by total time, most first (ties: self time, then names). */
const struct summary_slice **
trace_summary_slices(const struct trace_summary *s, size_t *n);

/* The thread's name, its process id (0 if unknown) and process name. */
struct thread_names {
	const char *name;	/* "" when never named */
	size_t name_len;
	uint64_t pid;
	const char *process;
	size_t process_len;
};

void trace_summary_names(const struct trace_summary *s, uint64_t tid,
			 uint64_t pid, struct thread_names *out);

/* Whether thread t is of the processes the summary keeps to. */
bool trace_summary_keeps(const struct trace_summary *s,
			 const struct summary_thread *t);

/* The thread with this tid, or NULL. */
const struct summary_thread *
trace_summary_thread(const struct trace_summary *s, uint64_t tid);

#endif /* FXT_TRACE_SUMMARY_H */
