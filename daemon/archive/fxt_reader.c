// SPDX-License-Identifier: GPL-2.0-only
/*
 * Streaming FXT reader: the object and its record loop. The rest of it:
 * its input (fxt_reader_input.c), its state, diagnostics and providers
 * (fxt_reader_state.c), the decoder (fxt_decode.c), what a decoded record
 * offers (fxt_record.c); a provider record's verdict without decoding
 * (fxt_verdict.c) stands beside it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_decode.h"
#include "fxt_reader.h"
#include "fxt_reader_input.h"
#include "fxt_reader_state.h"
#include "fxt_sniff.h"
#include "fxt_tables.h"

/* ---- opening and closing -------------------------------------------- */

static struct fxt_reader *reader_new(const struct fxt_reader_options *opt,
				     enum source_kind kind)
{
	struct fxt_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (opt)
		r->opt = *opt;
	if (!r->opt.max_large_record_bytes)
		r->opt.max_large_record_bytes = FXT_READER_LARGE_RECORD_MAX;
	r->tables.max = r->opt.max_table_bytes ? r->opt.max_table_bytes :
						 FXT_READER_TABLE_BYTES_MAX;
	r->kind = kind;
	r->fd = -1;
	if (kind != SOURCE_MEM) {
		r->cap = READ_CHUNK;
		r->buf = malloc(r->cap);
		if (!r->buf) {
			free(r);
			return NULL;
		}
	}
	return r;
}

struct fxt_reader *fxt_reader_open_fd(int fd,
				      const struct fxt_reader_options *opt)
{
	struct fxt_reader *r = reader_new(opt, SOURCE_FD);

	if (r)
		r->fd = fd;
	return r;
}

struct fxt_reader *fxt_reader_open_file(FILE *f,
					const struct fxt_reader_options *opt)
{
	struct fxt_reader *r = reader_new(opt, SOURCE_FILE);

	if (r)
		r->file = f;
	return r;
}

struct fxt_reader *fxt_reader_open_mem(const void *data, size_t len,
				       const struct fxt_reader_options *opt)
{
	bool aligned = ((uintptr_t)data % FXT_WORD_BYTES) == 0;
	struct fxt_reader *r;

	r = reader_new(opt, aligned ? SOURCE_MEM : SOURCE_MEM_COPY);
	if (!r)
		return NULL;
	r->mem = data;
	r->mem_len = data ? len : 0;
	if (aligned) {
		r->buf = (uint8_t *)data;
		r->end = r->mem_len;
		r->cap = r->mem_len;
		r->eof = true;
	}
	return r;
}

void fxt_reader_close(struct fxt_reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nproviders; i++) {
		fxt_tables_free(&r->providers[i]->tables, &r->tables);
		free(r->providers[i]);
	}
	free(r->providers);
	if (r->kind != SOURCE_MEM)
		free(r->buf);
	free(r);
}
const struct fxt_reader_stats *fxt_reader_stats(const struct fxt_reader *r)
{
	return &r->stats;
}

const char *fxt_reader_not_fxt(const struct fxt_reader *r)
{
	return r->not_fxt[0] ? r->not_fxt : NULL;
}

/* ---- the record loop ------------------------------------------------ */

static int end_truncated(struct fxt_reader *r, uint64_t need)
{
	uint64_t have = r->end - r->start;

	r->stats.truncated = true;
	fxt_reader_diag(r, FXT_DIAG_MALFORMED, input_offset(r),
			"input ends inside a record: %" PRIu64 " of %" PRIu64
			" bytes present; reading ends at the last whole record",
			have, need);
	consume(r, have);
	r->done = true;
	return 0;
}

static void check_magic_first(struct fxt_reader *r, uint64_t h, bool empty)
{
	if (!r->opt.expect_magic || r->stats.bytes || input_offset(r))
		return;
	if (empty)
		fxt_reader_diag(r, FXT_DIAG_NONCONFORMING, 0,
				"empty input: no FXT magic number record");
	else if (h != FXT_MAGIC_RECORD)
		fxt_reader_diag(r, FXT_DIAG_NONCONFORMING, 0,
				"input does not start with the FXT magic number record "
				"(bytes 10 00 04 46 78 54 16 00): not an FXT archive, "
				"or one written without it");
}

/*
 * A header of size 0 cannot be skipped by its size: skip it word by word
 * up to the next header with a size, reporting the run once. Returns <0
 * on an I/O error, else 0 (the caller goes on with what follows).
 */
static int skip_zero_sized(struct fxt_reader *r, uint64_t h)
{
	int ret;

	if (r->opt.provider_buffer && h == 0) {
		/* zero header word: the end of written data (provider ABI) */
		r->done = true;
		return 0;
	}
	fxt_reader_diag(r, FXT_DIAG_MALFORMED, input_offset(r),
			"record header 0x%016" PRIx64 " has size 0; skipping words up "
			"to the next header with a size",
			h);
	do {
		consume(r, FXT_WORD_BYTES);
		ret = fill(r, FXT_WORD_BYTES);
		if (ret <= 0)
			return ret;
		memcpy(&h, r->buf + r->start, sizeof(h));
	} while (!fxt_record_words(h));
	return 0;
}

static int skip_large(struct fxt_reader *r, uint64_t bytes)
{
	int ret;

	r->stats.large_skipped++;
	fxt_reader_diag(r, FXT_DIAG_MALFORMED, input_offset(r),
			"large record of %" PRIu64 " bytes is over the %" PRIu64
			"-byte limit; skipped",
			bytes, r->opt.max_large_record_bytes);
	ret = fxt_input_skip(r, bytes);
	if (!ret) {
		r->stats.truncated = true;
		r->done = true;
	}
	return ret;
}

