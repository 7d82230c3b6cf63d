/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rows of the "samples" table, made once the whole archive is read:
 * a sample's stack is named by tables (frames, stacks, symbols) that may
 * come after it, so export_rows collects the stack records as tracectl
 * summary does (stack_tables.h, bounded by its ceilings, what does not
 * fit counted there) and the rows are made from them at the end, each
 * stack's function names leaf first as stack_profile.h gives them.
 */
#ifndef FXT_EXPORT_SAMPLES_H
#define FXT_EXPORT_SAMPLES_H

#include <stddef.h>

#include "export_rows.h"
#include "export_sender.h"

/*
 * The samples x collected as rows, queued on snd a chunk_bytes chunk at
 * a time (the last one left in x->rows for the caller): 0, -ENOMEM or
 * the sender's failure.
 */
int export_samples_rows(struct export_rows *x, struct export_sender *snd,
			size_t chunk_bytes);

#endif /* FXT_EXPORT_SAMPLES_H */
