/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether input that does not start with the FXT magic number record is
 * FXT all the same (an archive of the 2018 revision, or one written
 * without it): only if its first records decode cleanly. A JSON or text
 * file, or random bytes, fail at the first record or soon after.
 */
#ifndef FXT_SNIFF_H
#define FXT_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How much of the input is judged: the largest normal record, twice. */
#define FXT_SNIFF_BYTES (64u << 10)
/* Records judged at most. */
#define FXT_SNIFF_RECORDS 16u

/*
 * Judges head[0..len), the start of an input (all of it when at_eof),
 * which does not start with the magic number record: true when its first
 * records (at least one, at most FXT_SNIFF_RECORDS) decode without any
 * problem; else false, with why in reason.
 */
bool fxt_sniff_head(const void *head, size_t len, bool at_eof,
		    uint64_t max_large_record_bytes, char *reason,
		    size_t reason_size);

#endif /* FXT_SNIFF_H */
