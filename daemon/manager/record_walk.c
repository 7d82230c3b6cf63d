// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <string.h>

#include <fxt/fxt.h>

#include "record_walk.h"

static uint64_t record_words(uint64_t header)
{
	if (FXT_GET(header, FXT_HDR_TYPE) == FXT_RECORD_LARGE)
		return FXT_GET(header, FXT_LARGE_SIZE);
	return FXT_GET(header, FXT_HDR_SIZE);
}

int record_walk(const void *data, size_t len, struct record_walk_stats *st,
		size_t *end, record_emit_fn emit, void *ctx)
{
	const unsigned char *p = data;
	size_t pos = 0, run = 0;
	int r;

	len -= len % FXT_WORD_BYTES;
	while (pos < len) {
		uint64_t header, words;

		memcpy(&header, p + pos, sizeof(header));
		if (!header)
			break;
		words = record_words(header);
		if (!words || words > (len - pos) / FXT_WORD_BYTES) {
			st->skipped++;
			st->torn = true;
			break;
		}
		if (FXT_GET(header, FXT_HDR_TYPE) == FXT_RECORD_METADATA) {
			/* The spec: metadata from a provider is garbage. */
			if (run) {
				r = emit(ctx, p + pos - run, run);
				if (r < 0)
					return r;
				run = 0;
			}
			st->skipped++;
		} else {
			run += words * FXT_WORD_BYTES;
			st->records++;
			st->bytes += words * FXT_WORD_BYTES;
		}
		pos += words * FXT_WORD_BYTES;
	}
	*end = pos;
	return run ? emit(ctx, p + pos - run, run) : 0;
}
