/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stack records of a merge's inputs (include/fxt/stacks.h) in one id
 * space: each input numbers its mappings, frames and stacks from 1, so
 * the merged archive would define every id once per input and readers
 * would keep the first input's. Each input's ids are moved past the ids
 * of the inputs before it: id + base, per space, where base is the
 * highest output id the inputs before it took. No table is kept (memory
 * stays constant whatever the inputs hold); the first input's ids stay
 * as they are. Id 0 (no mapping, the kernel's; never a frame or stack)
 * stays 0. An entry or a sample whose id passes 32 bits is left out and
 * counted (merge_stack_ids.lost): a hostile input with huge ids costs the
 * inputs after it their stacks, never memory or a wrong stack.
 */
#ifndef FXT_MERGE_STACKS_H
#define FXT_MERGE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt_reader.h"

enum merge_stack_space {
	MERGE_STACK_MAPPINGS,
	MERGE_STACK_FRAMES,
	MERGE_STACK_STACKS,
	MERGE_STACK_SPACES,
};

struct merge_stack_ids {
	uint64_t base[MERGE_STACK_SPACES]; /* added to the input's ids */
	uint64_t max[MERGE_STACK_SPACES]; /* the highest output id taken */
	uint64_t lost; /* entries and samples left out */
};

/* An input's ids after prev's (NULL: the first input, ids kept). */
void merge_stack_ids_follow(struct merge_stack_ids *m,
			    const struct merge_stack_ids *prev);

/* The output's id of the input's id in space s; false past 32 bits. */
bool merge_stack_id(struct merge_stack_ids *m, enum merge_stack_space s,
		    uint64_t id, uint32_t *out);

/*
 * A stack table blob record (words, size_words of them) rewritten into
 * out (room for size_words): its entries' ids moved, those that do not
 * fit left out and counted, an entry cut by the record's end and what
 * follows copied as they are (readers count them). The words written;
 * 0 if rec is not a stack table (written as it is then).
 */
size_t merge_stack_table(struct merge_stack_ids *m,
			 const struct fxt_record *rec, uint64_t *out);

#endif /* FXT_MERGE_STACKS_H */
