// SPDX-License-Identifier: GPL-2.0-only
/*
 * The raw kernel:sample and kernel:offcpu records of <fxt/ksample.h>,
 * the head the module and the BPF program both write, against words
 * worked out by hand from shared/spec/fxt-format.md (large blob record
 * with metadata, arguments), then read back by fxt_ksample_parse(),
 * which refuses anything else. Bits are written [lo..hi] as in the spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>
#include <fxt/sched.h>

#include "krec_assert.h"

static void string_table(void **state)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;

	assert_int_equal(sizeof(table) / sizeof(*table), FXT_KDEV_STR_COUNT);
	assert_true(FXT_KDEV_STR_END - 1 <= FXT_STRING_INDEX_MAX);
#define AT(i) table[(i) - FXT_KDEV_STR_BASE]
	assert_int_equal(FXT_KDEV_STR_CAT_SAMPLE, 0x7f2d);
	assert_string_equal(AT(FXT_KDEV_STR_CAT_SAMPLE), "kernel:sample");
	assert_string_equal(AT(FXT_KDEV_STR_CPU_SAMPLE), "cpu_sample");
	assert_string_equal(AT(FXT_KDEV_STR_CAT_OFFCPU), "kernel:offcpu");
	assert_string_equal(AT(FXT_KDEV_STR_OFFCPU), "offcpu");
	assert_string_equal(AT(FXT_KDEV_STR_CPU), "cpu");
	assert_string_equal(AT(FXT_KDEV_STR_KERNEL_FRAMES), "kernel_frames");
	assert_string_equal(AT(FXT_KDEV_STR_PERIOD_NS), "period_ns");
	assert_string_equal(AT(FXT_KDEV_STR_BLOCKED_NS), "blocked_ns");
	assert_string_equal(AT(FXT_KDEV_STR_STACK), "stack");
	assert_string_equal(AT(FXT_KDEV_STR_PERFETTO), "perfetto");
	assert_string_equal(AT(FXT_KDEV_STR_MAPPINGS), "fxtrace:mappings");
	assert_string_equal(AT(FXT_KDEV_STR_FRAMES), "fxtrace:frames");
	assert_string_equal(AT(FXT_KDEV_STR_STACKS), "fxtrace:stacks");
	assert_string_equal(AT(FXT_KDEV_STR_SYMBOLS), "fxtrace:symbols");
	assert_string_equal(AT(FXT_KDEV_STR_PERFETTO_DROPPED),
			    "fxtrace:perfetto_dropped");
	assert_int_equal(FXT_KDEV_STR_USER_STACK_WORDS, 0x7f3c);
	assert_string_equal(AT(FXT_KDEV_STR_USER_STACK_WORDS),
			    "user_stack_words");
#undef AT
	/* Perfetto sizes records with 12 bits: stay below 4096 words. */
	assert_int_equal(FXT_KSAMPLE_MAX_WORDS, 716);
	assert_int_equal(FXT_KSAMPLE_STACK_MAX, 512);
	assert_int_equal(FXT_KSAMPLE_STACK_LEAF, 16);
	assert_true(FXT_KSAMPLE_MAX_WORDS < 4096);
	/* Per-kind counters of the rings. */
	assert_int_equal(FXT_SCHED_EV_SAMPLE, 1u << FXT_SCHED_EV_BIT_SAMPLE);
	assert_int_equal(FXT_SCHED_EV_OFFCPU, 1u << FXT_SCHED_EV_BIT_OFFCPU);
	assert_true(FXT_SCHED_EV_BIT_OFFCPU < FXT_RING_EVENT_KINDS);
}

