/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The decoder (internal to the reader): one record's words into the
 * public struct fxt_record, with the provider state it defines or uses.
 */
#ifndef FXT_DECODE_H
#define FXT_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "fxt_reader_state.h"

/*
 * Decodes the record of size words at w, found at r->rec_offset, into
 * rec. Returns true when the record is to be handed out, false when it
 * was skipped (reported). Out of memory leaves r->io_error set.
 */
bool fxt_decode_record(struct fxt_reader *r, struct fxt_record *rec,
		       const uint64_t *w, uint64_t size);

#endif /* FXT_DECODE_H */
