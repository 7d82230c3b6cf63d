/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reader's input (internal to the reader): bytes from a file, an fd
 * or memory, read in big chunks into one buffer that holds whole records.
 */
#ifndef FXT_READER_INPUT_H
#define FXT_READER_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "fxt_reader_state.h"

/* The fuzz targets build with a small chunk: inputs then cross chunks. */
#ifdef FXT_READER_READ_CHUNK
#define READ_CHUNK FXT_READER_READ_CHUNK
#else
#define READ_CHUNK (1u << 20)
#endif

/* Reads until need bytes are buffered: 1, 0 at end of input, <0 on error. */
int fxt_input_fill_more(struct fxt_reader *r, size_t need);
/*
 * Skips bytes past the buffered data: seeks where it can, else reads. 1,
 * 0 when the input ends first, <0 on error.
 */
int fxt_input_skip(struct fxt_reader *r, uint64_t bytes);

/*
 * 1 when need bytes are buffered, 0 at end of input, <0 on error. Twice
 * a record: the buffered case stays in line.
 */
static inline int fill(struct fxt_reader *r, size_t need)
{
	if (r->end - r->start >= need)
		return 1;
	return fxt_input_fill_more(r, need);
}

static inline uint64_t input_offset(const struct fxt_reader *r)
{
	return r->buf_offset + r->start;
}

static inline void consume(struct fxt_reader *r, uint64_t bytes)
{
	r->start += bytes;
	r->stats.bytes += bytes;
}

#endif /* FXT_READER_INPUT_H */
