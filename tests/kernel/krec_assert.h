/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmocka checks of the kernel side's encoders through the guest's decoder
 * (krec.h), shared by the layout tests of every kernel category.
 */
#ifndef FXT_KREC_ASSERT_H
#define FXT_KREC_ASSERT_H

#include "krec.h"

#define EXPECT_WORD(got, want) assert_int_equal((uint64_t)(got), (uint64_t)(want))

/* The encoders write __u64 (unsigned long long), krec reads uint64_t. */
static inline void decode_ok(const __u64 *w, unsigned int words, struct krec *r)
{
	char why[128] = "";

	assert_int_equal(krec_decode((const uint64_t *)w, words, r, why, sizeof(why)), words);
	assert_string_equal(why, "");
}

/* The decoder refuses the words w (they are not what the kernel writes). */
static inline void decode_refused(const __u64 *w, unsigned int words)
{
	struct krec r;
	char why[128];

	assert_int_equal(krec_decode((const uint64_t *)w, words, &r, why, sizeof(why)), 0);
}

#endif /* FXT_KREC_ASSERT_H */
