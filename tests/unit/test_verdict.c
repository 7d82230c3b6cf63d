// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt_provider_record_verdict() against the decoder it stands in for: a
 * corpus of records, valid (every kind, from the sample archive) and
 * damaged (every bit of every word flipped, every size, random records
 * shaped like real ones), each judged by both: the reader in
 * provider-buffer mode keeps it, skips it or stops before it; the verdict
 * must say the same. Then whole areas of them, walked both ways, keep the
 * same records. The random sequences are seeded: a failure reproduces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fxt_verdict.h"
#include "test_support.h"

/* A case's record has at most this many words (and a record after it). */
#define CASE_WORDS 64u
#define SENTINEL_WORDS 2u

struct tally {
	size_t cases, kept, skipped, stopped;
};

/*
 * The decoder's verdict on the record at buf (its header's size), with an
 * initialization record after it: kept if the reader returns the record,
 * skipped if it returns the next one first, stopped if neither.
 */
static enum fxt_record_verdict decoder_verdict(const uint64_t *buf,
					       uint64_t words)
{
	struct fxt_reader_options opt = { .provider_buffer = true };
	enum fxt_record_verdict v = FXT_RECORD_STOP;
	struct fxt_record rec;
	struct fxt_reader *r;

	r = fxt_reader_open_mem(buf, (words + SENTINEL_WORDS) * FXT_WORD_BYTES,
				&opt);
	assert_non_null(r);
	if (fxt_reader_next(r, &rec) > 0)
		v = rec.offset == 0 ? FXT_RECORD_KEEP : FXT_RECORD_SKIP;
	fxt_reader_close(r);
	return v;
}

/* Judges words (whose header sizes the record) both ways. */
static void judge(const uint64_t *words, size_t have, struct tally *t)
{
	static uint64_t buf[CASE_WORDS + SENTINEL_WORDS];
	uint64_t n = fxt_record_words(words[0]);
	enum fxt_record_verdict want, got;

	/* The walk never passes a record of size 0 or past its area. */
	if (!n || n > CASE_WORDS)
		return;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, words, (have < n ? have : n) * FXT_WORD_BYTES);
	buf[n] = fxt_init_header();
	buf[n + 1] = 1000000000;
	want = decoder_verdict(buf, n);
	got = fxt_provider_record_verdict(buf, n);
	if (want != got)
		fail_msg("header 0x%016llx, %llu words: decoder %d, verdict %d",
			 (unsigned long long)words[0], (unsigned long long)n,
			 want, got);
	t->cases++;
	t->kept += want == FXT_RECORD_KEEP;
	t->skipped += want == FXT_RECORD_SKIP;
	t->stopped += want == FXT_RECORD_STOP;
}

/* The sample archive's records, each with its offset in words. */
struct corpus {
	struct fxt_writer w;
	const uint64_t *words;
	size_t start[64], len[64], n;
};

static void corpus_load(struct corpus *c)
{
	size_t pos = 0, total;

	fxt_writer_init(&c->w);
	sample_archive(&c->w);
	c->words = fxt_writer_data(&c->w);
	total = fxt_writer_size(&c->w) / FXT_WORD_BYTES;
	c->n = 0;
	while (pos < total) {
		size_t len = (size_t)fxt_record_words(c->words[pos]);

		assert_true(len && c->n < 64);
		c->start[c->n] = pos;
		c->len[c->n++] = len;
		pos += len;
	}
}

static void valid_records(void **state)
{
	struct tally t = { 0 };
	struct corpus c;
	size_t i;

	(void)state;
	corpus_load(&c);
	for (i = 0; i < c.n; i++)
		judge(&c.words[c.start[i]], c.len[i], &t);
	/* All kept but the metadata records, and the large ones judged too. */
	assert_int_equal(t.cases, c.n);
	assert_true(t.kept >= c.n - 6 && t.skipped >= 1);
	fxt_writer_release(&c.w);
}

static void bit_flips(void **state)
{
	uint64_t words[CASE_WORDS];
	struct tally t = { 0 };
	struct corpus c;
	size_t i, k;
	unsigned int b;

	(void)state;
	corpus_load(&c);
	for (i = 0; i < c.n; i++) {
		size_t len = c.len[i] < CASE_WORDS ? c.len[i] : CASE_WORDS;

		for (k = 0; k < len; k++) {
			for (b = 0; b < 64; b++) {
				memcpy(words, &c.words[c.start[i]],
				       len * FXT_WORD_BYTES);
				words[k] ^= 1ull << b;
				judge(words, len, &t);
			}
		}
	}
	assert_true(t.kept > 1000 && t.skipped > 1000);
	fxt_writer_release(&c.w);
}

