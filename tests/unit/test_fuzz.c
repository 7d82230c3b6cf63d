// SPDX-License-Identifier: GPL-2.0-only
/*
 * Robustness: damaged and random input must never crash the reader or
 * make it read outside its input (run under ASan/UBSan in CI), and what
 * it reports must stay consistent with the input's size. The random
 * sequences are seeded: a failure reproduces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "test_support.h"

static void diag_ignore(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
			const char *reason)
{
	size_t *len = ctx;

	/* every reported offset lies inside the input */
	assert_true(offset <= *len);
	assert_non_null(reason);
	assert_true(reason[0] != 0);
}

/* Reads data fully, checking the stats against its length. */
static void read_checked(const void *data, size_t len, bool provider_buffer)
{
	struct fxt_reader_options opt = {
		.expect_magic = !provider_buffer,
		.provider_buffer = provider_buffer,
		.diag = diag_ignore,
		.diag_ctx = &len,
	};
	struct fxt_reader_stats st;
	size_t n = read_all(data, len, &opt, &st);

	assert_true(st.bytes <= len);
	assert_true(n * FXT_WORD_BYTES <= len);
	assert_int_equal(st.records, n);
}

/* The same bytes at an unaligned address take the copying path. */
static void read_unaligned(const void *data, size_t len)
{
	unsigned char *copy = malloc(len + 1);

	assert_non_null(copy);
	memcpy(copy + 1, data, len);
	read_checked(copy + 1, len, false);
	free(copy);
}

static void bit_flips(void **state)
{
	struct fxt_writer w;
	unsigned char *buf;
	unsigned int i, k;
	size_t len;

	fxt_writer_init(&w);
	sample_archive(&w);
	len = fxt_writer_size(&w);
	buf = malloc(len);
	assert_non_null(buf);
	test_rng_state = 0x1234567887654321ull;
	for (i = 0; i < 20000; i++) {
		unsigned int flips = 1 + test_rand() % 4;

		memcpy(buf, fxt_writer_data(&w), len);
		for (k = 0; k < flips; k++) {
			size_t bit = test_rand() % (len * 8);

			buf[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		}
		read_checked(buf, len, false);
		if (i % 8 == 0)
			read_checked(buf, len, true);
		if (i % 16 == 0)
			read_unaligned(buf, len);
	}
	free(buf);
	fxt_writer_release(&w);
}

/* Whole words replaced by random ones: sizes and refs go wild. */
static void word_replacement(void **state)
{
	struct fxt_writer w;
	uint64_t *buf;
	unsigned int i;
	size_t len, words;

	fxt_writer_init(&w);
	sample_archive(&w);
	len = fxt_writer_size(&w);
	words = len / 8;
	buf = malloc(len);
	assert_non_null(buf);
	test_rng_state = 0xfeedfacecafebeefull;
	for (i = 0; i < 10000; i++) {
		uint64_t v = test_rand();

		memcpy(buf, fxt_writer_data(&w), len);
		/* small sizes keep most of the record structure around */
		if (i & 1)
			v = (v & ~0xfff0ull) | ((v >> 4) % 8) << 4;
		buf[test_rand() % words] = v;
		read_checked(buf, len, false);
	}
	free(buf);
	fxt_writer_release(&w);
}

static void random_bytes(void **state)
{
	static uint64_t buf[1024];
	unsigned int i;
	size_t k, words;

	test_rng_state = 0x0ddba11deadbeefull;
	for (i = 0; i < 3000; i++) {
		words = test_rand() % 1024;
		for (k = 0; k < words; k++) {
			uint64_t v = test_rand();

			/* half the time, plausible headers: small sizes */
			if (test_rand() & 1)
				v = (v & ~0xfff0ull) | ((v >> 4) % 16) << 4;
			buf[k] = v;
		}
		read_checked(buf, words * 8 - (i % 3 == 0 && words ? test_rand() % 8 : 0),
			     i & 1);
	}
}

/* Every prefix ends cleanly; only cuts inside a record are truncated. */
static void every_truncation(void **state)
{
	struct fxt_reader_options opt = { .expect_magic = true };
	struct fxt_reader_stats st;
	bool boundary[4096] = { false };
	struct fxt_record rec;
	struct fxt_reader *r;
	struct fxt_writer w;
	size_t len, cut;

	fxt_writer_init(&w);
	sample_archive(&w);
	len = fxt_writer_size(&w);
	assert_true(len < sizeof(boundary));
	r = fxt_reader_open_mem(fxt_writer_data(&w), len, NULL);
	while (fxt_reader_next(r, &rec) > 0)
		boundary[rec.offset] = true;
	fxt_reader_close(r);
	boundary[len] = true;
	for (cut = 0; cut <= len; cut++) {
		read_all(fxt_writer_data(&w), cut, &opt, &st);
		assert_int_equal(st.truncated, !boundary[cut]);
		assert_int_equal(st.malformed, !boundary[cut]);
		assert_int_equal(st.nonconforming, cut == 0);	/* no magic */
	}
	fxt_writer_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bit_flips),
		cmocka_unit_test(word_replacement),
		cmocka_unit_test(random_bytes),
		cmocka_unit_test(every_truncation),
	};

	return cmocka_run_group_tests_name("reader robustness", tests, NULL,
					   NULL);
}
