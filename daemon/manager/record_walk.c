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

#include "fxt_reader.h"
#include "record_walk.h"

/* A run of adjacent records is handed on by chunk once this long. */
#define RECORD_WALK_RUN_MAX (4u * 1024u * 1024u)

/* Bytes of whole records before the end; counts them in *headers. */
static size_t written_end(const unsigned char *p, size_t len,
			  uint64_t *headers, bool *torn)
{
	size_t pos = 0;

	while (pos + FXT_WORD_BYTES <= len) {
		uint64_t header, words;

		memcpy(&header, p + pos, sizeof(header));
		if (!header)
			break;
		words = fxt_record_words(header);
		if (!words || words > (len - pos) / FXT_WORD_BYTES) {
			*torn = true;
			break;
		}
		(*headers)++;
		pos += words * FXT_WORD_BYTES;
	}
	return pos;
}

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

/*
 * Hands the records of [start, stop) that the FXT reader keeps to run,
 * judged by their sizes (fxt_provider_record_verdict()): nothing is
 * decoded, so the bytes go on at the speed of their headers.
 */
static int walk_segment(struct run *run, size_t start, size_t stop,
			struct record_walk_stats *st, uint64_t *kept)
{
	size_t pos = start;
	int r = 0;

	while (pos < stop) {
		const unsigned char *rec = run->base + pos;
		uint64_t header;
		size_t bytes;

		memcpy(&header, rec, sizeof(header));
		bytes = (size_t)fxt_record_bytes(header);
		switch (fxt_provider_record_verdict(rec, bytes / FXT_WORD_BYTES)) {
		case FXT_RECORD_STOP:
			return 0;
		case FXT_RECORD_SKIP:
			break;
		case FXT_RECORD_KEEP:
			r = add(run, pos, bytes);
			if (r < 0)
				return r;
			(*kept)++;
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
	const unsigned char *p = data;
	uint64_t headers = 0, kept = 0;
	size_t pos = 0, stop;
	bool torn = false;
	int r = 0;

	*end = 0;
	while (pos + FXT_WORD_BYTES <= len) {
		stop = pos + written_end(p + pos, len - pos, &headers, &torn);
		if (stop > pos) {
			r = walk_segment(&run, pos, stop, st, &kept);
			if (r < 0)
				break;
			*end = stop;
		}
		/* At a zero header word the writer's chunk ends (provider_abi.h). */
		if (torn || !chunk)
			break;
		pos = fxt_chunk_next(stop, chunk);
	}
	if (r >= 0)
		r = flush(&run);
	st->skipped += (headers > kept ? headers - kept : 0) + torn;
	st->torn |= torn;
	return r;
}

int record_walk(const void *data, size_t len, struct record_walk_stats *st,
		size_t *end, record_emit_fn emit, void *ctx)
{
	return record_walk_chunks(data, len, 0, st, end, emit, ctx);
}

uint64_t record_walk_count(const void *data, size_t len)
{
	uint64_t headers = 0;
	bool torn = false;

	(void)written_end(data, len, &headers, &torn);
	return headers;
}
