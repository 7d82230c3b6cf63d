// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel:mem records of <fxt/kmem.h>, the encoders the module and
 * the BPF program both call, against words worked out by hand from
 * shared/spec/fxt-format.md (event record, counter word, arguments),
 * then read back by the strict decoder the module's guest tests use
 * (krec.c); the RSS step and the pairing of stall begins and ends. Bits
 * are written [lo..hi] as in the spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/kmem.h>
#include <fxt/sched.h>

#include "krec_assert.h"

static void string_table(void **state)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;

	assert_int_equal(sizeof(table) / sizeof(*table), FXT_KDEV_STR_COUNT);
	assert_true(FXT_KDEV_STR_END - 1 <= FXT_STRING_INDEX_MAX);
#define AT(i) table[(i) - FXT_KDEV_STR_BASE]
	assert_int_equal(FXT_KDEV_STR_CAT_MEM, 0x7f14);
	assert_string_equal(AT(FXT_KDEV_STR_CAT_MEM), "kernel:mem");
	assert_string_equal(AT(FXT_KDEV_STR_MEM_RSS), "mem.rss");
	/* In the order of the kernel's MM_* counters. */
	assert_string_equal(AT(FXT_KDEV_STR_RSS_FILE + 0), "file");
	assert_string_equal(AT(FXT_KDEV_STR_RSS_FILE + 1), "anon");
	assert_string_equal(AT(FXT_KDEV_STR_RSS_FILE + 2), "swap");
	assert_string_equal(AT(FXT_KDEV_STR_RSS_FILE + 3), "shmem");
	assert_string_equal(AT(FXT_KDEV_STR_DIRECT_RECLAIM +
			       FXT_KMEM_STALL_DIRECT_RECLAIM),
			    "direct_reclaim");
	assert_string_equal(AT(FXT_KDEV_STR_DIRECT_RECLAIM +
			       FXT_KMEM_STALL_MEMCG_RECLAIM),
			    "memcg_reclaim");
	assert_string_equal(AT(FXT_KDEV_STR_DIRECT_RECLAIM +
			       FXT_KMEM_STALL_COMPACTION),
			    "compaction");
	assert_string_equal(AT(FXT_KDEV_STR_ORDER), "order");
	assert_string_equal(AT(FXT_KDEV_STR_RECLAIMED), "reclaimed");
	assert_string_equal(AT(FXT_KDEV_STR_OOM_KILL), "oom_kill");
	assert_string_equal(AT(FXT_KDEV_STR_PID), "pid");
	assert_string_equal(AT(FXT_KDEV_STR_NAME), "name");
	assert_string_equal(AT(FXT_KDEV_STR_RSS), "rss");
	assert_string_equal(AT(FXT_KDEV_STR_MEMINFO), "meminfo");
	assert_string_equal(AT(FXT_KDEV_STR_AVAILABLE + 0), "available");
	assert_string_equal(AT(FXT_KDEV_STR_AVAILABLE + 1), "free");
	assert_string_equal(AT(FXT_KDEV_STR_AVAILABLE + 2), "cached");
	assert_string_equal(AT(FXT_KDEV_STR_AVAILABLE + 3), "dirty");
	assert_string_equal(AT(FXT_KDEV_STR_AVAILABLE + 4), "swap_used");
	assert_string_equal(AT(FXT_KDEV_STR_VMSTAT), "vmstat");
	assert_string_equal(AT(FXT_KDEV_STR_MAJOR_FAULTS + 0), "major_faults");
	assert_string_equal(AT(FXT_KDEV_STR_MAJOR_FAULTS + 1), "pgpgin");
	assert_string_equal(AT(FXT_KDEV_STR_MAJOR_FAULTS + 2), "pgpgout");
#undef AT
	/* Every record fits the rings' largest. */
	assert_true(FXT_KMEM_OOM_MAX_WORDS <= FXT_SCHED_RECORD_MAX_WORDS);
	assert_int_equal(fxt_kmem_oom_words(FXT_SCHED_NAME_MAX),
			 FXT_KMEM_OOM_MAX_WORDS);
}

