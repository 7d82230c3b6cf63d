/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The summary's stack samples as text, after the summary's tables
 * (summary_text.h), only when the archive holds stack records (or with
 * --slice): the top functions by on-CPU samples (self and total, as
 * percentages of the samples), the same for the threads with the most
 * samples, the off-CPU stacks that blocked longest, and the functions
 * inside the slowest slices of --slice NAME. stacks_json.h writes the
 * same as JSON.
 */
#ifndef FXT_STACKS_TEXT_H
#define FXT_STACKS_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "trace_summary.h"

/* top: rows of each list; 0: the default. 0 or -ENOMEM. */
int stacks_text_write(FILE *out, const struct trace_summary *s, size_t top);

#endif /* FXT_STACKS_TEXT_H */
