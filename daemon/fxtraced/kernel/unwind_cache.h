/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF walker's rows of each file (include/fxt/unwind.h), compiled
 * once for the manager's life, not once per trace: the manager owns the
 * cache and hands it to each trace's bpf_unwind.h, which copies a file's
 * rows from it into the trace's map and adds those it compiles. Files
 * are known by device and inode, as everywhere in the symbols (a file
 * rewritten in place keeps its rows). Bounded: past max_bytes of rows,
 * a file is compiled for its trace alone. Entries never change once
 * added, and live as long as the cache: a pointer found stays valid.
 * Safe from several threads (a trace's thread, the next trace's).
 */
#ifndef FXT_UNWIND_CACHE_H
#define FXT_UNWIND_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* The rows of the manager's life, at most (the map's size). */
#define UNWIND_CACHE_BYTES (16u << 20)
/* Executable segments of a file kept, to place its rows in a mapping. */
#define UNWIND_SEGS_MAX 4u

struct unwind_seg {
	uint64_t offset, filesz, vaddr;
};

/* A file's rows, as fxt_unwind_rows holds them, and where they go. */
struct unwind_rows {
	uint64_t first_vaddr;	/* the first row's pc in the file */
	uint32_t len;		/* keys below this have rows */
	uint32_t nrows;
	uint32_t nsegs;
	struct unwind_seg seg[UNWIND_SEGS_MAX];
	uint64_t row[];		/* fxt_unwind_row() words, pcs from 0 */
};

struct unwind_cache;

int unwind_cache_new(size_t max_bytes, struct unwind_cache **ret);
/* The rows of file (dev, ino) compiled before, or NULL. */
const struct unwind_rows *unwind_cache_find(struct unwind_cache *c,
					    uint64_t dev, uint64_t ino);
/*
 * Keeps rows (malloc'ed: taken) for file (dev, ino): 0, or -ENOSPC
 * past the cache's bytes, -ENOMEM (rows stay the caller's then).
 */
int unwind_cache_add(struct unwind_cache *c, uint64_t dev, uint64_t ino,
		     struct unwind_rows *rows);
void unwind_cache_free(struct unwind_cache *c);

#endif /* FXT_UNWIND_CACHE_H */