static void rss_counter(void **state)
{
	__u64 w[FXT_KMEM_RSS_WORDS];
	struct krec r;

	fxt_kmem_write_rss(w, 1000, 42, 43, 1, 300ull << 20);
	/*
	 * type 4 [0..3], size 7 [4..15] = 0x074, counter 1 [16..19],
	 * 1 arg [20..23], inline thread 0 [24..31], category #0x7f14
	 * "kernel:mem" [32..47], name #0x7f15 "mem.rss" [48..63].
	 */
	EXPECT_WORD(w[0], 0x7f157f1400110074ull);
	EXPECT_WORD(w[1], 1000);
	EXPECT_WORD(w[2], 42);	/* the process */
	EXPECT_WORD(w[3], 43);	/* the thread that changed it */
	/* uint64 4 [0..3], size 2 [4..15], name #0x7f17 "anon" [16..31] */
	EXPECT_WORD(w[4], 0x000000007f170024ull);
	EXPECT_WORD(w[5], 300ull << 20);
	EXPECT_WORD(w[6], 0);	/* counter id */
	decode_ok(w, FXT_KMEM_RSS_WORDS, &r);
	assert_int_equal(r.kind, KREC_RSS);
	assert_int_equal(r.process, 42);
	assert_int_equal(r.tid, 43);
	assert_int_equal(r.mem_kind, 1);
	assert_int_equal(r.mem_value, 300ll << 20);
	/* Not on a process, or another argument: not what the kernel writes. */
	w[2] = 0;
	decode_refused(w, FXT_KMEM_RSS_WORDS);
	w[2] = 42;
	w[4] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_KDEV_STR_RSS, 0);
	decode_refused(w, FXT_KMEM_RSS_WORDS);

	fxt_kmem_write_rss(w, 1000, 42, 43, 0, 1);
	EXPECT_WORD(w[4], 0x000000007f160024ull);	/* "file" */
	fxt_kmem_write_rss(w, 1000, 42, 43, 2, 1);
	EXPECT_WORD(w[4], 0x000000007f180024ull);	/* "swap" */
	fxt_kmem_write_rss(w, 1000, 42, 43, 3, 1);
	EXPECT_WORD(w[4], 0x000000007f190024ull);	/* "shmem" */
}

static void rss_step(void **state)
{
	const __u64 mib = 1ull << 20;

	/* The first value of a process, whatever it is. */
	assert_true(fxt_kmem_rss_due(0, 0, 0));
	assert_true(fxt_kmem_rss_due(0, 0, 4096));
	/* 1 MiB while small. */
	assert_false(fxt_kmem_rss_due(1, 10 * mib, 11 * mib - 4096));
	assert_true(fxt_kmem_rss_due(1, 10 * mib, 11 * mib));
	assert_true(fxt_kmem_rss_due(1, 10 * mib, 9 * mib));
	assert_false(fxt_kmem_rss_due(1, 10 * mib, 9 * mib + 4096));
	/* 1/64 of the last value from 64 MiB on. */
	assert_int_equal(fxt_kmem_rss_step(64 * mib), mib);
	assert_int_equal(fxt_kmem_rss_step(256 * mib), 4 * mib);
	assert_false(fxt_kmem_rss_due(1, 256 * mib, 260 * mib - 1));
	assert_true(fxt_kmem_rss_due(1, 256 * mib, 260 * mib));
	assert_true(fxt_kmem_rss_due(1, 256 * mib, 252 * mib));
	/* Counts in pages, negative for a moment in per-CPU counters. */
	assert_int_equal(fxt_kmem_pages_bytes(-3, 12), 0);
	assert_int_equal(fxt_kmem_pages_bytes(0, 12), 0);
	assert_int_equal(fxt_kmem_pages_bytes(2, 12), 8192);
	assert_int_equal(fxt_kmem_pages_bytes(INT64_MAX, 12), ~0ull);
}

