// SPDX-License-Identifier: GPL-2.0-only
/*
 * The unwinding tables of <fxt/unwind.h> the manager writes and the BPF
 * walker reads, word-exact: rows worked out by hand from the bit layout
 * the header gives, offsets that do not fit made OTHER, the entries'
 * sizes; and a raw sample of a stack unwound with them (<fxt/ksample.h>,
 * "user_stack_words" FXT_KSAMPLE_UNWOUND, no words) read back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/ksample.h>
#include <fxt/unwind.h>

static void rows(void **state)
{
	uint64_t r;

	(void)state;
	/* pc 0x1234, CFA = rsp + 16, rbp unchanged */
	r = fxt_unwind_row(0x1234, FXT_UNWIND_CFA_SP, 16, FXT_UNWIND_FP_SAME, 0);
	assert_int_equal(r, 0x0001001000001234ull);
	/* CFA = rbp + 16, rbp at CFA - 16: fp_off / 8 = -2 = 0xfe */
	r = fxt_unwind_row(0xfffffff0u, FXT_UNWIND_CFA_FP, 16,
			   FXT_UNWIND_FP_AT_CFA, -16);
	assert_int_equal(r, 0xfe0a0010fffffff0ull);
	assert_int_equal(fxt_unwind_row_pc(r), 0xfffffff0u);
	assert_int_equal(fxt_unwind_row_cfa(r), FXT_UNWIND_CFA_FP);
	assert_int_equal(fxt_unwind_row_cfa_off(r), 16);
	assert_int_equal(fxt_unwind_row_fp(r), FXT_UNWIND_FP_AT_CFA);
	assert_int_equal(fxt_unwind_row_fp_off(r), -16);
	/* a negative CFA offset kept signed */
	r = fxt_unwind_row(8, FXT_UNWIND_CFA_SP, -8, FXT_UNWIND_FP_SAME, 0);
	assert_int_equal(fxt_unwind_row_cfa_off(r), -8);
	/* the outermost frame; no CFI: offsets dropped */
	r = fxt_unwind_row(9, FXT_UNWIND_CFA_END, 77, FXT_UNWIND_FP_AT_CFA, 8);
	assert_int_equal(r, 0x010c000000000009ull);
	r = fxt_unwind_row(1, FXT_UNWIND_CFA_NONE, 5, FXT_UNWIND_FP_SAME, 0);
	assert_int_equal(r, 1);
}

static void offsets_that_do_not_fit(void **state)
{
	uint64_t r;

	(void)state;
	/* a CFA offset past 16 bits: a rule the walker does not follow */
	r = fxt_unwind_row(0, FXT_UNWIND_CFA_SP, 32768, FXT_UNWIND_FP_SAME, 0);
	assert_int_equal(fxt_unwind_row_cfa(r), FXT_UNWIND_CFA_OTHER);
	assert_int_equal(fxt_unwind_row_cfa_off(r), 0);
	r = fxt_unwind_row(0, FXT_UNWIND_CFA_FP, -32769, FXT_UNWIND_FP_SAME, 0);
	assert_int_equal(fxt_unwind_row_cfa(r), FXT_UNWIND_CFA_OTHER);
	r = fxt_unwind_row(0, FXT_UNWIND_CFA_SP, -32768, FXT_UNWIND_FP_SAME, 0);
	assert_int_equal(fxt_unwind_row_cfa_off(r), -32768);
	/* rbp saved off a multiple of 8, or past the byte: unknown after */
	r = fxt_unwind_row(0, FXT_UNWIND_CFA_SP, 16, FXT_UNWIND_FP_AT_CFA, -12);
	assert_int_equal(fxt_unwind_row_fp(r), FXT_UNWIND_FP_OTHER);
	assert_int_equal(fxt_unwind_row_fp_off(r), 0);
	r = fxt_unwind_row(0, FXT_UNWIND_CFA_SP, 16, FXT_UNWIND_FP_AT_CFA,
			   -129 * 8);
	assert_int_equal(fxt_unwind_row_fp(r), FXT_UNWIND_FP_OTHER);
	r = fxt_unwind_row(0, FXT_UNWIND_CFA_SP, 16, FXT_UNWIND_FP_AT_CFA,
			   -128 * 8);
	assert_int_equal(fxt_unwind_row_fp_off(r), -1024);
	assert_int_equal(fxt_unwind_row_cfa_off(r), 16);
}

static void entries(void **state)
{
	(void)state;
	/* what the manager writes and the program reads: no padding games */
	assert_int_equal(sizeof(struct fxt_unwind_mapping), 40);
	assert_int_equal(offsetof(struct fxt_unwind_mapping, first_row), 24);
	assert_int_equal(offsetof(struct fxt_unwind_mapping, len), 32);
	assert_int_equal(offsetof(struct fxt_unwind_process, nmappings), 8);
	assert_int_equal(offsetof(struct fxt_unwind_process, m), 16);
	assert_int_equal(sizeof(struct fxt_unwind_process),
			 16 + 40 * FXT_UNWIND_MAPPINGS_MAX);
	/* the binary searches' steps cover their tables */
	assert_true(1ull << FXT_UNWIND_ROW_STEPS >= FXT_UNWIND_ROWS_MAX);
	assert_true(1u << FXT_UNWIND_MAPPING_STEPS > FXT_UNWIND_MAPPINGS_MAX);
	assert_int_equal(FXT_UNWIND_MAPPINGS_MAX & (FXT_UNWIND_MAPPINGS_MAX - 1),
			 0);
}

static void unwound_sample(void **state)
{
	__u64 w[FXT_KSAMPLE_MAX_WORDS];
	struct fxt_ksample s;
	uint32_t words = fxt_ksample_words(1, 3, 0);

	(void)state;
	memset(w, 0xaa, sizeof(w));
	fxt_ksample_write_head(w, FXT_KSAMPLE_ONCPU, 1000, 10, 11, 1, 1, 3,
			       FXT_KSAMPLE_UNWOUND, 1000000);
	assert_int_equal(words, FXT_KSAMPLE_HEAD_WORDS + 4);
	assert_int_equal(FXT_GET(w[0], FXT_LARGE_SIZE), words);
	/* uint32 arg "user_stack_words" = 0x80000000 (type 2, size 1) */
	assert_int_equal(w[7], 0x8000000000000012ull |
				       (uint64_t)FXT_KDEV_STR_USER_STACK_WORDS
					       << 16);
	/* the blob: the PCs alone, no stack pointer or words */
	assert_int_equal(w[10], 4 * 8);
	w[11] = 0xffffffff81000000ull;
	w[12] = 0x401000;
	w[13] = 0x401100;
	w[14] = 0x401200;
	assert_int_equal(fxt_ksample_parse(w, words, &s), 1);
	assert_true(s.unwound);
	assert_int_equal(s.nk, 1);
	assert_int_equal(s.nu, 3);
	assert_int_equal(s.ns, 0);
	assert_int_equal(s.pcs[3], 0x401200);
	/* a count of words that is neither: refused */
	w[7] = fxt_kdev_uint32_arg(FXT_KDEV_STR_USER_STACK_WORDS,
				   FXT_KSAMPLE_UNWOUND | 1);
	assert_int_equal(fxt_ksample_parse(w, words, &s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows),
		cmocka_unit_test(offsets_that_do_not_fit),
		cmocka_unit_test(entries),
		cmocka_unit_test(unwound_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
