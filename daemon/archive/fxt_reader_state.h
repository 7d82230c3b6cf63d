/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reader's state, shared by the files that make the reader (internal
 * to it): its input (fxt_reader_input.c), its providers with their tables
 * and its diagnostics (fxt_reader_state.c), the decoder (fxt_decode.c)
 * and the record loop (fxt_reader.c).
 */
#ifndef FXT_READER_STATE_H
#define FXT_READER_STATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fxt_reader.h"
#include "fxt_tables.h"

#define NS_PER_SECOND 1000000000ull

enum source_kind {
	SOURCE_MEM,	/* aligned memory, decoded in place */
	SOURCE_MEM_COPY, /* unaligned memory, copied through the buffer */
	SOURCE_FD,
	SOURCE_FILE,
};

struct provider_state {
	struct fxt_provider pub;
	char name[256];
	struct fxt_tables tables;
};

struct fxt_reader {
	struct fxt_reader_options opt;
	enum source_kind kind;
	int fd;
	FILE *file;
	const uint8_t *mem;
	size_t mem_len;
	size_t mem_pos;

	uint8_t *buf;		/* owned unless SOURCE_MEM */
	size_t cap;
	size_t start;		/* first unconsumed byte */
	size_t end;		/* end of valid data */
	uint64_t buf_offset;	/* input offset of buf[0] */
	bool eof;
	bool done;
	int io_error;

	struct provider_state **providers;
	size_t nproviders;
	size_t providers_cap;
	struct provider_state *current;
	bool too_many_providers;

	struct fxt_reader_stats stats;
	struct fxt_table_budget tables;	/* of every provider's tables */
	bool judged;		/* refuse_not_fxt: the start was looked at */
	char not_fxt[400];	/* why the input was refused, "" if it was not */
	uint64_t rec_offset;	/* offset of the record being decoded */
	bool rec_nonconforming;
	char reason[320];
};

/*
 * Counts a problem of this kind in the stats and hands it, formatted, to
 * the diagnostic callback.
 */
__attribute__((format(printf, 4, 5))) void
fxt_reader_diag(struct fxt_reader *r, enum fxt_diag_kind kind,
		uint64_t offset, const char *fmt, ...);

/*
 * Hands a problem, formatted, to the diagnostic callback (which must be
 * set), without counting it.
 */
__attribute__((format(printf, 4, 0))) void
fxt_reader_vreport(struct fxt_reader *r, enum fxt_diag_kind kind,
		   uint64_t offset, const char *fmt, va_list ap);

/* The provider with this id, created if new; NULL only without memory. */
struct provider_state *fxt_provider_state_get(struct fxt_reader *r,
					      uint32_t id, uint64_t offset);
/* A provider registered afresh: tables unset, ticks in nanoseconds. */
void fxt_provider_state_reset(struct provider_state *p);

/* Records before any provider metadata belong to an unnamed provider 0. */
static inline struct provider_state *current_provider(struct fxt_reader *r)
{
	if (!r->current)
		r->current = fxt_provider_state_get(r, 0, r->rec_offset);
	return r->current;
}

#endif /* FXT_READER_STATE_H */
