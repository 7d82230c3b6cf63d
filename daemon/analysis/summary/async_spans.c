// SPDX-License-Identifier: GPL-2.0-only
/* The summary's open async spans: see async_spans.h. */
#include <errno.h>
#include <stdlib.h>

#include "async_spans.h"

/* Open addressing, linear probing, at most half full. */
#define SLOTS (2 * ASYNC_SPANS_MAX)
#define MASK (SLOTS - 1)

uint64_t async_spans_key(uint64_t pid, uint64_t id, uint32_t slice)
{
	uint64_t h = pid * 0x9e3779b97f4a7c15ull;

	h = (h ^ id) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ slice) * 0x94d049bb133111ebull;
	h ^= h >> 31;
	return h ? h : 1;
}

/* The slot of key, or the free one where it would go. */
static uint32_t find(const struct async_spans *a, uint64_t key)
{
	uint32_t i = (uint32_t)key & MASK;

	while (a->slot[i].key && a->slot[i].key != key)
		i = (i + 1) & MASK;
	return i;
}

int async_spans_begin(struct async_spans *a, uint64_t key, uint64_t ns)
{
	uint32_t i;

	if (!a->slot) {
		a->slot = calloc(SLOTS, sizeof(*a->slot));
		if (!a->slot)
			return -ENOMEM;
	}
	i = find(a, key);
	if (!a->slot[i].key) {
		if (a->used == ASYNC_SPANS_MAX) {
			a->lost++;
			return 0;
		}
		a->used++;
		a->slot[i].key = key;
	}
	a->slot[i].start_ns = ns;
	return 0;
}

/* Empties slot i, moving up the entries its emptiness would hide. */
static void erase(struct async_spans *a, uint32_t i)
{
	uint32_t j = i, home;

	for (;;) {
		a->slot[i].key = 0;
		do {
			j = (j + 1) & MASK;
			if (!a->slot[j].key)
				return;
			home = (uint32_t)a->slot[j].key & MASK;
			/* j's entry stays when its home is cyclically in (i, j] */
		} while (i <= j ? i < home && home <= j :
				  i < home || home <= j);
		a->slot[i] = a->slot[j];
		i = j;
	}
}

bool async_spans_end(struct async_spans *a, uint64_t key, uint64_t *start)
{
	uint32_t i;

	if (!a->slot)
		return false;
	i = find(a, key);
	if (!a->slot[i].key)
		return false;
	*start = a->slot[i].start_ns;
	erase(a, i);
	a->used--;
	return true;
}

void async_spans_free(struct async_spans *a)
{
	free(a->slot);
	a->slot = NULL;
	a->used = 0;
}
