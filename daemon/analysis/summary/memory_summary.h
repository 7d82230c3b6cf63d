/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel:mem records of a trace at a glance (include/fxt/kmem.h), in
 * the summary's one pass and bounded memory:
 * - each process's peak RSS: the most its "mem.rss" counters file + anon
 *   + shmem added up to at once, and its peak swap;
 * - each thread's stall time per kind (direct reclaim, memory cgroup
 *   reclaim, compaction): the sum of its slices, a begin matched with the
 *   next end of its name on that thread (an end without a begin, or a
 *   begin without an end, adds nothing);
 * - the OOM kills: the victim's pid, name and RSS.
 * Processes and threads past MEMORY_SUMMARY_TABLE_MAX, OOM kills past
 * MEMORY_SUMMARY_OOM_MAX are counted, not kept.
 * With a timeline (the report's memory chart), it is fed in the same
 * pass: each process's RSS, each matched stall, the OOM kills' times and
 * the "meminfo" counters.
 */
#ifndef FXT_MEMORY_SUMMARY_H
#define FXT_MEMORY_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt_reader.h"
#include "fxt_saturate.h"
#include "hash_index.h"
#include "memory_timeline.h"

#define MEMORY_SUMMARY_TABLE_MAX 65536u
#define MEMORY_SUMMARY_OOM_MAX 1024u
/* An OOM victim's name kept, in bytes (the kernel's are 15 at most). */
#define MEMORY_SUMMARY_NAME_MAX 64u

enum memory_stall {
	MEMORY_STALL_DIRECT_RECLAIM,
	MEMORY_STALL_MEMCG_RECLAIM,
	MEMORY_STALL_COMPACTION,
	MEMORY_STALLS,
};

_Static_assert(MEMORY_STALLS == MEMORY_TIMELINE_STALLS, "stall kinds");

/* "direct_reclaim", "memcg_reclaim", "compaction": the slices' names. */
const char *memory_stall_name(enum memory_stall stall);
/* "available", "cached", "dirty", "swap_used": "meminfo"'s arguments. */
const char *memory_system_name(enum memory_system k);

struct memory_process {
	uint64_t pid;		/* the key: first */
	uint64_t rss[4];	/* latest file, anon, swap, shmem */
	uint64_t peak_rss;	/* of file + anon + shmem */
	uint64_t peak_swap;
};

struct memory_thread {
	uint64_t tid;		/* the key: first */
	uint64_t pid;
	uint64_t stall_ns[MEMORY_STALLS];
	uint64_t stalls[MEMORY_STALLS];
	uint64_t begin_ns[MEMORY_STALLS];
	uint32_t open;		/* bit s: a begin of stall s awaits its end */
};

struct memory_oom {
	uint64_t ts_ns;
	uint64_t pid;
	uint64_t rss;
	char name[MEMORY_SUMMARY_NAME_MAX];	/* not NUL-terminated */
	size_t name_len;
};

/* Open addressing over the items, whose first word is the key. */
struct memory_table {
	void *items;
	size_t item_size;
	uint32_t n, cap;
	struct hash_index index;	/* by key: hash_u64() */
	uint64_t untracked;	/* records of keys past the max */
};

struct memory_summary {
	struct memory_table processes;	/* of struct memory_process */
	struct memory_table threads;	/* of struct memory_thread */
	struct memory_oom *ooms;
	uint32_t nooms;
	uint64_t ooms_lost;
	uint64_t records;	/* kernel:mem records seen */
	struct memory_timeline *timeline;	/* fed when set, not owned */
};

void memory_summary_init(struct memory_summary *m);
void memory_summary_free(struct memory_summary *m);
/* Takes in one record (others than kernel:mem are ignored): 0 or -ENOMEM. */
int memory_summary_record(struct memory_summary *m,
			  const struct fxt_record *rec);

/*
 * Processes with an RSS counter by peak RSS, most first; threads that
 * stalled by stall time, most first (ties: tid). malloc'ed arrays, NULL
 * with *n 0 on ENOMEM or when there is none.
 */
const struct memory_process **
memory_summary_processes(const struct memory_summary *m, size_t *n);
const struct memory_thread **
memory_summary_stalled(const struct memory_summary *m, size_t *n);

static inline uint64_t memory_thread_stall_ns(const struct memory_thread *t)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < MEMORY_STALLS; i++)
		sum = fxt_sat_add(sum, t->stall_ns[i]);
	return sum;
}

#endif /* FXT_MEMORY_SUMMARY_H */
