/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How a thread's ended slices nest, for the summary's figures: a slice's
 * self time leaves out the slices it encloses (its children), and its
 * total time counts a recursion once, the outermost instance, at any
 * depth and whatever lies between (f > g > f), for begin/end pairs and
 * complete events alike (which end before their enclosing slices do).
 *
 * A thread keeps its ended slices not yet enclosed by another (each is
 * claimed by its parent when that ends), and with each the time its
 * subtree counted into each slice's total (parts): an instance of f
 * ending takes back what the f instances inside it counted. Bounded:
 * past SLICE_NESTING_ENDED_MAX kept, or the budget, the oldest are
 * forgotten (a later parent then counts its time twice, the self time
 * of a parent is off).
 */
#ifndef FXT_SLICE_NESTING_H
#define FXT_SLICE_NESTING_H

#include <stdint.h>

#define SLICE_NESTING_ENDED_MAX 64u
/* parts of the kept slices, per thread */
#define SLICE_NESTING_PARTS_MAX 1024u

struct ended_slice {
	uint64_t start_ns, end_ns;
	uint32_t first_part; /* its parts: up to the next one's */
};

/* Time a subtree counted into the total of a slice, of n instances. */
struct slice_part {
	uint32_t slice;
	uint32_t n;
	uint64_t ns;
};

struct slice_nesting {
	struct ended_slice *ended;
	struct slice_part *parts;
	uint32_t nended, ended_cap, nparts, parts_cap;
};

/* Memory for every thread's nesting, from one budget. */
struct slice_budget {
	uint64_t used, max;
	uint32_t *mark; /* per slice index: scratch of end() */
	uint32_t nmark;
};

/* What the slice ending learnt from the ones it encloses. */
struct slice_ended {
	uint64_t children_ns; /* the time of its children */
	uint64_t same_ns; /* its own instances inside it counted */
	uint64_t same_n; /* how many instances that was */
};

/*
 * Slice number slice (< nslices) of the thread ended: claims its
 * children, fills *out, and keeps it (its time counted in its total) for
 * its parent. 0, or -ENOMEM (*out filled all the same).
 */
int slice_nesting_end(struct slice_nesting *n, struct slice_budget *b,
		      uint32_t slice, uint32_t nslices, uint64_t start_ns,
		      uint64_t end_ns, struct slice_ended *out);
void slice_nesting_free(struct slice_nesting *n);
void slice_budget_free(struct slice_budget *b);

#endif /* FXT_SLICE_NESTING_H */
