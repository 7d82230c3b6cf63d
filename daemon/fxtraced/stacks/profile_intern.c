// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile_intern.h"

#define PROFILE_INTERN_MIN_SLOTS 1024u

void profile_intern_init(struct profile_intern *t, size_t budget,
			 uint32_t max_count)
{
	memset(t, 0, sizeof(*t));
	t->budget = budget;
	t->max_count = max_count < UINT32_MAX - 1 ? max_count : UINT32_MAX - 1;
}

void profile_intern_free(struct profile_intern *t)
{
	uint32_t i;

	for (i = 0; i < t->count; i++)
		free((void *)t->keys[i].bytes);
	free(t->keys);
	hash_index_free(&t->index);
	memset(t, 0, sizeof(*t));
}

static uint64_t key_hash(const void *ctx, uint32_t i)
{
	return ((const struct profile_intern *)ctx)->keys[i].hash;
}

/*
 * The index doubled (PROFILE_INTERN_MIN_SLOTS first), the keys with it to
 * half its size: -ENOSPC past the budget, -ENOMEM.
 */
static int grow(struct profile_intern *t)
{
	int64_t n = hash_index_size_for(&t->index, (uint64_t)t->count + 1,
					PROFILE_INTERN_MIN_SLOTS);
	size_t old = hash_index_size(&t->index), more;
	struct profile_intern_key *keys;

	if (n <= 0)
		return n ? -ENOSPC : 0;	/* -E2BIG: past any budget too */
	more = ((size_t)n - old) * sizeof(*t->index.slots) +
	       ((size_t)n / 2 - old / 2) * sizeof(*t->keys);
	if (t->bytes + more > t->budget)
		return -ENOSPC;
	keys = realloc(t->keys, (size_t)n / 2 * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	t->keys = keys;
	if (hash_index_resize(&t->index, (uint32_t)n, key_hash, t))
		return -ENOMEM;
	t->bytes += more;
	return 0;
}

static int add(struct profile_intern *t, uint32_t slot, uint64_t h,
	       const void *key, uint32_t len, uint32_t *id)
{
	void *copy;

	if (t->count >= t->max_count || t->bytes + len > t->budget)
		return -ENOSPC;
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, key, len);
	t->keys[t->count] = (struct profile_intern_key){ h, len, copy };
	t->index.slots[slot] = ++t->count;
	t->bytes += len;
	*id = t->count;
	return 0;
}

int profile_intern_get(struct profile_intern *t, const void *key, uint32_t len,
		       uint32_t *id, int *added)
{
	/* FNV-1a: keys come from our own tables, not from outside */
	uint64_t h = hash_bytes(HASH_SEED, key, len);
	const struct hash_index *x = &t->index;
	uint32_t s, e;
	int err;

	*added = 0;
	if (!hash_index_fits(x, (uint64_t)t->count + 1)) {
		err = grow(t);
		if (err)
			return err;
	}
	for (s = hash_index_first(x, h); (e = x->slots[s]);
	     s = hash_index_next(x, s)) {
		const struct profile_intern_key *k = &t->keys[e - 1];

		if (k->hash == h && k->len == len &&
		    !memcmp(k->bytes, key, len)) {
			*id = e;
			return 0;
		}
	}
	err = add(t, s, h, key, len, id);
	if (!err)
		*added = 1;
	return err;
}
