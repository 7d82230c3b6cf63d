// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drain period of streaming kernel capture (drain_period.c): aimed at
 * a quarter of the fullest ring, at most doubled a drain, within 5 ms
 * and 100 ms, whatever the ring's fill says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "drain_period.h"

#define MS 1000000ull
#define RING (2ull << 20)

static void aims_at_a_quarter(void **state)
{
	(void)state;
	/* Half full after 100 ms: a quarter takes 50 ms. */
	assert_int_equal(drain_period_next(100 * MS, RING / 2, RING), 50 * MS);
	/* Full after 100 ms (it may have dropped): 25 ms at least. */
	assert_int_equal(drain_period_next(100 * MS, RING, RING), 25 * MS);
	/* A quarter full: the period holds. */
	assert_int_equal(drain_period_next(40 * MS, RING / 4, RING), 40 * MS);
}

static void grows_at_most_twofold(void **state)
{
	(void)state;
	assert_int_equal(drain_period_next(10 * MS, RING / 400, RING), 20 * MS);
	assert_int_equal(drain_period_next(5 * MS, 0, RING), 10 * MS);
	assert_int_equal(drain_period_next(80 * MS, 0, RING), 100 * MS);
	assert_int_equal(drain_period_next(100 * MS, 0, RING), 100 * MS);
}

static void stays_within_bounds(void **state)
{
	(void)state;
	assert_int_equal(drain_period_next(5 * MS, RING, RING),
			 DRAIN_PERIOD_MIN_NS);
	/* A fill past the ring (a corrupt counter) or a tiny ring. */
	assert_int_equal(drain_period_next(100 * MS, UINT64_MAX, RING),
			 DRAIN_PERIOD_MIN_NS);
	assert_int_equal(drain_period_next(100 * MS, 4096, 4096), 25 * MS);
	/* The largest ring, nearly empty: no overflow, the longest period. */
	assert_int_equal(drain_period_next(100 * MS, 8, 1ull << 30),
			 DRAIN_PERIOD_MAX_NS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(aims_at_a_quarter),
		cmocka_unit_test(grows_at_most_twofold),
		cmocka_unit_test(stays_within_bounds),
	};

	return cmocka_run_group_tests_name("drain period", tests, NULL, NULL);
}
