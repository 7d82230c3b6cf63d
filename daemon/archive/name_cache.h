/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Process and thread names seen so far, in a fixed amount of memory.
 *
 * A set-associative table keyed by (kind, koid): when a set is full the
 * oldest entry of the set is forgotten. Forgetting costs little: a name
 * seen again is written again (a duplicate metadata event), and a CPU
 * slice of a forgotten thread is labelled by its tid alone.
 */
#ifndef FXT_NAME_CACHE_H
#define FXT_NAME_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "fxt_reader.h"

enum name_kind {
	NAME_PROCESS = 1,
	NAME_THREAD = 2,
};

/* Longer names are kept cut (at a code point) for labels. */
#define NAME_CACHE_NAME_MAX 62u

struct name_entry {
	uint64_t koid;
	uint64_t pid;		/* threads: their process, 0 if unknown */
	uint64_t name_hash;	/* of the whole name, to notice renames */
	uint8_t kind;		/* 0: free slot */
	uint8_t name_len;
	char name[NAME_CACHE_NAME_MAX];
};

struct name_cache;

/* Memory is sets * ways * sizeof(struct name_entry), fixed at creation. */
struct name_cache *name_cache_new(void);
void name_cache_free(struct name_cache *nc);
size_t name_cache_bytes(const struct name_cache *nc);

const struct name_entry *name_cache_find(const struct name_cache *nc,
					 enum name_kind kind, uint64_t koid);

/*
 * Records the name (and, for threads, the process when pid != 0) of koid.
 * Returns the entry when this is news (first sight, a rename or a new
 * process), else NULL.
 */
const struct name_entry *name_cache_set(struct name_cache *nc,
					enum name_kind kind, uint64_t koid,
					uint64_t pid, const char *name,
					size_t len);

/*
 * Records the process of a thread whose name may be known. Returns the
 * entry when the process is news and the thread has a name, else NULL.
 */
const struct name_entry *name_cache_set_pid(struct name_cache *nc,
					    uint64_t tid, uint64_t pid);

/*
 * The process of a thread kernel object: its "process" argument (a koid
 * or an integer), 0 when it has none.
 */
uint64_t name_cache_thread_object_pid(const struct fxt_record *rec);

#endif /* FXT_NAME_CACHE_H */
