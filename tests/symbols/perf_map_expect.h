/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a perf map names, word-exact, for the tests of the files that
 * fill one (test_perf_map.c, test_jitdump.c). After cmocka.h.
 */
#ifndef FXT_TEST_PERF_MAP_EXPECT_H
#define FXT_TEST_PERF_MAP_EXPECT_H

#include <errno.h>
#include <stdint.h>

#include "perf_map.h"

static inline void expect_name(const struct perf_map *m, uint64_t addr,
			       const char *want)
{
	const char *name = NULL;

	assert_int_equal(perf_map_lookup(m, addr, &name), 0);
	assert_string_equal(name, want);
}

static inline void expect_none(const struct perf_map *m, uint64_t addr)
{
	const char *name;

	assert_int_equal(perf_map_lookup(m, addr, &name), -ENOENT);
}

#endif /* FXT_TEST_PERF_MAP_EXPECT_H */
