// SPDX-License-Identifier: GPL-2.0-only
/* How a thread's slices nest: see slice_nesting.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_saturate.h"
#include "slice_nesting.h"

/* Room for one more of size bytes in *p (cap of them, up to max). */
static bool grow(void **p, uint32_t *cap, uint32_t max, size_t size,
		 struct slice_budget *b)
{
	uint32_t want = *cap ? *cap * 2 : 4;
	void *q;

	if (want > max)
		want = max;
	if (want <= *cap || b->used + (want - *cap) * size > b->max)
		return false;
	q = realloc(*p, want * size);
	if (!q)
		return false;
	b->used += (want - *cap) * size;
	*p = q;
	*cap = want;
	return true;
}

/*
 * Forgets the older half of the kept slices and their parts (the parts
 * from tail on, of a slice not kept yet, stay): what they moved by.
 */
static uint32_t forget_oldest(struct slice_nesting *n, uint32_t tail)
{
	uint32_t keep = n->nended / 2, from, i;

	from = keep ? n->ended[n->nended - keep].first_part : tail;
	memmove(n->ended, n->ended + n->nended - keep,
		keep * sizeof(*n->ended));
	memmove(n->parts, n->parts + from,
		(n->nparts - from) * sizeof(*n->parts));
	n->nended = keep;
	n->nparts -= from;
	for (i = 0; i < keep; i++)
		n->ended[i].first_part -= from;
	return from;
}

/*
 * The parts from first on, one per slice: slice's own taken out into
 * out, the others summed by slice (b->mark: index + 1 of a slice's).
 */
static void fold_parts(struct slice_nesting *n, struct slice_budget *b,
		       uint32_t first, uint32_t slice, struct slice_ended *out)
{
	uint32_t i, kept = first;

	for (i = first; i < n->nparts; i++) {
		struct slice_part p = n->parts[i];

		if (p.slice == slice) {
			out->same_ns = fxt_sat_add(out->same_ns, p.ns);
			out->same_n += p.n;
		} else if (b->mark && b->mark[p.slice]) {
			struct slice_part *q = &n->parts[b->mark[p.slice] - 1];

			q->ns = fxt_sat_add(q->ns, p.ns);
			q->n += p.n;
		} else {
			if (b->mark)
				b->mark[p.slice] = kept + 1;
			n->parts[kept++] = p;
		}
	}
	n->nparts = kept;
	for (i = first; b->mark && i < kept; i++)
		b->mark[n->parts[i].slice] = 0;
}

/* Room for one more kept slice and part. */
static bool room(struct slice_nesting *n, struct slice_budget *b)
{
	return (n->nended < n->ended_cap ||
		grow((void **)&n->ended, &n->ended_cap, SLICE_NESTING_ENDED_MAX,
		     sizeof(*n->ended), b)) &&
	       (n->nparts < n->parts_cap ||
		grow((void **)&n->parts, &n->parts_cap, SLICE_NESTING_PARTS_MAX,
		     sizeof(*n->parts), b));
}

/* Keeps the ended slice e, its parts from e->first_part on and its own. */
static void keep(struct slice_nesting *n, struct slice_budget *b,
		 struct ended_slice *e, uint32_t slice)
{
	uint64_t dur = e->end_ns - e->start_ns;

	if (!room(n, b)) {
		/* the oldest are the least likely to get a parent */
		e->first_part -= forget_oldest(n, e->first_part);
		if (!room(n, b)) {
			n->nparts = e->first_part;
			return;
		}
	}
	n->ended[n->nended++] = *e;
	n->parts[n->nparts++] = (struct slice_part){ slice, 1, dur };
}

int slice_nesting_end(struct slice_nesting *n, struct slice_budget *b,
		      uint32_t slice, uint32_t nslices, uint64_t start_ns,
		      uint64_t end_ns, struct slice_ended *out)
{
	struct ended_slice e = { start_ns, end_ns, n->nparts };
	int err = 0;

	memset(out, 0, sizeof(*out));
	if (nslices > b->nmark) {
		uint32_t *m = realloc(b->mark, nslices * 2 * sizeof(*m));

		if (m) {
			memset(m + b->nmark, 0,
			       (nslices * 2 - b->nmark) * sizeof(*m));
			b->mark = m;
			b->nmark = nslices * 2;
		} else {
			err = -ENOMEM;
		}
	}
	while (n->nended && n->ended[n->nended - 1].start_ns >= start_ns &&
	       n->ended[n->nended - 1].end_ns <= end_ns) {
		const struct ended_slice *c = &n->ended[--n->nended];

		out->children_ns =
			fxt_sat_add(out->children_ns, c->end_ns - c->start_ns);
		e.first_part = c->first_part;
	}
	fold_parts(n, err ? &(struct slice_budget){ 0 } : b, e.first_part,
		   slice, out);
	if (end_ns >= start_ns)
		keep(n, b, &e, slice);
	return err;
}

void slice_nesting_free(struct slice_nesting *n)
{
	free(n->ended);
	free(n->parts);
	memset(n, 0, sizeof(*n));
}

void slice_budget_free(struct slice_budget *b)
{
	free(b->mark);
	b->mark = NULL;
	b->nmark = 0;
}
