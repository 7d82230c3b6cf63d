/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The duration begins still open on each thread, so that an end makes a
 * slice of the begin it closes (the innermost one, as summary matches
 * them). Bounded whatever the archive: at most SLICE_STACKS_THREADS
 * threads and SLICE_STACKS_BYTES for the names and entries of them all;
 * a begin past a bound is counted as lost, and the end that closes it
 * then closes nothing.
 */
#ifndef FXT_EXPORT_SLICE_STACKS_H
#define FXT_EXPORT_SLICE_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "fxt_reader.h"
#include "hash_index.h"

#define SLICE_STACKS_THREADS 65536u
#define SLICE_STACKS_BYTES (32u << 20)

struct open_begin {
	uint64_t ns;		/* of the trace clock */
	uint32_t names;		/* offset in the thread's name bytes */
	uint16_t category_len, name_len;
};

struct begin_stack {
	uint64_t pid, tid;
	struct open_begin *open;
	uint32_t depth, cap;
	uint32_t lost;		/* begins not kept, on top of the stack */
	char *names;		/* category then name of each open begin */
	uint32_t names_len, names_cap;
};

struct slice_stacks {
	struct begin_stack *threads;
	uint32_t nthreads, cap;
	struct hash_index index;	/* threads by (pid, tid) */
	uint64_t bytes;		/* of SLICE_STACKS_BYTES */
	uint64_t lost;		/* begins past the bounds */
};

/* The begin an end closed, valid until the next push on that thread. */
struct closed_begin {
	uint64_t ns;
	struct fxt_str category, name;
};

void slice_stacks_init(struct slice_stacks *s);
void slice_stacks_free(struct slice_stacks *s);

/* 0 (kept, or lost and counted), or -ENOMEM. */
int slice_stacks_push(struct slice_stacks *s, uint64_t pid, uint64_t tid,
		      uint64_t ns, struct fxt_str category,
		      struct fxt_str name);
/* true with *out when the end closed a kept begin. */
bool slice_stacks_pop(struct slice_stacks *s, uint64_t pid, uint64_t tid,
		      struct closed_begin *out);
/* Begins never closed: kept ones still open (lost ones are in s->lost). */
uint64_t slice_stacks_open(const struct slice_stacks *s);

#endif /* FXT_EXPORT_SLICE_STACKS_H */
