// SPDX-License-Identifier: GPL-2.0-only
/* unwind_cache.h: each file's rows, compiled once for the manager's life. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "unwind_cache.h"

struct unwind_cached {
	uint64_t dev, ino;
	struct unwind_rows *rows;
};

struct unwind_cache {
	pthread_mutex_t lock;
	struct unwind_cached *files;	/* unsorted: a few hundred */
	size_t n, cap;
	size_t bytes, max_bytes;
};

int unwind_cache_new(size_t max_bytes, struct unwind_cache **ret)
{
	struct unwind_cache *c = calloc(1, sizeof(*c));
	int r;

	if (!c)
		return -ENOMEM;
	r = pthread_mutex_init(&c->lock, NULL);
	if (r) {
		free(c);
		return -r;
	}
	c->max_bytes = max_bytes;
	*ret = c;
	return 0;
}

const struct unwind_rows *unwind_cache_find(struct unwind_cache *c,
					    uint64_t dev, uint64_t ino)
{
	const struct unwind_rows *rows = NULL;
	size_t i;

	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->n && !rows; i++)
		if (c->files[i].dev == dev && c->files[i].ino == ino)
			rows = c->files[i].rows;
	pthread_mutex_unlock(&c->lock);
	return rows;
}

int unwind_cache_add(struct unwind_cache *c, uint64_t dev, uint64_t ino,
		     struct unwind_rows *rows)
{
	size_t bytes = rows->nrows * sizeof(uint64_t), cap;
	struct unwind_cached *n;
	int r = 0;

	pthread_mutex_lock(&c->lock);
	if (bytes > c->max_bytes - c->bytes) {
		r = -ENOSPC;
	} else if (c->n == c->cap) {
		cap = c->cap ? c->cap * 2 : 64;
		n = realloc(c->files, cap * sizeof(*n));
		if (n) {
			c->files = n;
			c->cap = cap;
		} else {
			r = -ENOMEM;
		}
	}
	if (!r) {
		c->files[c->n++] = (struct unwind_cached){ dev, ino, rows };
		c->bytes += bytes;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

void unwind_cache_free(struct unwind_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		free(c->files[i].rows);
	free(c->files);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