static void cpu_sample(void **state)
{
	__u64 w[FXT_KSAMPLE_MAX_WORDS] = { 0 };
	struct fxt_ksample s = { 0 };
	unsigned int i;

	fxt_ksample_write_head(w, FXT_KSAMPLE_ONCPU, 1000, 42, 43, 1, 2, 3, 4,
			       2004008);
	/* type 15 [0..3], 22 words [4..35], large type 0, format 0 */
	EXPECT_WORD(w[0], 0x000000000000016full);
	/*
	 * category #0x7f2d "kernel:sample" [0..15], name #0x7f2e
	 * "cpu_sample" [16..31], 4 args [32..35], thread 0 inline [36..43]
	 */
	EXPECT_WORD(w[1], 0x000000047f2e7f2dull);
	EXPECT_WORD(w[2], 1000);
	EXPECT_WORD(w[3], 42);
	EXPECT_WORD(w[4], 43);
	/* uint32 2 [0..3], size 1 [4..15], name #0x7f31 "cpu", value 1 */
	EXPECT_WORD(w[5], 0x000000017f310012ull);
	/* "kernel_frames" #0x7f32 = 2 */
	EXPECT_WORD(w[6], 0x000000027f320012ull);
	/* "user_stack_words" #0x7f3c = 4 */
	EXPECT_WORD(w[7], 0x000000047f3c0012ull);
	/* uint64 4, size 2, "period_ns" #0x7f33 */
	EXPECT_WORD(w[8], 0x000000007f330024ull);
	EXPECT_WORD(w[9], 2004008);
	EXPECT_WORD(w[10], 11 * 8);	/* blob bytes: 5 PCs, sp, bp, 4 words */
	assert_int_equal(fxt_ksample_words(2, 3, 4), 22);
	assert_int_equal(fxt_ksample_words(2, 3, 0), 16);
	w[11] = 0xffffffff81000010ull;
	w[12] = 0xffffffff81000020ull;
	w[13] = 0x401000;
	w[14] = 0x401100;
	w[15] = 0x401200;
	w[16] = 0x7ffd0000;	/* user sp */
	w[17] = 0x7ffd0040;	/* user bp */
	for (i = 0; i < 4; i++)
		w[18 + i] = 0x1000 + i;
	assert_int_equal(fxt_ksample_parse(w, 22, &s), 1);
	assert_int_equal(s.kind, FXT_KSAMPLE_ONCPU);
	assert_int_equal(s.ts, 1000);
	assert_int_equal(s.pid, 42);
	assert_int_equal(s.tid, 43);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.nk, 2);
	assert_int_equal(s.nu, 3);
	assert_int_equal(s.ns, 4);
	assert_int_equal(s.user_sp, 0x7ffd0000);
	assert_int_equal(s.user_bp, 0x7ffd0040);
	assert_ptr_equal(s.stack, w + 18);
	assert_int_equal(s.stack[3], 0x1003);
	assert_int_equal(s.weight_ns, 2004008);
	assert_ptr_equal(s.pcs, w + 11);
	assert_int_equal(FXT_KSAMPLE_TS_WORD, 2);
}

static void offcpu(void **state)
{
	__u64 w[FXT_KSAMPLE_MAX_WORDS] = { 0 };
	struct fxt_ksample s = { 0 };

	/* A kernel thread: kernel frames only, no user stack words. */
	fxt_ksample_write_head(w, FXT_KSAMPLE_OFFCPU, 5000, 7, 7, 0, 4, 0, 0,
			       123456);
	EXPECT_WORD(w[0], 0x00000000000000ffull);	/* 15 words */
	/* "kernel:offcpu" #0x7f2f, "offcpu" #0x7f30 */
	EXPECT_WORD(w[1], 0x000000047f307f2full);
	EXPECT_WORD(w[5], 0x000000007f310012ull);
	EXPECT_WORD(w[6], 0x000000047f320012ull);
	EXPECT_WORD(w[7], 0x000000007f3c0012ull);
	/* "blocked_ns" #0x7f34 */
	EXPECT_WORD(w[8], 0x000000007f340024ull);
	EXPECT_WORD(w[9], 123456);
	EXPECT_WORD(w[10], 32);
	assert_int_equal(fxt_ksample_parse(w, 15, &s), 1);
	assert_int_equal(s.kind, FXT_KSAMPLE_OFFCPU);
	assert_int_equal(s.nk, 4);
	assert_int_equal(s.nu, 0);
	assert_int_equal(s.ns, 0);
	assert_int_equal(s.weight_ns, 123456);
}

static void caps(void **state)
{
	__u64 w[FXT_KSAMPLE_MAX_WORDS] = { 0 };
	struct fxt_ksample s = { 0 };

	/* Counts beyond the caps are written at the caps. */
	fxt_ksample_write_head(w, FXT_KSAMPLE_ONCPU, 1, 2, 3, 0, 1000, 1000,
			       1000, 1);
	assert_int_equal(fxt_ksample_words(1000, 1000, 1000),
			 FXT_KSAMPLE_MAX_WORDS);
	EXPECT_WORD(w[0], 0xfULL | ((__u64)FXT_KSAMPLE_MAX_WORDS << 4));
	EXPECT_WORD(w[6] >> 32, FXT_KSAMPLE_KERNEL_MAX);
	EXPECT_WORD(w[7] >> 32, FXT_KSAMPLE_STACK_MAX);
	EXPECT_WORD(w[10], (FXT_KSAMPLE_KERNEL_MAX + FXT_KSAMPLE_USER_MAX + 2 +
			    FXT_KSAMPLE_STACK_MAX) * 8);
	EXPECT_WORD(w[10], 705 * 8);
	assert_int_equal(fxt_ksample_parse(w, FXT_KSAMPLE_MAX_WORDS, &s), 1);
	assert_int_equal(s.nu, FXT_KSAMPLE_USER_MAX);
	assert_int_equal(s.ns, FXT_KSAMPLE_STACK_MAX);
}

