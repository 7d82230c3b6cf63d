// SPDX-License-Identifier: GPL-2.0-only
/* Duration begins matched with their ends: see slice_match.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "slice_match.h"

void slice_match_init(struct slice_match *m,
		      const struct slice_match_bounds *bounds)
{
	memset(m, 0, sizeof(*m));
	m->bounds = *bounds;
}

void slice_match_free(struct slice_match *m)
{
	uint32_t i;

	for (i = 0; i < m->nthreads; i++) {
		free(m->threads[i].open);
		free(m->threads[i].bytes);
	}
	free(m->threads);
	hash_index_free(&m->index);
	memset(m, 0, sizeof(*m));
}

static uint64_t thread_hash(uint64_t pid, uint64_t tid)
{
	uint64_t h = (pid * 0x9e3779b97f4a7c15ull) ^ tid;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h ^ (h >> 32));
}

static uint64_t thread_hash_of(const void *ctx, uint32_t i)
{
	const struct slice_match *m = ctx;

	return thread_hash(m->threads[i].pid, m->threads[i].tid);
}

static struct slice_thread *find(const struct slice_match *m, uint64_t pid,
				 uint64_t tid)
{
	const struct hash_index *x = &m->index;
	uint32_t slot, e;

	if (!x->slots)
		return NULL;
	for (slot = hash_index_first(x, thread_hash(pid, tid));
	     (e = x->slots[slot]); slot = hash_index_next(x, slot))
		if (m->threads[e - 1].pid == pid &&
		    m->threads[e - 1].tid == tid)
			return &m->threads[e - 1];
	return NULL;
}

/* The thread, added on first sight; NULL past bounds.threads or on ENOMEM. */
static struct slice_thread *get(struct slice_match *m, uint64_t pid,
				uint64_t tid, int *err)
{
	struct slice_thread *t = find(m, pid, tid);
	uint32_t slot;

	if (t || m->nthreads == m->bounds.threads)
		return t;
	if (hash_index_reserve(&m->index, m->nthreads + 1ull, 64,
			       thread_hash_of, m))
		goto nomem;
	if (m->nthreads == m->cap) {
		uint32_t cap = m->cap ? m->cap * 2 : 64;
		void *p =
			realloc(m->threads, (size_t)cap * sizeof(*m->threads));

		if (!p)
			goto nomem;
		m->threads = p;
		m->cap = cap;
	}
	t = &m->threads[m->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	slot = hash_index_free_slot(&m->index, thread_hash(pid, tid));
	m->index.slots[slot] = ++m->nthreads;
	return t;
nomem:
	*err = -ENOMEM;
	return NULL;
}

static uint64_t *used(struct slice_match *m)
{
	return m->bounds.used ? m->bounds.used : &m->used;
}

/*
 * Grows *p (of *cap elements of size) to hold need: from first, doubled,
 * at most max elements and within the byte budget. -ENOSPC past either
 * (the begin is lost), -ENOMEM.
 */
static int grow(struct slice_match *m, void **p, uint32_t *cap, uint64_t need,
		uint64_t first, uint64_t max, size_t size)
{
	uint64_t n = *cap ? *cap : first;
	void *q;

	while (n < need)
		n *= 2;
	if (n > max)
		n = max;
	if (n < need || *used(m) + (n - *cap) * size > m->bounds.max_bytes)
		return -ENOSPC;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*used(m) += (n - *cap) * size;
	*p = q;
	*cap = (uint32_t)n;
	return 0;
}

/* Room on t for one more begin of len bytes: 0, -ENOSPC or -ENOMEM. */
static int room(struct slice_match *m, struct slice_thread *t, uint64_t len)
{
	uint64_t need = t->bytes_len + len;
	int err;

	if (t->depth == t->cap &&
	    (err = grow(m, (void **)&t->open, &t->cap, t->depth + 1ull,
			m->bounds.first, m->bounds.depth, sizeof(*t->open))))
		return err;
	if (need > t->bytes_cap)
		return grow(m, (void **)&t->bytes, &t->bytes_cap, need, 8,
			    UINT32_MAX, 1);
	return 0;
}

int slice_match_begin(struct slice_match *m, uint64_t pid, uint64_t tid,
		      uint64_t ns, uint32_t tag, const struct fxt_str *parts,
		      unsigned int n)
{
	struct slice_thread *t;
	struct slice_open *b;
	uint64_t len = 0;
	unsigned int i;
	int err = 0;

	t = get(m, pid, tid, &err);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		len += parts[i].len;
	/* Once one is lost, the thread's deeper begins are too: ends match. */
	if (!t || t->lost || (err = room(m, t, len))) {
		if (err == -ENOMEM)
			return err;
		if (t)
			t->lost++;
		m->lost++;
		return 0;
	}
	b = &t->open[t->depth++];
	b->ns = ns;
	b->tag = tag;
	b->bytes = t->bytes_len;
	for (i = 0; i < n; i++) {
		memcpy(t->bytes + t->bytes_len, parts[i].data, parts[i].len);
		t->bytes_len += parts[i].len;
	}
	return 0;
}

bool slice_match_end(struct slice_match *m, uint64_t pid, uint64_t tid,
		     struct slice_closed *out)
{
	struct slice_thread *t = find(m, pid, tid);
	struct slice_open *b;

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
	out->tag = b->tag;
	out->bytes.data = t->bytes ? t->bytes + b->bytes : "";
	out->bytes.len = t->bytes_len - b->bytes;
	t->bytes_len = b->bytes;
	return true;
}

uint64_t slice_match_open(const struct slice_match *m)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < m->nthreads; i++)
		n += m->threads[i].depth;
	return n;
}
