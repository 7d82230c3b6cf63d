// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table entries not written yet (struct profile_table): a blob
 * record's worth, flushed when full, and the three tables of
 * definitions in the order readers need them.
 */
#include <errno.h>

#include "profile_internal.h"

int profile_table_flush(struct profile_table *t, profile_emit_fn emit,
			void *ctx)
{
	size_t words = 1 + t->len;
	int err;

	if (!t->len)
		return 0;
	t->buf[0] = fxt_blob_header((uint32_t)words, t->name_ref,
				    (uint16_t)(t->len * FXT_WORD_BYTES),
				    FXT_BLOB_DATA);
	err = emit(ctx, t->buf, words);
	t->len = 0;
	return err;
}

int profile_table_room(struct profile_table *t, size_t words,
		       profile_emit_fn emit, void *ctx, uint64_t **at)
{
	const size_t max = FXT_STACKS_BLOB_PAYLOAD_MAX / FXT_WORD_BYTES;
	int err;

	if (words > max)
		return -E2BIG;
	if (t->len + words > max) {
		err = profile_table_flush(t, emit, ctx);
		if (err)
			return err;
	}
	*at = t->buf + 1 + t->len;
	t->len += words;
	return 0;
}

/* Mappings, then frames, then stacks: each before what names it. */
int profile_pending_flush(struct profile_ingest *p, profile_emit_fn emit,
			  void *ctx)
{
	int err = 0;
	unsigned int i;

	for (i = 0; i < 3 && !err; i++)
		err = profile_table_flush(p->pending[i], emit, ctx);
	return err;
}

/* Room in table i; a full table first flushes those before it. */
int profile_pending_room(struct profile_ingest *p, unsigned int i, size_t words,
			 profile_emit_fn emit, void *ctx, uint64_t **at)
{
	const size_t max = FXT_STACKS_BLOB_PAYLOAD_MAX / FXT_WORD_BYTES;
	unsigned int j;
	int err;

	if (p->pending[i]->len + words > max)
		for (j = 0; j < i; j++) {
			err = profile_table_flush(p->pending[j], emit, ctx);
			if (err)
				return err;
		}
	return profile_table_room(p->pending[i], words, emit, ctx, at);
}
