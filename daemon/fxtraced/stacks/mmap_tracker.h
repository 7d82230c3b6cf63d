/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Each process's executable file mappings while a trace runs, so that a
 * user PC is placed in its file even when the process exited before the
 * stop. Fed by one dummy software perf event per CPU (mmap2 with build
 * ids where the kernel gives them, comm with exec, fork and exit) and,
 * at start, by /proc/[pid]/maps of the processes that exist. Times are
 * CLOCK_BOOTTIME ns, as the trace's. Forks copy the parent's mappings,
 * execs end them, exits keep them (marked) until the tracker is freed.
 * Memory is bounded: mappings beyond a cap are dropped and counted.
 */
#ifndef FXT_KERNEL_MMAP_TRACKER_H
#define FXT_KERNEL_MMAP_TRACKER_H

#include <stddef.h>
#include <stdint.h>

struct mmap_tracker;

/* Opens the per-CPU events and reads /proc. -errno (-EACCES/-EPERM when
 * perf events are not allowed).
 */
int mmap_tracker_start(struct mmap_tracker **ret);

/*
 * Called for each mapping a drain adds (of pid, starting at start, from
 * ts on), when it is new: for whoever must look at the file while the
 * process lives (mmap_tracker_find() gives it).
 */
typedef void (*mmap_tracker_observer)(void *ctx, uint32_t pid, uint64_t start,
				      uint64_t ts);
void mmap_tracker_set_observer(struct mmap_tracker *t,
			       mmap_tracker_observer fn, void *ctx);

/* Takes what the kernel queued in every CPU's ring. Call before each
 * drain of the trace's own rings, and once at stop. Returns 0 or -errno.
 */
int mmap_tracker_drain(struct mmap_tracker *t);

/* The caller's last open of a file (by path and build id), kept with it:
 * who opened it, from which mount namespace, and what came of it.
 */
struct mmap_open_memo {
	uint64_t mnt_ns; /* 0: none yet */
	uint32_t uid;
	int32_t opened;
};

struct mmap_hit {
	const char *path;           /* the file; valid until free */
	const uint8_t *build_id;    /* NULL when unknown */
	size_t build_id_len;
	uint64_t file_offset;       /* pc - start + pgoff */
	uint64_t start, end, pgoff; /* the mapping */
	uint64_t file_id;           /* >= 1, the same for each (path, build id) */
	/*
	 * The caller's handle of the file as this mapping's owner opened it
	 * (0: not tried yet; < 0: -errno of the try), kept with the mapping
	 * (a fork's copy too): valid until the next call on the tracker.
	 */
	int32_t *opened;
	struct mmap_open_memo *memo; /* the file's, as long as the tracker */
};

/*
 * The mapping of pid holding pc at time ts (ns, CLOCK_BOOTTIME): 0 and
 * *hit filled, or -ENOENT.
 */
int mmap_tracker_find(struct mmap_tracker *t, uint32_t pid, uint64_t pc,
		      uint64_t ts, struct mmap_hit *hit);

struct mmap_tracker_stats {
	uint64_t mappings;      /* kept */
	uint64_t dropped;       /* not kept: over the cap, or bad input */
	uint64_t lost;          /* PERF_RECORD_LOST: records the kernel dropped */
};

void mmap_tracker_stats(const struct mmap_tracker *t,
			struct mmap_tracker_stats *stats);

void mmap_tracker_free(struct mmap_tracker *t);

#endif /* FXT_KERNEL_MMAP_TRACKER_H */
