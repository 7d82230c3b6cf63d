/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The slowest slices of one name (tracectl summary --slice NAME), or of
 * one category, or of a name in a category (tracectl why): their
 * thread and time range, to show what ran inside them (the stack samples
 * of that thread within it). At most SLICE_WATCH_MAX are kept, the
 * slowest; ties keep the earlier slice.
 */
#ifndef FXT_SLICE_WATCH_H
#define FXT_SLICE_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLICE_WATCH_DEFAULT 5u
#define SLICE_WATCH_MAX 1000u

struct watched_slice {
	uint64_t tid, pid;
	uint64_t start_ns, end_ns;
	const char *name;	/* the caller's, as offered */
};

struct slice_watch {
	const char *name;	/* NULL: any (with a category) */
	size_t name_len;
	const char *category;	/* NULL: any; both NULL: watching nothing */
	size_t category_len;
	struct watched_slice *slices;	/* slowest first */
	size_t n, max;
	uint64_t seen;		/* slices of the name, all */
};

/*
 * name and category both NULL watch nothing; top 0 takes the default.
 * 0 or -ENOMEM.
 */
int slice_watch_init(struct slice_watch *w, const char *name,
		     const char *category, size_t top);
void slice_watch_free(struct slice_watch *w);
/*
 * A slice of this category and name ended (end_ns < start_ns: not a
 * slice); name is NUL-terminated and outlives w.
 */
void slice_watch_offer(struct slice_watch *w, const char *category,
		       size_t category_len, const char *name, size_t len,
		       uint64_t tid, uint64_t pid, uint64_t start_ns,
		       uint64_t end_ns);

#endif /* FXT_SLICE_WATCH_H */