static void stall_slices(void **state)
{
	__u64 w[FXT_KMEM_RECLAIM_END_WORDS];
	struct krec r;

	fxt_kmem_write_stall_begin(w, FXT_KMEM_STALL_DIRECT_RECLAIM, 1000, 42,
				   43, 3);
	/*
	 * size 5 = 0x054, duration begin 2 [16..19], 1 arg, category
	 * #0x7f14, name #0x7f1a "direct_reclaim".
	 */
	EXPECT_WORD(w[0], 0x7f1a7f1400120054ull);
	EXPECT_WORD(w[1], 1000);
	EXPECT_WORD(w[2], 42);
	EXPECT_WORD(w[3], 43);
	/* int32 1, size 1, name #0x7f1d "order" [16..31], 3 [32..63] */
	EXPECT_WORD(w[4], 0x000000037f1d0011ull);
	decode_ok(w, FXT_KMEM_STALL_BEGIN_WORDS, &r);
	assert_int_equal(r.kind, KREC_STALL_BEGIN);
	assert_int_equal(r.mem_kind, FXT_KMEM_STALL_DIRECT_RECLAIM);
	assert_int_equal(r.mem_value, 3);
	assert_int_equal(r.tid, 43);

	assert_int_equal(fxt_kmem_stall_end_words(FXT_KMEM_STALL_MEMCG_RECLAIM),
			 FXT_KMEM_RECLAIM_END_WORDS);
	fxt_kmem_write_stall_end(w, FXT_KMEM_STALL_MEMCG_RECLAIM, 2000, 42, 43,
				 42);
	/* size 6, duration end 3, 1 arg, name #0x7f1b "memcg_reclaim" */
	EXPECT_WORD(w[0], 0x7f1b7f1400130064ull);
	EXPECT_WORD(w[1], 2000);
	/* uint64, size 2, name #0x7f1e "reclaimed" */
	EXPECT_WORD(w[4], 0x000000007f1e0024ull);
	EXPECT_WORD(w[5], 42);
	decode_ok(w, FXT_KMEM_RECLAIM_END_WORDS, &r);
	assert_int_equal(r.kind, KREC_STALL_END);
	assert_int_equal(r.mem_kind, FXT_KMEM_STALL_MEMCG_RECLAIM);
	assert_int_equal(r.mem_value, 42);

	assert_int_equal(fxt_kmem_stall_end_words(FXT_KMEM_STALL_COMPACTION),
			 FXT_KMEM_COMPACTION_END_WORDS);
	fxt_kmem_write_stall_end(w, FXT_KMEM_STALL_COMPACTION, 2000, 42, 43, 5);
	/* size 5, duration end, name #0x7f1c "compaction" */
	EXPECT_WORD(w[0], 0x7f1c7f1400130054ull);
	/* int32, size 1, name #0x7f0f "status", 5 */
	EXPECT_WORD(w[4], 0x000000057f0f0011ull);
	decode_ok(w, FXT_KMEM_COMPACTION_END_WORDS, &r);
	assert_int_equal(r.kind, KREC_STALL_END);
	assert_int_equal(r.mem_kind, FXT_KMEM_STALL_COMPACTION);
	assert_int_equal(r.mem_value, 5);
	/* A compaction end in a reclaim end's words is refused. */
	fxt_kmem_write_stall_end(w, FXT_KMEM_STALL_DIRECT_RECLAIM, 2000, 42, 43,
				 5);
	w[0] = (w[0] & ~(0xffffull << 48)) |
	       (__u64)FXT_KDEV_STR_COMPACTION << 48;
	decode_refused(w, FXT_KMEM_RECLAIM_END_WORDS);
}

static void stall_pairing(void **state)
{
	struct fxt_kmem_stalls t = { 0 };

	/* An end whose begin the trace never saw is not written. */
	assert_false(fxt_kmem_stall_exit(&t, FXT_KMEM_STALL_DIRECT_RECLAIM));
	fxt_kmem_stall_enter(&t, FXT_KMEM_STALL_DIRECT_RECLAIM, 1);
	fxt_kmem_stall_enter(&t, FXT_KMEM_STALL_COMPACTION, 0);	/* lost */
	assert_false(fxt_kmem_stall_exit(&t, FXT_KMEM_STALL_COMPACTION));
	assert_false(fxt_kmem_stall_exit(&t, FXT_KMEM_STALL_MEMCG_RECLAIM));
	assert_true(fxt_kmem_stall_exit(&t, FXT_KMEM_STALL_DIRECT_RECLAIM));
	/* Once. */
	assert_false(fxt_kmem_stall_exit(&t, FXT_KMEM_STALL_DIRECT_RECLAIM));
	assert_int_equal(t.begun, 0);
}