/* Each record with every size from 1 to 4 words past its own. */
static void every_size(void **state)
{
	uint64_t words[CASE_WORDS];
	struct tally t = { 0 };
	struct corpus c;
	uint64_t size;
	size_t i;

	(void)state;
	corpus_load(&c);
	for (i = 0; i < c.n; i++) {
		size_t len = c.len[i] < CASE_WORDS ? c.len[i] : CASE_WORDS;

		for (size = 1; size <= len + 4 && size < CASE_WORDS; size++) {
			memcpy(words, &c.words[c.start[i]],
			       len * FXT_WORD_BYTES);
			if (FXT_GET(words[0], FXT_HDR_TYPE) == FXT_RECORD_LARGE)
				words[0] = (words[0] &
					    ~(fxt_mask(FXT_LARGE_SIZE_WIDTH)
					      << FXT_LARGE_SIZE_SHIFT)) |
					   FXT_SET(size, FXT_LARGE_SIZE);
			else
				words[0] = (words[0] &
					    ~(fxt_mask(FXT_HDR_SIZE_WIDTH)
					      << FXT_HDR_SIZE_SHIFT)) |
					   FXT_SET(size, FXT_HDR_SIZE);
			judge(words, len, &t);
		}
	}
	assert_true(t.kept > 30 && t.skipped > 100);
	fxt_writer_release(&c.w);
}

/* A string ref: empty, an index, or inline of a short length. */
static uint64_t random_string_ref(void)
{
	switch (test_rand() % 4) {
	case 0:
		return 0;
	case 1:
		return 1 + test_rand() % 100;
	default:
		return FXT_STRING_REF_INLINE | test_rand() % 40;
	}
}

/* An argument header of a likely size, type and refs. */
static uint64_t random_arg_header(void)
{
	return FXT_SET(test_rand() % 12, FXT_ARG_TYPE) |
	       FXT_SET(test_rand() % 6, FXT_ARG_SIZE) |
	       FXT_SET(random_string_ref(), FXT_ARG_NAME) |
	       (test_rand() % 2 ?
			FXT_SET(random_string_ref(), FXT_ARG_STRING_VALUE) :
			test_rand() << 32);
}

/*
 * A record of a random type and small size whose fields are mostly
 * plausible: small arg counts, short inline strings, inline threads or
 * indexes; its words are random or argument headers.
 */
static void random_record(uint64_t *words, size_t *len)
{
	unsigned int type = test_rand() % 16, i;
	uint64_t size = 1 + test_rand() % 16, h = test_rand();

	h &= ~(fxt_mask(4) | (fxt_mask(12) << 4));
	h |= type | FXT_SET(size, FXT_HDR_SIZE);
	if (type == FXT_RECORD_LARGE) {
		h &= ~(fxt_mask(FXT_LARGE_SIZE_WIDTH) << FXT_LARGE_SIZE_SHIFT);
		h |= FXT_SET(size, FXT_LARGE_SIZE);
	}
	/* Refs and counts at every place the record kinds have them. */
	if (test_rand() % 2) {
		h &= ~(fxt_mask(4) << 20);	/* nargs of events, objects */
		h |= (test_rand() % 4) << 20;
	}
	if (test_rand() % 2)
		h &= ~(fxt_mask(8) << 24);	/* an inline thread */
	if (test_rand() % 2) {
		h &= ~(fxt_mask(32) << 32);
		h |= random_string_ref() << 32 | random_string_ref() << 48;
	}
	words[0] = h;
	for (i = 1; i < size; i++)
		words[i] = test_rand() % 3 ? random_arg_header() :
					     test_rand() % 64;
	*len = (size_t)size;
}

static void random_records(void **state)
{
	uint64_t words[CASE_WORDS];
	struct tally t = { 0 };
	size_t i, len;

	(void)state;
	test_rng_state = 0x2545f4914f6cdd1dull;
	for (i = 0; i < 300000; i++) {
		random_record(words, &len);
		judge(words, len, &t);
	}
	assert_true(t.kept > 10000 && t.skipped > 10000);
}

