/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one matcher of duration begins and ends into slices, for every
 * analysis that times them (tracectl summary and report, tracectl
 * export), so that they count the same slices (docs/fleet.md): an end
 * closes the innermost begin still open on its thread, a thread being a
 * (pid, tid) pair (a tid seen under two pids is two threads).
 *
 * An open begin holds its start, a tag of its caller's (summary: the
 * slice's index; export: the category's length) and the bytes the
 * caller gives with it, if any (export: category then name), on a byte
 * stack of the thread's own: a caller that gives none pays for none.
 *
 * Bounded by the caller: at most bounds.threads threads, bounds.depth
 * begins open on a thread, bounds.max_bytes of entries and bytes counted
 * in *bounds.used (a count the caller may share with its other tables).
 * A begin past a bound is lost and counted; once one is lost, the
 * thread's deeper begins are too, so that every end still meets the
 * begin it closes: the end of a lost begin closes nothing.
 */
#ifndef FXT_SLICE_MATCH_H
#define FXT_SLICE_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "fxt_reader.h"
#include "hash_index.h"

struct slice_match_bounds {
	uint32_t threads; /* (pid, tid) pairs tracked at most */
	uint32_t depth; /* begins kept open on a thread at most */
	uint32_t first; /* entries a thread's stack starts with */
	uint64_t max_bytes; /* of *used, for entries and bytes */
	uint64_t *used; /* the count; NULL: the matcher's own */
};

/* 16 bytes whatever the caller keeps: the budgets count them. */
struct slice_open {
	uint64_t ns;
	uint32_t tag;
	uint32_t bytes; /* where its bytes start in the thread's */
};

struct slice_thread {
	uint64_t pid, tid;
	struct slice_open *open;
	uint32_t depth, cap;
	uint32_t lost; /* begins not kept, on top of the stack */
	char *bytes; /* of the open begins, in order; NULL: none */
	uint32_t bytes_len, bytes_cap;
};

struct slice_match {
	struct slice_match_bounds bounds;
	struct slice_thread *threads;
	uint32_t nthreads, cap;
	struct hash_index index; /* threads by (pid, tid) */
	uint64_t used; /* when bounds.used is NULL */
	uint64_t lost; /* begins past the bounds */
};

/* The begin an end closed; bytes valid until that thread's next begin. */
struct slice_closed {
	uint64_t ns;
	uint32_t tag;
	struct fxt_str bytes;
};

void slice_match_init(struct slice_match *m,
		      const struct slice_match_bounds *bounds);
void slice_match_free(struct slice_match *m);

/*
 * A begin at ns on (pid, tid), with its tag and the n byte runs of
 * parts kept back to back (n may be 0). 0 (kept, or lost and counted),
 * or -ENOMEM.
 */
int slice_match_begin(struct slice_match *m, uint64_t pid, uint64_t tid,
		      uint64_t ns, uint32_t tag, const struct fxt_str *parts,
		      unsigned int n);
/* true with *out when the end closed a kept begin. */
bool slice_match_end(struct slice_match *m, uint64_t pid, uint64_t tid,
		     struct slice_closed *out);
/* Begins never closed: kept ones still open (lost ones are in m->lost). */
uint64_t slice_match_open(const struct slice_match *m);

#endif /* FXT_SLICE_MATCH_H */
