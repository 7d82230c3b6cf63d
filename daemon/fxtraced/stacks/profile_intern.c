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
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* FNV-1a, 64 bits: keys come from our own tables, not from outside. */
static uint64_t hash_bytes(const void *key, uint32_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static int grow(struct profile_intern *t)
{
	size_t n = t->nslots ? t->nslots * 2 : PROFILE_INTERN_MIN_SLOTS;
	size_t more = (n - t->nslots) * sizeof(*t->slots) +
		      (n / 2 - t->nslots / 2) * sizeof(*t->keys);
	struct profile_intern_key *keys;
	uint32_t *slots;
	uint32_t i;

	if (t->bytes + more > t->budget)
		return -ENOSPC;
	slots = calloc(n, sizeof(*slots));
	keys = realloc(t->keys, n / 2 * sizeof(*keys));
	if (!slots || !keys) {
		free(slots);
		if (keys)
			t->keys = keys;
		return -ENOMEM;
	}
	t->keys = keys;
	for (i = 0; i < t->count; i++) {
		size_t s = keys[i].hash & (n - 1);

		while (slots[s])
			s = (s + 1) & (n - 1);
		slots[s] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	t->bytes += more;
	return 0;
}

static int add(struct profile_intern *t, size_t slot, uint64_t h,
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
	t->slots[slot] = ++t->count;
	t->bytes += len;
	*id = t->count;
	return 0;
}

int profile_intern_get(struct profile_intern *t, const void *key, uint32_t len,
		       uint32_t *id, int *added)
{
	uint64_t h = hash_bytes(key, len);
	size_t s;
	int err;

	*added = 0;
	if (t->count + 1 > t->nslots / 2) {
		err = grow(t);
		if (err)
			return err;
	}
	for (s = h & (t->nslots - 1); t->slots[s];
	     s = (s + 1) & (t->nslots - 1)) {
		const struct profile_intern_key *k = &t->keys[t->slots[s] - 1];

		if (k->hash == h && k->len == len &&
		    !memcmp(k->bytes, key, len)) {
			*id = t->slots[s];
			return 0;
		}
	}
	err = add(t, s, h, key, len, id);
	if (!err)
		*added = 1;
	return err;
}
