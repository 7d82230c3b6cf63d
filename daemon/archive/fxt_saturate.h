/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Saturating arithmetic for values that come from an input: timestamps,
 * durations and their sums stop at UINT64_MAX instead of wrapping, so a
 * record at 2^64-1 can neither turn a sum small nor a loop's step to 0.
 */
#ifndef FXT_SATURATE_H
#define FXT_SATURATE_H

#include <stdint.h>

static inline uint64_t fxt_sat_add(uint64_t a, uint64_t b)
{
	uint64_t sum;

	return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

static inline uint64_t fxt_sat_mul(uint64_t a, uint64_t b)
{
	uint64_t product;

	return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

#endif /* FXT_SATURATE_H */
