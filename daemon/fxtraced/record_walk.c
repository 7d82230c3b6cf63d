// SPDX-License-Identifier: GPL-2.0-only
/*
 * Two passes over each segment of an untrusted area. The first walks
 * header sizes only, to find where the written records end (a zero
 * header word, or a record overrunning the area: a writer that died
 * mid-record). The second judges each record as the FXT reader in
 * provider-buffer mode would, from its sizes alone, dropping the metadata
 * records and the malformed ones; the rest is kept, in runs of adjacent
 * records. A rolling half has a segment per writer chunk: after
 * a zero header word the walk goes on at the next chunk boundary.
 */
#include <errno.h>
#include <string.h>

#include <fxt/fxt.h>
#include <fxt/provider_abi.h>

#include "fxt_verdict.h"
#include "record_walk.h"

/* A run of adjacent records is handed on by chunk once this long. */
#define RECORD_WALK_RUN_MAX (4u * 1024u * 1024u)

struct run {
	const unsigned char *base;
	size_t start, len;
	record_emit_fn emit;
	void *ctx;
};

static int flush(struct run *run)
{
	int r = 0;

	if (run->len)
		r = run->emit(run->ctx, run->base + run->start, run->len);
	run->len = 0;
	return r;
}

static int add(struct run *run, size_t offset, size_t len)
{
	int r;

	if (run->len && run->start + run->len == offset) {
		run->len += len;
		return 0;
	}
	r = flush(run);
	run->start = offset;
	run->len = len;
	return r;
}

/* What a walk saw: records by their headers, those kept, a torn end. */
struct counts {
	uint64_t headers, kept;
	bool torn;
};

/*
 * Walks the records from pos to the end of what was written (a zero
 * header word, the end of the area, or a record that overruns it: torn)
 * and sets *stop to the end of the last whole one. With a run, hands it
 * those the FXT reader keeps, judged by their sizes
 * (fxt_provider_record_verdict()): nothing is decoded, so the bytes go
 * on at the speed of their headers. Returns 0 or the first error of emit.
 */
static int walk_segment(struct run *run, const unsigned char *base, size_t pos,
			size_t len, struct record_walk_stats *st,
			struct counts *n, size_t *stop)
{
	bool judging = run != NULL;	/* reading stops at some records */
	int r;

	while (pos + FXT_WORD_BYTES <= len) {
		const unsigned char *rec = base + pos;
		uint64_t header, words;
		size_t bytes;

		memcpy(&header, rec, sizeof(header));
		if (!header)
			break;
		words = fxt_record_words(header);
		if (!words || words > (len - pos) / FXT_WORD_BYTES) {
			n->torn = true;
			break;
		}
		n->headers++;
		bytes = (size_t)words * FXT_WORD_BYTES;
		*stop = pos + bytes;
		if (!judging) {
			pos += bytes;
			continue;
		}
		switch (fxt_provider_record_verdict(rec, words)) {
		case FXT_RECORD_STOP:
			judging = false;
			break;
		case FXT_RECORD_SKIP:
			break;
		case FXT_RECORD_KEEP:
			r = add(run, pos, bytes);
			if (r < 0)
				return r;
			n->kept++;
			st->records++;
			st->bytes += bytes;
			/* Long runs go on in steps: the receiver may pass them on. */
			if (run->len >= RECORD_WALK_RUN_MAX) {
				r = flush(run);
				if (r < 0)
					return r;
			}
			break;
		}
		pos += bytes;
	}
	return 0;
}

int record_walk_chunks(const void *data, size_t len, uint64_t chunk,
		       struct record_walk_stats *st, size_t *end,
		       record_emit_fn emit, void *ctx)
{
	struct run run = { .base = data, .emit = emit, .ctx = ctx };
	struct counts n = { 0 };
	size_t pos = 0, stop;
	int r = 0;

	*end = 0;
	while (pos + FXT_WORD_BYTES <= len) {
		stop = pos;
		r = walk_segment(&run, data, pos, len, st, &n, &stop);
		if (r < 0)
			break;
		if (stop > pos)
			*end = stop;
		/* At a zero header word the writer's chunk ends (provider_abi.h). */
		if (n.torn || !chunk)
			break;
		pos = fxt_chunk_next(stop, chunk);
	}
	if (r >= 0)
		r = flush(&run);
	st->skipped += (n.headers > n.kept ? n.headers - n.kept : 0) + n.torn;
	st->torn |= n.torn;
	return r;
}

int record_walk(const void *data, size_t len, struct record_walk_stats *st,
		size_t *end, record_emit_fn emit, void *ctx)
{
	return record_walk_chunks(data, len, 0, st, end, emit, ctx);
}

uint64_t record_walk_count(const void *data, size_t len)
{
	struct counts n = { 0 };
	size_t stop = 0;

	(void)walk_segment(NULL, data, 0, len, NULL, &n, &stop);
	return n.headers;
}