static void oom_kill(void **state)
{
	__u64 w[FXT_KMEM_OOM_MAX_WORDS] = { 0 };
	struct krec r;

	memcpy(&w[FXT_KMEM_OOM_NAME_WORD], "stress", 6);
	fxt_kmem_write_oom(w, 1000, 1234, 1235, 6, 1ull << 30);
	/* size 9 = 0x094, instant 0, 3 args, name #0x7f1f "oom_kill" */
	EXPECT_WORD(w[0], 0x7f1f7f1400300094ull);
	EXPECT_WORD(w[2], 1234);
	EXPECT_WORD(w[3], 1235);
	/* uint32 2, size 1, name #0x7f20 "pid", 1234 = 0x4d2 */
	EXPECT_WORD(w[4], 0x000004d27f200012ull);
	/* string 6, size 2, name #0x7f21 "name", inline ref 0x8006 */
	EXPECT_WORD(w[5], 0x000080067f210026ull);
	assert_memory_equal(&w[6], "stress\0\0", 8);
	/* uint64, size 2, name #0x7f22 "rss" */
	EXPECT_WORD(w[7], 0x000000007f220024ull);
	EXPECT_WORD(w[8], 1ull << 30);
	decode_ok(w, 9, &r);
	assert_int_equal(r.kind, KREC_OOM);
	assert_int_equal(r.process, 1234);
	assert_string_equal(r.name, "stress");
	assert_int_equal(r.mem_value, 1ll << 30);
	/* Bytes after the name: refused. */
	w[6] |= 0xffull << 56;
	decode_refused(w, 9);

	/* No name: the empty string, no words of it. */
	fxt_kmem_write_oom(w, 1000, 1234, 1234, 0, 0);
	EXPECT_WORD(w[0], 0x7f1f7f1400300084ull);
	EXPECT_WORD(w[5], 0x000000007f210016ull);
	EXPECT_WORD(w[6], 0x000000007f220024ull);
	EXPECT_WORD(w[7], 0);
	decode_ok(w, 8, &r);
	assert_string_equal(r.name, "");
}

static void system_counters(void **state)
{
	static const __u64 bytes[FXT_KMEM_MEMINFO_VALUES] = { 1, 2, 3, 4, 5 };
	static const __u64 rates[FXT_KMEM_VMSTAT_VALUES] = { 6, 7, 8 };
	__u64 w[FXT_KMEM_MEMINFO_WORDS];
	unsigned int i;

	assert_true(FXT_KMEM_MEMINFO_VALUES <= FXT_MAX_ARGS);
	fxt_kmem_write_meminfo(w, 1000, bytes);
	/*
	 * size 15 = 0x0f4, counter 1, 5 args, category #0x7f14, name
	 * #0x7f23 "meminfo"; on the kernel process.
	 */
	EXPECT_WORD(w[0], 0x7f237f14005100f4ull);
	EXPECT_WORD(w[1], 1000);
	EXPECT_WORD(w[2], 0);
	EXPECT_WORD(w[3], 0);
	/* uint64, size 2, "available" #0x7f24 ... "swap_used" #0x7f28 */
	for (i = 0; i < FXT_KMEM_MEMINFO_VALUES; i++) {
		EXPECT_WORD(w[4 + 2 * i], 0x7f240024ull + ((__u64)i << 16));
		EXPECT_WORD(w[5 + 2 * i], i + 1);
	}
	EXPECT_WORD(w[14], 0);	/* counter id */

	fxt_kmem_write_vmstat(w, 1000, rates);
	/* size 11 = 0x0b4, 3 args, name #0x7f29 "vmstat" */
	EXPECT_WORD(w[0], 0x7f297f14003100b4ull);
	EXPECT_WORD(w[4], 0x000000007f2a0024ull);	/* "major_faults" */
	EXPECT_WORD(w[5], 6);
	EXPECT_WORD(w[8], 0x000000007f2c0024ull);	/* "pgpgout" */
	EXPECT_WORD(w[9], 8);
	EXPECT_WORD(w[10], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(rss_counter),
		cmocka_unit_test(rss_step),
		cmocka_unit_test(stall_slices),
		cmocka_unit_test(stall_pairing),
		cmocka_unit_test(oom_kill),
		cmocka_unit_test(system_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
