// SPDX-License-Identifier: GPL-2.0-only
/* The open-addressing index's growth: see hash_index.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash_index.h"

int64_t hash_index_size_for(const struct hash_index *x, uint64_t count,
			    uint32_t first)
{
	uint64_t size = hash_index_size(x);

	if (count > HASH_INDEX_SLOTS_MAX / 2)
		return -E2BIG;	/* checked first: count * 2 cannot wrap */
	if (hash_index_fits(x, count))
		return 0;
	if (!size)
		size = first ? first : 1;
	while (size < count * 2)
		size *= 2;	/* at most to HASH_INDEX_SLOTS_MAX */
	return (int64_t)size;
}

int hash_index_resize(struct hash_index *x, uint32_t size,
		      hash_index_hash_fn hash_of, const void *ctx)
{
	struct hash_index n = { .mask = size - 1 };
	uint32_t i, e, old = hash_index_size(x);

	if (!size || size & (size - 1) || size < old)
		return -EINVAL;
	n.slots = calloc(size, sizeof(*n.slots));
	if (!n.slots)
		return -ENOMEM;
	/* by the old slots: every element indexed, and only those */
	for (i = 0; i < old; i++) {
		e = x->slots[i];
		if (!e)
			continue;
		n.slots[hash_index_free_slot(&n, hash_of(ctx, e - 1))] = e;
	}
	free(x->slots);
	*x = n;
	return 0;
}

int hash_index_reserve(struct hash_index *x, uint64_t count, uint32_t first,
		       hash_index_hash_fn hash_of, const void *ctx)
{
	int64_t size = hash_index_size_for(x, count, first);

	if (size <= 0)
		return (int)size;
	return hash_index_resize(x, (uint32_t)size, hash_of, ctx);
}

void hash_index_free(struct hash_index *x)
{
	free(x->slots);
	memset(x, 0, sizeof(*x));
}
