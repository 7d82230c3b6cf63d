/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One pass of a merge over one input: the reader over its file from the
 * start, held to the merge's limits, and the first problem that refuses
 * the input (a malformed record, a table past its limit, not FXT at all)
 * with its offset.
 */
#ifndef FXT_MERGE_INPUT_H
#define FXT_MERGE_INPUT_H

#include <stdbool.h>

#include "fxt_merge.h"
#include "fxt_reader.h"

struct merge_input {
	struct merge_host *host;
	struct fxt_reader *reader;
	struct fxt_merge_problem *problem;
};

/* 0, or -errno with *problem set. */
int merge_input_open(struct merge_input *in, struct merge_host *h,
		     const struct fxt_merge_options *opt,
		     struct fxt_merge_problem *problem);
/* 1: a record in *rec; 0: the end; -errno with *problem set. */
int merge_input_next(struct merge_input *in, struct fxt_record *rec);
void merge_input_close(struct merge_input *in);

/* Sets *problem unless it is set already; returns err. */
__attribute__((format(printf, 6, 7))) int
merge_problem(struct fxt_merge_problem *problem, int err, size_t host,
	      bool has_offset, uint64_t offset, const char *fmt, ...);

#endif /* FXT_MERGE_INPUT_H */
