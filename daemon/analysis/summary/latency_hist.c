// SPDX-License-Identifier: GPL-2.0-only
/* Log-linear latency histograms: see latency_hist.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_saturate.h"
#include "latency_hist.h"

void hist_pool_init(struct hist_pool *pool, size_t max_bytes)
{
	memset(pool, 0, sizeof(*pool));
	max_bytes /= sizeof(*pool->page);
	pool->max = max_bytes < HIST_POOL_PAGES_MAX ? (uint32_t)max_bytes :
						      HIST_POOL_PAGES_MAX;
}

void hist_pool_free(struct hist_pool *pool)
{
	free(pool->page);
	memset(pool, 0, sizeof(*pool));
}

void latency_hist_free(struct latency_hist *h)
{
	free(h->page_of);
	memset(h, 0, sizeof(*h));
}

unsigned int hist_bucket_of(uint64_t ns)
{
	unsigned int msb, shift;

	if (ns < 2 * HIST_SUB_COUNT)
		return (unsigned int)ns;
	msb = 63u - (unsigned int)__builtin_clzll(ns);
	shift = msb - HIST_SUB_BITS;
	/* the mantissa (ns >> shift) is in [128, 256): page shift + 1 */
	return shift * HIST_SUB_COUNT + (unsigned int)(ns >> shift);
}

uint64_t hist_bucket_width(unsigned int bucket)
{
	unsigned int page = bucket / HIST_SUB_COUNT;

	return page < 2 ? 1 : 1ull << (page - 1);
}

uint64_t hist_bucket_low(unsigned int bucket)
{
	unsigned int page = bucket / HIST_SUB_COUNT;

	if (page < 2)
		return bucket;
	return (uint64_t)(bucket % HIST_SUB_COUNT + HIST_SUB_COUNT)
	       << (page - 1);
}

/* The pool index + 1 of a new zeroed page, 0 past the ceiling. */
static uint32_t pool_take(struct hist_pool *pool)
{
	if (pool->used == pool->cap) {
		uint32_t cap = pool->cap ? pool->cap * 2 : 64;
		void *p;

		if (cap > pool->max)
			cap = pool->max;
		if (cap <= pool->used)
			return 0;
		p = realloc(pool->page, (size_t)cap * sizeof(*pool->page));
		if (!p)
			return 0;
		pool->page = p;
		pool->cap = cap;
	}
	memset(pool->page[pool->used], 0, sizeof(*pool->page));
	return ++pool->used;
}

int latency_hist_add(struct latency_hist *h, struct hist_pool *pool,
		     uint64_t ns)
{
	unsigned int bucket = hist_bucket_of(ns);
	unsigned int page = bucket / HIST_SUB_COUNT;

	if (!h->page_of) {
		h->page_of = calloc(HIST_PAGES, sizeof(*h->page_of));
		if (!h->page_of)
			return -ENOMEM;
	}
	h->count++;
	h->sum = fxt_sat_add(h->sum, ns);
	if (ns > h->max)
		h->max = ns;
	if (!h->page_of[page])
		h->page_of[page] = (uint16_t)pool_take(pool);
	if (!h->page_of[page]) {
		h->unbucketed++;
		return 0;
	}
	pool->page[h->page_of[page] - 1][bucket % HIST_SUB_COUNT]++;
	return 0;
}

/* Adds n to bucket i of page: taken from pool when needed. */
static void add_counts(struct latency_hist *h, struct hist_pool *pool,
		       unsigned int page, const uint32_t *counts)
{
	unsigned int i;

	if (!h->page_of[page])
		h->page_of[page] = (uint16_t)pool_take(pool);
	for (i = 0; i < HIST_SUB_COUNT; i++) {
		if (h->page_of[page])
			pool->page[h->page_of[page] - 1][i] += counts[i];
		else
			h->unbucketed += counts[i];
	}
}

int latency_hist_merge(struct latency_hist *dst, struct hist_pool *dst_pool,
		       const struct latency_hist *src,
		       const struct hist_pool *src_pool)
{
	uint32_t counts[HIST_SUB_COUNT];
	unsigned int page;

	if (!src->count)
		return 0;
	if (!dst->page_of) {
		dst->page_of = calloc(HIST_PAGES, sizeof(*dst->page_of));
		if (!dst->page_of)
			return -ENOMEM;
	}
	dst->count += src->count;
	dst->sum = fxt_sat_add(dst->sum, src->sum);
	dst->unbucketed += src->unbucketed;
	if (src->max > dst->max)
		dst->max = src->max;
	for (page = 0; src->page_of && page < HIST_PAGES; page++) {
		if (!src->page_of[page])
			continue;
		/* a copy: taking a page may move the pool, src's too */
		memcpy(counts, src_pool->page[src->page_of[page] - 1],
		       sizeof(counts));
		add_counts(dst, dst_pool, page, counts);
	}
	return 0;
}

uint32_t latency_hist_bucket_count(const struct latency_hist *h,
				   const struct hist_pool *pool,
				   unsigned int bucket)
{
	unsigned int idx;

	if (!h->page_of || bucket >= HIST_BUCKETS)
		return 0;
	idx = h->page_of[bucket / HIST_SUB_COUNT];
	return idx ? pool->page[idx - 1][bucket % HIST_SUB_COUNT] : 0;
}

static uint64_t bucket_middle(unsigned int bucket, uint64_t max)
{
	uint64_t v = hist_bucket_low(bucket) +
		     (hist_bucket_width(bucket) - 1) / 2;

	return v < max ? v : max;
}

void latency_hist_percentiles(const struct latency_hist *h,
			      const struct hist_pool *pool,
			      struct hist_percentiles *out)
{
	static const unsigned int pct[3] = { 50, 90, 99 };
	uint64_t *dst[3] = { &out->p50, &out->p90, &out->p99 };
	uint64_t n = h->count - h->unbucketed, rank[3], seen = 0;
	unsigned int page, i, k = 0;

	memset(out, 0, sizeof(*out));
	if (!n || !h->page_of)
		return;
	for (i = 0; i < 3; i++) {
		/* nearest rank: the smallest sample with rank >= p% of n */
		rank[i] = (n * pct[i] + 99) / 100;
		if (!rank[i])
			rank[i] = 1;
	}
	for (page = 0; page < HIST_PAGES && k < 3; page++) {
		const uint32_t *counts;

		if (!h->page_of[page])
			continue;
		counts = pool->page[h->page_of[page] - 1];
		for (i = 0; i < HIST_SUB_COUNT && k < 3; i++) {
			seen += counts[i];
			while (k < 3 && seen >= rank[k])
				*dst[k++] = bucket_middle(
					page * HIST_SUB_COUNT + i, h->max);
		}
	}
}
