/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An open-addressing index over an array the caller owns: each slot
 * holds an element's index + 1 (0: free), found by linear probing from
 * its hash; doubled, never shrunk, to stay at most half full. The
 * caller keeps the elements, their count and how two keys compare: the
 * index only knows where to look. Lookups are inline, as they run once
 * per record:
 *
 *	for (i = hash_index_first(&x, h); (e = x.slots[i]);
 *	     i = hash_index_next(&x, i))
 *		if (same(&elems[e - 1], key))
 *			return e - 1;
 *	(not found: slot i is where key goes, if the index fits one more)
 *
 * Sizes come from archives we do not trust: a growth past
 * HASH_INDEX_SLOTS_MAX is refused (-E2BIG), never wrapped.
 */
#ifndef FXT_HASH_INDEX_H
#define FXT_HASH_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HASH_SEED 0xcbf29ce484222325ull	/* FNV-1a's offset basis */
#define HASH_INDEX_SLOTS_MAX (1u << 31)	/* the mask stays a uint32_t */

/* FNV-1a over len bytes, from h (HASH_SEED, or a previous part's hash). */
static inline uint64_t hash_bytes(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001b3ull;
	return h;
}

/*
 * The high half of v times 2^64 / phi: one multiply, every bit of v
 * moves the result, and keys that differ only in their low bits (tids,
 * pids, ids counted up) spread over the whole table.
 */
static inline uint64_t hash_u64(uint64_t v)
{
	return (v * 0x9e3779b97f4a7c15ull) >> 32;
}

struct hash_index {
	uint32_t *slots;	/* element index + 1; 0 free; NULL: none yet */
	uint32_t mask;		/* slots - 1, once there are slots */
};

/* The hash of element i of ctx's array: how growing finds it again. */
typedef uint64_t (*hash_index_hash_fn)(const void *ctx, uint32_t i);

static inline uint32_t hash_index_size(const struct hash_index *x)
{
	return x->slots ? x->mask + 1 : 0;
}

/* Whether count elements keep x at most half full. */
static inline bool hash_index_fits(const struct hash_index *x, uint64_t count)
{
	return count * 2 <= hash_index_size(x);
}

/* Where the probe for hash starts; x must have slots. */
static inline uint32_t hash_index_first(const struct hash_index *x,
					uint64_t hash)
{
	return (uint32_t)hash & x->mask;
}

static inline uint32_t hash_index_next(const struct hash_index *x, uint32_t i)
{
	return (i + 1) & x->mask;
}

/* The first free slot of hash's probe: where a new element goes. */
static inline uint32_t hash_index_free_slot(const struct hash_index *x,
					    uint64_t hash)
{
	uint32_t i = hash_index_first(x, hash);

	while (x->slots[i])
		i = hash_index_next(x, i);
	return i;
}

/*
 * The slots x needs for count elements: 0 when it fits them already,
 * else its size doubled (first, when it has none) until they fit;
 * -E2BIG past HASH_INDEX_SLOTS_MAX. For callers that charge a budget
 * before growing.
 */
int64_t hash_index_size_for(const struct hash_index *x, uint64_t count,
			    uint32_t first);

/*
 * x with size slots (a power of two, not less than its own), every
 * element it held found again through hash_of; -ENOMEM leaves x as it
 * was. The slots' values are moved, not renumbered: elements the caller
 * keeps out of the index (chained behind another, say) stay out.
 */
int hash_index_resize(struct hash_index *x, uint32_t size,
		      hash_index_hash_fn hash_of, const void *ctx);

/* Room for count elements (see hash_index_size_for): -E2BIG, -ENOMEM. */
int hash_index_reserve(struct hash_index *x, uint64_t count, uint32_t first,
		       hash_index_hash_fn hash_of, const void *ctx);

void hash_index_free(struct hash_index *x);

#endif /* FXT_HASH_INDEX_H */