/* Every word that is not a PC or a value is checked. */
static void refused(void **state)
{
	__u64 w[FXT_KSAMPLE_MAX_WORDS + 1] = { 0 };
	__u64 good[32];
	struct fxt_ksample s = { 0 };
	unsigned int i;

	fxt_ksample_write_head(good, FXT_KSAMPLE_ONCPU, 1, 2, 3, 1, 2, 3, 0, 9);
	memcpy(w, good, sizeof(good));
	assert_int_equal(fxt_ksample_parse(w, 16, &s), 1);
	/* Not the size its header says, or shorter than a head. */
	assert_int_equal(fxt_ksample_parse(w, 15, &s), 0);
	assert_int_equal(fxt_ksample_parse(w, 10, &s), 0);
	for (i = 0; i < FXT_KSAMPLE_HEAD_WORDS; i++) {
		if (i >= 2 && i <= 4)
			continue;	/* ts, pid, tid: any value */
		if (i == 9)
			continue;	/* weight */
		memcpy(w, good, sizeof(good));
		w[i] ^= i == 5 ? 0x10000ull : 1ull;
		assert_int_equal(fxt_ksample_parse(w, 16, &s), 0);
	}
	/* More kernel frames than the record holds. */
	memcpy(w, good, sizeof(good));
	w[6] = fxt_kdev_uint32_arg(FXT_KDEV_STR_KERNEL_FRAMES, 6);
	assert_int_equal(fxt_ksample_parse(w, 16, &s), 0);
	/* More stack words than it holds, or than a record may hold. */
	memcpy(w, good, sizeof(good));
	w[7] = fxt_kdev_uint32_arg(FXT_KDEV_STR_USER_STACK_WORDS, 2);
	assert_int_equal(fxt_ksample_parse(w, 16, &s), 0);
	/* 3 words after the 2 kernel PCs: sp, bp and 1 word, no user PC. */
	w[7] = fxt_kdev_uint32_arg(FXT_KDEV_STR_USER_STACK_WORDS, 1);
	assert_int_equal(fxt_ksample_parse(w, 16, &s), 1);
	assert_int_equal(s.nu, 0);
	assert_int_equal(s.ns, 1);
	assert_int_equal(s.user_sp, w[13]);
	assert_int_equal(s.user_bp, w[14]);
	assert_ptr_equal(s.stack, w + 15);
	/* The most words a record may hold, and one more. */
	fxt_ksample_write_head(w, FXT_KSAMPLE_ONCPU, 1, 2, 3, 1, 0, 0,
			       FXT_KSAMPLE_STACK_MAX, 9);
	assert_int_equal(fxt_ksample_parse(w, 11 + 2 + FXT_KSAMPLE_STACK_MAX,
					   &s), 1);
	w[0] = fxt_large_blob_header(11 + 3 + FXT_KSAMPLE_STACK_MAX,
				     FXT_LARGE_BLOB_WITH_METADATA);
	w[7] = fxt_kdev_uint32_arg(FXT_KDEV_STR_USER_STACK_WORDS,
				   FXT_KSAMPLE_STACK_MAX + 1);
	w[10] = (3 + FXT_KSAMPLE_STACK_MAX) * 8;
	assert_int_equal(fxt_ksample_parse(w, 11 + 3 + FXT_KSAMPLE_STACK_MAX,
					   &s), 0);
	/* Too many user frames. */
	fxt_ksample_write_head(w, FXT_KSAMPLE_ONCPU, 1, 2, 3, 1, 0, 127, 0, 9);
	assert_int_equal(fxt_ksample_parse(w, 138, &s), 1);
	w[0] = fxt_large_blob_header(139, FXT_LARGE_BLOB_WITH_METADATA);
	w[10] = 128 * 8;
	assert_int_equal(fxt_ksample_parse(w, 139, &s), 0);
	/* Another large blob is not a sample. */
	assert_false(fxt_ksample_is(good[0], fxt_large_blob_format_word(
						     FXT_KDEV_STR_CAT_MEM,
						     FXT_KDEV_STR_CPU_SAMPLE,
						     4, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(cpu_sample),
		cmocka_unit_test(offcpu),
		cmocka_unit_test(caps),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