static int reader_fail(struct fxt_reader *r, int err)
{
	r->done = true;
	r->io_error = err;
	return err;
}

struct sniff {
	struct fxt_reader *r;
	bool at_eof;
	bool failed;
	char *reason;
	size_t reason_size;
};

/* The first problem is the reason; a head cut inside a record is none. */
static void sniff_on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	static const char skipped[] = "; skipped";
	struct sniff *s = ctx;
	size_t len;

	if (s->failed || kind == FXT_DIAG_LIMIT)
		return;
	if (!s->at_eof && fxt_reader_stats(s->r)->truncated)
		return;
	s->failed = true;
	/* what the reader would do next is not what happens here */
	len = strlen(reason);
	if (len > sizeof(skipped) - 1 &&
	    !strcmp(reason + len - (sizeof(skipped) - 1), skipped))
		len -= sizeof(skipped) - 1;
	snprintf(s->reason, s->reason_size,
		 "no magic number record, and its first records do not read as "
		 "FXT (at offset %" PRIu64 ": %.*s)", offset, (int)len, reason);
}

/*
 * Judges head[0..len), the start of an input (all of it when at_eof),
 * which does not start with the magic number record, by reading it with
 * a second reader: true when its first records (at least one, at most
 * FXT_SNIFF_RECORDS) decode without any problem; else false, with why in
 * reason.
 */
static bool sniff_head(const void *head, size_t len, bool at_eof,
		       uint64_t max_large_record_bytes, char *reason,
		       size_t reason_size)
{
	struct sniff s = { .at_eof = at_eof, .reason = reason,
			   .reason_size = reason_size };
	struct fxt_reader_options opt = {
		.diag = sniff_on_diag,
		.diag_ctx = &s,
		.max_large_record_bytes = max_large_record_bytes,
	};
	struct fxt_record rec;
	unsigned int n = 0;

	s.r = fxt_reader_open_mem(head, len, &opt);
	if (!s.r) {
		snprintf(reason, reason_size, "out of memory judging the input");
		return false;
	}
	while (n < FXT_SNIFF_RECORDS && !s.failed &&
	       fxt_reader_next(s.r, &rec) > 0)
		n++;
	fxt_reader_close(s.r);
	if (!s.failed && !n) {
		s.failed = true;
		snprintf(reason, reason_size,
			 "no magic number record, and no whole record in its "
			 "first %zu bytes", len);
	}
	return !s.failed;
}

/*
 * refuse_not_fxt: before the first record, input that lacks the magic
 * number is judged on its start. 1 to read on, 0 refused, <0 on I/O error.
 */
static int judge_start(struct fxt_reader *r)
{
	uint64_t h;
	int ret;

	r->judged = true;
	ret = fill(r, FXT_SNIFF_BYTES);
	if (ret < 0)
		return reader_fail(r, ret);
	if (r->end - r->start < sizeof(h))
		return 1;	/* empty or a few bytes: said as before */
	memcpy(&h, r->buf + r->start, sizeof(h));
	if (h == FXT_MAGIC_RECORD ||
	    sniff_head(r->buf + r->start, r->end - r->start, r->eof,
		       r->opt.max_large_record_bytes, r->not_fxt,
		       sizeof(r->not_fxt)))
		return 1;
	r->done = true;
	return 0;
}

int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec)
{
	uint64_t h, words, bytes;
	int ret;

	if (r->opt.refuse_not_fxt && !r->judged) {
		ret = judge_start(r);
		if (ret <= 0)
			return ret;
	}
	for (;;) {
		if (r->done)
			return r->io_error;
		ret = fill(r, FXT_WORD_BYTES);
		if (ret < 0)
			return reader_fail(r, ret);
		if (!ret) {
			if (r->end == r->start)
				check_magic_first(r, 0, true);
			if (r->end > r->start)
				return end_truncated(r, FXT_WORD_BYTES);
			r->done = true;
			return 0;
		}
		memcpy(&h, r->buf + r->start, sizeof(h));
		check_magic_first(r, h, false);
		if (h == __builtin_bswap64(FXT_MAGIC_RECORD)) {
			fxt_reader_diag(r, FXT_DIAG_MALFORMED, input_offset(r),
					"big-endian FXT archive: not supported");
			r->done = true;
			return 0;
		}
		words = fxt_record_words(h);
		if (!words) {
			ret = skip_zero_sized(r, h);
			if (ret < 0)
				return reader_fail(r, ret);
			continue;
		}
		bytes = words * FXT_WORD_BYTES;
		if (bytes > r->opt.max_large_record_bytes &&
		    FXT_GET(h, FXT_HDR_TYPE) == FXT_RECORD_LARGE) {
			ret = skip_large(r, bytes);
			if (ret < 0)
				return reader_fail(r, ret);
			continue;
		}
		ret = fill(r, (size_t)bytes);
		if (ret < 0)
			return reader_fail(r, ret);
		if (!ret)
			return end_truncated(r, bytes);
		r->rec_offset = input_offset(r);
		ret = fxt_decode_record(r, rec,
					(const uint64_t *)(r->buf + r->start),
					words);
		consume(r, bytes);
		if (r->io_error)
			return reader_fail(r, r->io_error);
		if (ret) {
			r->stats.records++;
			r->stats.by_type[rec->type]++;
			return 1;
		}
	}
}