/* The two ends: a byte-swapped archive, a large record over the limit. */
static void stops_and_limits(void **state)
{
	uint64_t swapped = __builtin_bswap64(FXT_MAGIC_RECORD);
	uint64_t words = FXT_READER_LARGE_RECORD_MAX / FXT_WORD_BYTES + 1;
	uint64_t *big = calloc(words + SENTINEL_WORDS, FXT_WORD_BYTES);
	uint64_t blob[4];

	(void)state;
	assert_int_equal(fxt_provider_record_verdict(&swapped,
						     fxt_record_words(swapped)),
			 FXT_RECORD_STOP);
	/* A well-formed large blob without metadata, an empty payload. */
	blob[0] = fxt_record_header(FXT_RECORD_LARGE, 0) |
		  FXT_SET(3, FXT_LARGE_SIZE) |
		  FXT_SET(FXT_LARGE_BLOB, FXT_LARGE_TYPE) |
		  FXT_SET(FXT_LARGE_BLOB_NO_METADATA, FXT_LARGE_BLOB_FORMAT);
	blob[1] = 0;
	blob[2] = 0;
	assert_int_equal(fxt_provider_record_verdict(blob, 3), FXT_RECORD_KEEP);
	assert_non_null(big);
	memcpy(big, blob, 3 * FXT_WORD_BYTES);
	big[0] = (blob[0] &
		  ~(fxt_mask(FXT_LARGE_SIZE_WIDTH) << FXT_LARGE_SIZE_SHIFT)) |
		 FXT_SET(words, FXT_LARGE_SIZE);
	big[words] = fxt_init_header();
	big[words + 1] = 1000000000;
	assert_int_equal(decoder_verdict(big, words), FXT_RECORD_SKIP);
	assert_int_equal(fxt_provider_record_verdict(big, words),
			 FXT_RECORD_SKIP);
	free(big);
}

/*
 * Whole areas: the records the reader returns over an area of random and
 * sample records are those the verdicts keep, at the same offsets.
 */
static void areas(void **state)
{
	struct fxt_reader_options opt = { .provider_buffer = true };
	static uint64_t area[1u << 16];
	size_t len, pos, i, kept, round;
	struct fxt_record rec;
	struct fxt_reader *r;
	struct corpus c;

	(void)state;
	corpus_load(&c);
	test_rng_state = 0x9e3779b97f4a7c15ull;
	for (round = 0; round < 50; round++) {
		/* Random and sample records, each sized by its header. */
		for (len = 0;;) {
			uint64_t words[CASE_WORDS];
			size_t n, k = test_rand() % (c.n + 4);

			if (k < c.n) {
				n = c.len[k];
				if (n > CASE_WORDS)
					continue;
				memcpy(words, &c.words[c.start[k]],
				       n * FXT_WORD_BYTES);
			} else {
				random_record(words, &n);
			}
			n = (size_t)fxt_record_words(words[0]);
			if (!n || n > CASE_WORDS)
				continue;
			if (len + n > sizeof(area) / FXT_WORD_BYTES)
				break;
			memset(&area[len], 0, n * FXT_WORD_BYTES);
			memcpy(&area[len], words,
			       (n < CASE_WORDS ? n : CASE_WORDS) *
				       FXT_WORD_BYTES);
			len += n;
		}
		r = fxt_reader_open_mem(area, len * FXT_WORD_BYTES, &opt);
		pos = 0;
		kept = 0;
		while (fxt_reader_next(r, &rec) > 0) {
			enum fxt_record_verdict v = FXT_RECORD_SKIP;

			/* Every record before this one was skipped. */
			while (pos * FXT_WORD_BYTES < rec.offset) {
				i = (size_t)fxt_record_words(area[pos]);
				v = fxt_provider_record_verdict(&area[pos], i);
				assert_int_equal(v, FXT_RECORD_SKIP);
				pos += i;
			}
			assert_int_equal(pos * FXT_WORD_BYTES, rec.offset);
			assert_int_equal(fxt_provider_record_verdict(
						 &area[pos], rec.size_words),
					 FXT_RECORD_KEEP);
			pos += rec.size_words;
			kept++;
		}
		fxt_reader_close(r);
		/* The rest was skipped, up to a record reading stops at. */
		for (; pos < len; pos += i) {
			enum fxt_record_verdict v;

			i = (size_t)fxt_record_words(area[pos]);
			v = fxt_provider_record_verdict(&area[pos], i);
			if (v == FXT_RECORD_STOP)
				break;
			assert_int_equal(v, FXT_RECORD_SKIP);
		}
		assert_true(kept > 100);
	}
	fxt_writer_release(&c.w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_records),
		cmocka_unit_test(bit_flips),
		cmocka_unit_test(every_size),
		cmocka_unit_test(random_records),
		cmocka_unit_test(stops_and_limits),
		cmocka_unit_test(areas),
	};

	return cmocka_run_group_tests_name("record verdicts", tests, NULL,
					   NULL);
}
