/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walks an untrusted provider area record by record and hands on the runs
 * of records worth keeping: everything up to the first zero header word
 * (the end of what was written; in a rolling half, of a chunk) or the
 * first record that cannot be sized, without the metadata records a
 * provider must not write.
 */
#ifndef FXT_RECORD_WALK_H
#define FXT_RECORD_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct record_walk_stats {
	uint64_t records;	/* kept */
	uint64_t bytes;		/* kept */
	uint64_t skipped;	/* records left out */
	bool torn;		/* ended at a record that overruns the area */
};

/*
 * Appends len bytes of whole records; returns 0 or -errno. When it runs,
 * the walk's records count holds exactly the records handed on so far;
 * a long run of adjacent records comes in steps of a few MiB.
 */
typedef int (*record_emit_fn)(void *ctx, const void *data, size_t len);

/*
 * Adds to *st and sets *end to the bytes walked (where a later walk of
 * the same, growing area resumes). Returns 0 or the first error of emit.
 */
int record_walk(const void *data, size_t len, struct record_walk_stats *st,
		size_t *end, record_emit_fn emit, void *ctx);
/*
 * The same over an area written in chunks of chunk bytes (a rolling half,
 * <fxt/provider_abi.h>): a zero header word ends the records of its chunk
 * only. *end: the end of the last record walked.
 */
int record_walk_chunks(const void *data, size_t len, uint64_t chunk,
		       struct record_walk_stats *st, size_t *end,
		       record_emit_fn emit, void *ctx);
/* How many whole records data holds (by their headers' sizes). */
uint64_t record_walk_count(const void *data, size_t len);

#endif /* FXT_RECORD_WALK_H */
