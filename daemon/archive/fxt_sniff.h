/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether input that does not start with the FXT magic number record is
 * FXT all the same (an archive of the 2018 revision, or one written
 * without it): only if its first records decode cleanly. A JSON or text
 * file, or random bytes, fail at the first record or soon after. The
 * reader judges so (fxt_reader.c, sniff_head) when refuse_not_fxt is set.
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

#endif /* FXT_SNIFF_H */
