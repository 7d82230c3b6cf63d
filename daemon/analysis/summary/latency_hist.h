/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-linear histograms of nanosecond values (HDR style), for latency
 * percentiles in bounded memory whatever the number of samples.
 *
 * Values below 256 have a bucket each; above, every power of two is cut
 * into 128 equal buckets, so a bucket is at most 1/128 (0.8%) of its
 * values wide. Buckets live in pages of 128 counters taken from a pool
 * shared by all histograms, only for the powers of two a histogram
 * meets; the pool has a fixed ceiling, and a sample that would need a
 * page past it is counted (count, max) but not bucketed.
 */
#ifndef FXT_LATENCY_HIST_H
#define FXT_LATENCY_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB_COUNT (1u << HIST_SUB_BITS)
/* Pages 0 and 1 are the exact values 0..255; then one per power of 2. */
#define HIST_PAGES (64 - HIST_SUB_BITS + 1)
#define HIST_BUCKETS (HIST_PAGES * HIST_SUB_COUNT)

/* Page numbers are 16-bit: 32 MiB of pages at the most. */
#define HIST_POOL_PAGES_MAX 65535u

struct hist_pool {
	uint32_t (*page)[HIST_SUB_COUNT];
	uint32_t used;
	uint32_t cap;
	uint32_t max;		/* ceiling in pages, at most HIST_POOL_PAGES_MAX */
};

struct latency_hist {
	uint64_t count;
	uint64_t max;
	uint64_t sum;
	uint64_t unbucketed;	/* samples past the pool's ceiling */
	uint16_t *page_of;	/* HIST_PAGES pool indexes + 1; NULL: empty */
};

struct hist_percentiles {
	uint64_t p50, p90, p99;
};

void hist_pool_init(struct hist_pool *pool, size_t max_bytes);
void hist_pool_free(struct hist_pool *pool);
void latency_hist_free(struct latency_hist *h);

/* 0, or -ENOMEM when not even the page table could be allocated. */
int latency_hist_add(struct latency_hist *h, struct hist_pool *pool,
		     uint64_t ns);

/*
 * Adds src (its buckets in src_pool) to dst, whose pages come from
 * dst_pool (past its ceiling: counted, not bucketed). 0 or -ENOMEM.
 */
int latency_hist_merge(struct latency_hist *dst, struct hist_pool *dst_pool,
		       const struct latency_hist *src,
		       const struct hist_pool *src_pool);

unsigned int hist_bucket_of(uint64_t ns);
/* The bucket's first value and its width. */
uint64_t hist_bucket_low(unsigned int bucket);
uint64_t hist_bucket_width(unsigned int bucket);

/* Samples in bucket (0 when its page was never needed). */
uint32_t latency_hist_bucket_count(const struct latency_hist *h,
				   const struct hist_pool *pool,
				   unsigned int bucket);

/*
 * Nearest-rank percentiles of the bucketed samples, each the middle of
 * its bucket (never above max). All 0 for an empty histogram.
 */
void latency_hist_percentiles(const struct latency_hist *h,
			      const struct hist_pool *pool,
			      struct hist_percentiles *out);

#endif /* FXT_LATENCY_HIST_H */
