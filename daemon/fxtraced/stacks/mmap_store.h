/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mapping tracker's memory (mmap_tracker.h): each process's
 * executable file mappings, each valid over a time window [from, until)
 * in CLOCK_BOOTTIME ns, and the files they map, interned by (path, build
 * id). Events may arrive slightly out of time order (several CPUs' rings):
 * of two mappings of one process that overlap in address, the earlier
 * one ends when the later one starts, whatever order they came in (whole:
 * the part the later one does not cover is not kept; executable mappings
 * replaced in part are rare); so at most one mapping holds a (pid, pc,
 * time). Bounded: mappings, files
 * and path bytes beyond the caps are dropped and counted.
 */
#ifndef FXT_KERNEL_MMAP_STORE_H
#define FXT_KERNEL_MMAP_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "mmap_tracker.h"

#define MMAP_STORE_BUILD_ID_MAX 32
#define MMAP_STORE_PATH_MAX 4096

struct mmap_store;

struct mmap_store_limits {
	size_t mappings;   /* kept in all, history included */
	size_t files;
	size_t path_bytes;
};

int mmap_store_new(const struct mmap_store_limits *limits,
		   struct mmap_store **ret);
void mmap_store_free(struct mmap_store *s);

/*
 * A mapping of path (path_len bytes, no NUL needed) at [start, start +
 * len) from file offset pgoff, valid from ts on (0: since before the
 * trace). Returns 0, or -E2BIG/-ENOSPC when over a cap (counted), -EINVAL
 * for a path or range refused (counted).
 */
int mmap_store_add(struct mmap_store *s, uint32_t pid, uint64_t ts,
		   uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *path, size_t path_len,
		   const uint8_t *build_id, size_t build_id_len);

/* pid executed another program at ts: its mappings end there. */
void mmap_store_exec(struct mmap_store *s, uint32_t pid, uint64_t ts);

/* child was forked by parent at ts: it has the parent's mappings of that
 * time (a reused pid's older mappings end there).
 */
int mmap_store_fork(struct mmap_store *s, uint32_t parent, uint32_t child,
		    uint64_t ts);

/* pid exited at ts: its mappings are kept, for samples drained later. */
void mmap_store_exit(struct mmap_store *s, uint32_t pid, uint64_t ts);

int mmap_store_find(struct mmap_store *s, uint32_t pid, uint64_t pc,
		    uint64_t ts, struct mmap_hit *hit);

/* Counts a record not kept for a reason of the caller's. */
void mmap_store_count_drop(struct mmap_store *s);

void mmap_store_stats(const struct mmap_store *s,
		      struct mmap_tracker_stats *stats);

#endif /* FXT_KERNEL_MMAP_STORE_H */
