/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the stack ingest filter writes (profile_ingest.h's emit), kept
 * whole as the archive would hold it, for the tests that read it back.
 * After <cmocka.h>.
 */
#ifndef FXT_TESTS_INGEST_OUT_H
#define FXT_TESTS_INGEST_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct out {
	uint64_t w[1 << 14];
	size_t len;
};

/* profile_emit_fn: appends the record to the struct out at ctx. */
static inline int collect(void *ctx, const uint64_t *rec, size_t words)
{
	struct out *o = ctx;

	assert_true(o->len + words <= sizeof(o->w) / sizeof(*o->w));
	memcpy(o->w + o->len, rec, words * sizeof(*rec));
	o->len += words;
	return 0;
}

#endif /* FXT_TESTS_INGEST_OUT_H */
