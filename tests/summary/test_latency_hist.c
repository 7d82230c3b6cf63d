// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary's latency histograms: every value falls in the bucket whose
 * bounds hold it, buckets are at most 1/128 of their values wide,
 * percentiles are the nearest-rank sample within that width, and a full
 * page pool counts samples without bucketing them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "latency_hist.h"

static void check_value(uint64_t v)
{
	unsigned int b = hist_bucket_of(v);
	uint64_t low = hist_bucket_low(b), width = hist_bucket_width(b);

	assert_true(b < HIST_BUCKETS);
	assert_true(low <= v);
	assert_true(v - low < width);
	assert_true(width == 1 || width * 128 <= low);
	/* the next bucket starts where this one ends */
	if (b + 1 < HIST_BUCKETS)
		assert_int_equal(hist_bucket_low(b + 1), low + width);
}

static void test_buckets_hold_their_values(void **state)
{
	uint64_t v, x = 0x9e3779b97f4a7c15ull;
	unsigned int i;

	(void)state;
	for (v = 0; v < 70000; v++)
		check_value(v);
	for (i = 0; i < 64; i++) {
		check_value(1ull << i);
		check_value((1ull << i) - 1);
		check_value((1ull << i) + 1);
	}
	check_value(UINT64_MAX);
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		check_value(x >> (x % 64));
	}
}

static void test_percentiles_nearest_rank(void **state)
{
	struct hist_pool pool;
	struct latency_hist h = { 0 };
	struct hist_percentiles p;
	uint64_t v;

	(void)state;
	hist_pool_init(&pool, 1u << 20);
	/* 1000 samples: 1000, 2000, ... 1000000 ns */
	for (v = 1; v <= 1000; v++)
		assert_int_equal(latency_hist_add(&h, &pool, v * 1000), 0);
	latency_hist_percentiles(&h, &pool, &p);
	assert_int_equal(h.count, 1000);
	assert_int_equal(h.max, 1000000);
	/* within one bucket (1/128) of the 500th, 900th and 990th */
	assert_true(llabs((long long)p.p50 - 500000) <= 500000 / 128);
	assert_true(llabs((long long)p.p90 - 900000) <= 900000 / 128);
	assert_true(llabs((long long)p.p99 - 990000) <= 990000 / 128);
	/* one sample: every percentile is it, exactly when small */
	latency_hist_free(&h);
	assert_int_equal(latency_hist_add(&h, &pool, 200), 0);
	latency_hist_percentiles(&h, &pool, &p);
	assert_int_equal(p.p50, 200);
	assert_int_equal(p.p99, 200);
	latency_hist_free(&h);
	hist_pool_free(&pool);
}

static void test_full_pool_counts_without_buckets(void **state)
{
	struct hist_pool pool;
	struct latency_hist h = { 0 };
	struct hist_percentiles p;

	(void)state;
	hist_pool_init(&pool, 2 * HIST_SUB_COUNT * sizeof(uint32_t));
	assert_int_equal(latency_hist_add(&h, &pool, 10), 0);	/* page 0 */
	assert_int_equal(latency_hist_add(&h, &pool, 1000), 0);	/* page 2 */
	assert_int_equal(latency_hist_add(&h, &pool, 1000000), 0); /* none */
	assert_int_equal(h.count, 3);
	assert_int_equal(h.unbucketed, 1);
	assert_int_equal(h.max, 1000000);
	latency_hist_percentiles(&h, &pool, &p);
	assert_int_equal(p.p50, 10);
	assert_true(p.p99 >= 1000 - 1000 / 128 && p.p99 <= 1000 + 1000 / 128);
	latency_hist_free(&h);
	hist_pool_free(&pool);
}

/*
 * Two histograms merged, into a pool of their own: the counts of both,
 * bucket by bucket; a page past the pool's ceiling counted unbucketed.
 */
static void test_merge(void **state)
{
	struct hist_pool pool, into;
	struct latency_hist a = { 0 }, b = { 0 }, m = { 0 };
	unsigned int k;

	(void)state;
	hist_pool_init(&pool, 1u << 20);
	hist_pool_init(&into, 2 * HIST_SUB_COUNT * sizeof(uint32_t));
	assert_int_equal(latency_hist_add(&a, &pool, 10), 0);
	assert_int_equal(latency_hist_add(&a, &pool, 1000), 0);
	assert_int_equal(latency_hist_add(&b, &pool, 10), 0);
	assert_int_equal(latency_hist_add(&b, &pool, 1000000), 0);
	assert_int_equal(latency_hist_merge(&m, &into, &a, &pool), 0);
	assert_int_equal(latency_hist_merge(&m, &into, &b, &pool), 0);
	assert_int_equal(m.count, 4);
	assert_int_equal(m.max, 1000000);
	assert_int_equal(m.sum, 10 + 1000 + 10 + 1000000);
	assert_int_equal(
		latency_hist_bucket_count(&m, &into, hist_bucket_of(10)), 2);
	assert_int_equal(
		latency_hist_bucket_count(&m, &into, hist_bucket_of(1000)), 1);
	/* the third page was past into's ceiling of two */
	assert_int_equal(m.unbucketed, 1);
	for (k = 0; k < HIST_BUCKETS; k++)
		assert_true(latency_hist_bucket_count(&m, &into, k) <=
			    latency_hist_bucket_count(&a, &pool, k) +
				    latency_hist_bucket_count(&b, &pool, k));
	/* an empty one adds nothing */
	latency_hist_free(&a);
	assert_int_equal(latency_hist_merge(&m, &into, &a, &pool), 0);
	assert_int_equal(m.count, 4);
	latency_hist_free(&b);
	latency_hist_free(&m);
	hist_pool_free(&into);
	hist_pool_free(&pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_hold_their_values),
		cmocka_unit_test(test_percentiles_nearest_rank),
		cmocka_unit_test(test_full_pool_counts_without_buckets),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
