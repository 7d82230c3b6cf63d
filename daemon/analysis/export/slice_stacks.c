// SPDX-License-Identifier: GPL-2.0-only
/* Open duration begins per thread: see slice_stacks.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "slice_stacks.h"

void slice_stacks_init(struct slice_stacks *s)
{
	memset(s, 0, sizeof(*s));
}

void slice_stacks_free(struct slice_stacks *s)
{
	uint32_t i;

	for (i = 0; i < s->nthreads; i++) {
		free(s->threads[i].open);
		free(s->threads[i].names);
	}
	free(s->threads);
	hash_index_free(&s->index);
	memset(s, 0, sizeof(*s));
}

static uint32_t thread_hash(uint64_t pid, uint64_t tid)
{
	uint64_t h = (pid * 0x9e3779b97f4a7c15ull) ^ tid;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h ^ (h >> 32));
}

static uint64_t thread_hash_of(const void *ctx, uint32_t i)
{
	const struct slice_stacks *s = ctx;

	return thread_hash(s->threads[i].pid, s->threads[i].tid);
}

/* Room in the index for count threads: 64 slots first. */
static int grow_index(struct slice_stacks *s, uint32_t count)
{
	return hash_index_reserve(&s->index, count, 64, thread_hash_of, s) ?
		       -ENOMEM : 0;
}

/* The thread's stack; NULL when absent and !add, or past the bounds. */
static struct begin_stack *find(struct slice_stacks *s, uint64_t pid,
				uint64_t tid, bool add, int *err)
{
	struct hash_index *x = &s->index;
	uint32_t slot, e;

	if (!x->slots && (!add || (*err = grow_index(s, 1))))
		return NULL;
	for (slot = hash_index_first(x, thread_hash(pid, tid));
	     (e = x->slots[slot]); slot = hash_index_next(x, slot)) {
		struct begin_stack *t = &s->threads[e - 1];

		if (t->pid == pid && t->tid == tid)
			return t;
	}
	if (!add || s->nthreads == SLICE_STACKS_THREADS)
		return NULL;
	if (!hash_index_fits(x, s->nthreads + 1)) {
		if ((*err = grow_index(s, s->nthreads + 1)))
			return NULL;
		return find(s, pid, tid, add, err);
	}
	if (s->nthreads == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 64;
		void *p = realloc(s->threads, cap * sizeof(*s->threads));

		if (!p) {
			*err = -ENOMEM;
			return NULL;
		}
		s->threads = p;
		s->cap = cap;
	}
	x->slots[slot] = s->nthreads + 1;
	memset(&s->threads[s->nthreads], 0, sizeof(s->threads[0]));
	s->threads[s->nthreads].pid = pid;
	s->threads[s->nthreads].tid = tid;
	return &s->threads[s->nthreads++];
}

/* Grows *p (of *cap elements of size) to hold need, within the budget. */
static int grow(struct slice_stacks *s, void **p, uint32_t *cap,
		uint64_t need, size_t size)
{
	uint64_t n = *cap ? *cap : 8;
	void *q;

	while (n < need)
		n *= 2;
	if (n > UINT32_MAX || s->bytes + (n - *cap) * size > SLICE_STACKS_BYTES)
		return -ENOSPC;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	s->bytes += (n - *cap) * size;
	*p = q;
	*cap = (uint32_t)n;
	return 0;
}

int slice_stacks_push(struct slice_stacks *s, uint64_t pid, uint64_t tid,
		      uint64_t ns, struct fxt_str category,
		      struct fxt_str name)
{
	uint64_t need;
	struct begin_stack *t;
	struct open_begin *b;
	int err = 0;

	t = find(s, pid, tid, true, &err);
	if (err == -ENOMEM)
		return err;
	need = t ? (uint64_t)t->names_len + category.len + name.len : 0;
	if (!t || t->lost || category.len > UINT16_MAX ||
	    name.len > UINT16_MAX)
		goto lost;
	if (t->depth == t->cap &&
	    (err = grow(s, (void **)&t->open, &t->cap, t->depth + 1ull,
			sizeof(*t->open))))
		goto fail;
	if (need > t->names_cap &&
	    (err = grow(s, (void **)&t->names, &t->names_cap, need, 1)))
		goto fail;
	b = &t->open[t->depth++];
	b->ns = ns;
	b->names = t->names_len;
	b->category_len = (uint16_t)category.len;
	b->name_len = (uint16_t)name.len;
	memcpy(t->names + t->names_len, category.data, category.len);
	memcpy(t->names + t->names_len + category.len, name.data, name.len);
	t->names_len = (uint32_t)need;
	return 0;
fail:
	if (err == -ENOMEM)
		return err;
lost:
	/* Once one is lost, the thread's deeper begins are too: ends match. */
	if (t)
		t->lost++;
	s->lost++;
	return 0;
}

bool slice_stacks_pop(struct slice_stacks *s, uint64_t pid, uint64_t tid,
		      struct closed_begin *out)
{
	struct begin_stack *t = find(s, pid, tid, false, NULL);
	struct open_begin *b;

	if (!t)
		return false;
	if (t->lost) {
		t->lost--;
		return false;
	}
	if (!t->depth)
		return false;
	b = &t->open[--t->depth];
	out->ns = b->ns;
	out->category.data = t->names + b->names;
	out->category.len = b->category_len;
	out->name.data = t->names + b->names + b->category_len;
	out->name.len = b->name_len;
	t->names_len = b->names;
	return true;
}

uint64_t slice_stacks_open(const struct slice_stacks *s)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < s->nthreads; i++)
		n += s->threads[i].depth;
	return n;
}
