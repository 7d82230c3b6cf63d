// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel:irq and kernel:syscall records of <fxt/kirq.h> and
 * <fxt/ksyscall.h>, the one encoder the module and the BPF program both
 * call (so both write these words), against words worked out by hand from
 * shared/spec/fxt-format.md (event record, arguments, inline strings),
 * then read back by the strict decoder the module's guest tests use
 * (krec.c). Bits are written [lo..hi] as in the spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/kirq.h>
#include <fxt/ksyscall.h>
#include <fxt/sched.h>

#include "krec_assert.h"

static void string_table(void **state)
{
	static const char *const table[] = FXT_KIRQ_STRING_TABLE;

	assert_int_equal(sizeof(table) / sizeof(*table),
			 FXT_KIRQ_STR_END - FXT_KIRQ_STR_BASE);
	/* After the sched table, below the system call names. */
	assert_true(FXT_KIRQ_STR_BASE > FXT_SCHED_STR_COUNT);
	assert_true(FXT_KIRQ_STR_END <= FXT_KSYSCALL_NAME_BASE);
	assert_true(FXT_KSYSCALL_NAME_BASE + FXT_KSYSCALL_NR_MAX - 1 <= FXT_STRING_INDEX_MAX);
	assert_string_equal(table[FXT_KIRQ_STR_CAT_IRQ - FXT_KIRQ_STR_BASE], "kernel:irq");
	assert_string_equal(table[FXT_KIRQ_STR_IRQ - FXT_KIRQ_STR_BASE], "irq");
	assert_string_equal(table[FXT_KIRQ_STR_VEC - FXT_KIRQ_STR_BASE], "vec");
	assert_string_equal(table[FXT_KIRQ_STR_CAT_SYSCALL - FXT_KIRQ_STR_BASE], "kernel:syscall");
	assert_string_equal(table[FXT_KIRQ_STR_NUMBER - FXT_KIRQ_STR_BASE], "number");
	assert_string_equal(table[FXT_KIRQ_STR_RET - FXT_KIRQ_STR_BASE], "ret");
	assert_string_equal(table[FXT_KIRQ_STR_SOFTIRQ - FXT_KIRQ_STR_BASE], "softirq");
	/* include/linux/interrupt.h: HI_SOFTIRQ 0 ... TIMER 1 ... RCU 9 */
	assert_string_equal(table[FXT_KIRQ_STR_SOFTIRQ_0 - FXT_KIRQ_STR_BASE], "softirq/hi");
	assert_string_equal(table[FXT_KIRQ_STR_SOFTIRQ_0 + 1 - FXT_KIRQ_STR_BASE], "softirq/timer");
	assert_string_equal(table[FXT_KIRQ_STR_SOFTIRQ_0 + 3 - FXT_KIRQ_STR_BASE], "softirq/net_rx");
	assert_string_equal(table[FXT_KIRQ_STR_SOFTIRQ_0 + 9 - FXT_KIRQ_STR_BASE], "softirq/rcu");
	assert_string_equal(table[FXT_KIRQ_STR_SYSCALL - FXT_KIRQ_STR_BASE], "syscall");
}

static void idle_koid(void **state)
{
	/* Every CPU's idle task is pid 0: a koid of its own per CPU. */
	EXPECT_WORD(fxt_kirq_thread_koid(0, 0), 0x40000000);
	EXPECT_WORD(fxt_kirq_thread_koid(0, 3), 0x40000003);
	EXPECT_WORD(fxt_kirq_thread_koid(7, 3), 7);
	/* Above any Linux pid (PID_MAX_LIMIT). */
	assert_true(FXT_KIRQ_IDLE_KOID_BASE > 4194304);
}

static void name_prefix(void **state)
{
	char name[FXT_KIRQ_PREFIX_MAX + 1] = { 0 };

	assert_int_equal(fxt_kirq_name_prefix(name, 0), 6);
	assert_memory_equal(name, "irq/0 ", 6);
	assert_int_equal(fxt_kirq_name_prefix(name, 19), 7);
	assert_memory_equal(name, "irq/19 ", 7);
	assert_int_equal(fxt_kirq_name_prefix(name, 4294967295u), FXT_KIRQ_PREFIX_MAX);
	assert_memory_equal(name, "irq/4294967295 ", FXT_KIRQ_PREFIX_MAX);
}

static void hardirq(void **state)
{
	__u64 w[FXT_KIRQ_HARDIRQ_MAX_WORDS] = { 0 };
	char *name = (char *)&w[FXT_KIRQ_EVENT_WORDS];
	__u32 len = fxt_kirq_name_prefix(name, 19);
	struct krec r;

	memcpy(name + len, "ahci", 4);
	len += 4;
	assert_int_equal(fxt_kirq_hardirq_words(len), 7);
	fxt_kirq_write_hardirq(w, FXT_EVENT_DURATION_BEGIN, 1000, 40, 41, 19,
			       len);
	/*
	 * event 4 [0..3], size 7 [4..15] = 0x074, begin 2 [16..19], 1 arg
	 * [20..23], inline thread 0 [24..31], category #256 "kernel:irq"
	 * [32..47], name inline 0x8000 | 11 bytes [48..63].
	 */
	EXPECT_WORD(w[0], 0x800b010000120074ull);
	EXPECT_WORD(w[1], 1000);	/* timestamp */
	EXPECT_WORD(w[2], 40);		/* process koid */
	EXPECT_WORD(w[3], 41);		/* thread koid */
	/* "irq/19 ahci" little-endian, zero-padded */
	EXPECT_WORD(w[4], 0x612039312f717269ull);
	EXPECT_WORD(w[5], 0x0000000000696368ull);
	/* int32 1 [0..3], size 1 [4..15], name #257 "irq", value 19 */
	EXPECT_WORD(w[6], 0x0000001301010011ull);
	decode_ok(w, 7, &r);
	assert_int_equal(r.kind, KREC_BEGIN);
	assert_int_equal(r.category, FXT_KIRQ_STR_CAT_IRQ);
	assert_string_equal(r.slice_name, "irq/19 ahci");
	assert_int_equal(r.value, 19);

	/* The end: type 3, the same name and argument. */
	fxt_kirq_write_hardirq(w, FXT_EVENT_DURATION_END, 2000, 40, 41, 19,
			       len);
	EXPECT_WORD(w[0], 0x800b010000130074ull);
	decode_ok(w, 7, &r);
	assert_int_equal(r.kind, KREC_END);

	/* The longest name fits the largest kernel record. */
	assert_true(FXT_KIRQ_HARDIRQ_MAX_WORDS <= FXT_SCHED_RECORD_MAX_WORDS);
	assert_int_equal(fxt_kirq_hardirq_words(FXT_KIRQ_NAME_MAX),
			 FXT_KIRQ_HARDIRQ_MAX_WORDS);
}

static void softirq(void **state)
{
	__u64 w[FXT_KIRQ_SOFTIRQ_WORDS];
	struct krec r;

	fxt_kirq_write_softirq(w, FXT_EVENT_DURATION_END, 3000, 0,
			       fxt_kirq_thread_koid(0, 1), 1);
	/* size 5 = 0x054, end 3, 1 arg, #256, name #264 "softirq/timer" */
	EXPECT_WORD(w[0], 0x0108010000130054ull);
	EXPECT_WORD(w[1], 3000);
	EXPECT_WORD(w[2], 0);
	EXPECT_WORD(w[3], 0x40000001);
	/* int32, size 1, name #258 "vec", value 1 */
	EXPECT_WORD(w[4], 0x0000000101020011ull);
	decode_ok(w, 5, &r);
	assert_int_equal(r.kind, KREC_END);
	assert_int_equal(r.name_ref, FXT_KIRQ_STR_SOFTIRQ_0 + 1);

	/* A vector the table does not name: "softirq" #262. */
	fxt_kirq_write_softirq(w, FXT_EVENT_DURATION_BEGIN, 3000, 0, 5, 12);
	EXPECT_WORD(w[0], 0x0106010000120054ull);
	EXPECT_WORD(w[4], 0x0000000c01020011ull);
}

static void syscalls(void **state)
{
	__u64 w[FXT_KSYSCALL_EXIT_WORDS];
	struct krec r;

	fxt_ksyscall_write_enter(w, 4000, 50, 51, 0);
	/*
	 * size 5, begin, 1 arg, category #259 "kernel:syscall", name
	 * #1024 + 0: the manager writes "read" there.
	 */
	EXPECT_WORD(w[0], 0x0400010300120054ull);
	EXPECT_WORD(w[1], 4000);
	EXPECT_WORD(w[2], 50);
	EXPECT_WORD(w[3], 51);
	/* int32, size 1, name #260 "number", value 0 */
	EXPECT_WORD(w[4], 0x0000000001040011ull);
	decode_ok(w, FXT_KSYSCALL_ENTER_WORDS, &r);
	assert_int_equal(r.kind, KREC_BEGIN);
	assert_int_equal(r.category, FXT_KIRQ_STR_CAT_SYSCALL);
	assert_int_equal(r.value, 0);

	fxt_ksyscall_write_exit(w, 5000, 50, 51, 1, 1);
	/* size 6, end, name #1025 */
	EXPECT_WORD(w[0], 0x0401010300130064ull);
	/* int64 3 [0..3], size 2 [4..15], name #261 "ret", then the value */
	EXPECT_WORD(w[4], 0x0000000001050023ull);
	EXPECT_WORD(w[5], 1);
	decode_ok(w, FXT_KSYSCALL_EXIT_WORDS, &r);
	assert_int_equal(r.kind, KREC_END);
	assert_int_equal(r.value, 1);

	/* rt_sigreturn ends with no number in the registers (-1). */
	fxt_ksyscall_write_exit(w, 5000, 50, 51, -1, -14);
	assert_int_equal(FXT_GET(w[0], FXT_EVENT_NAME),
			 FXT_KSYSCALL_NAME_BASE + __NR_rt_sigreturn);
	EXPECT_WORD(w[5], 0xfffffffffffffff2ull);

	/* A number past the table: "syscall" #273. */
	fxt_ksyscall_write_enter(w, 4000, 50, 51, 5000);
	EXPECT_WORD(w[0], 0x0111010300120054ull);
}

static void pid_filter(void **state)
{
	__u32 none[FXT_KSYSCALL_PIDS_MAX] = { 0 };
	__u32 two[FXT_KSYSCALL_PIDS_MAX] = { 10, 20 };

	assert_true(fxt_ksyscall_wanted(none, 1234));
	assert_true(fxt_ksyscall_wanted(two, 20));
	assert_false(fxt_ksyscall_wanted(two, 30));
	assert_false(fxt_ksyscall_wanted(two, 0));
}

/* An end is written exactly when its begin was, at every depth. */
static void nesting(void **state)
{
	struct fxt_kirq_nest n = { 0 };

	/* Entered before the trace started: its exit writes nothing. */
	assert_false(fxt_kirq_nest_exit(&n));
	fxt_kirq_nest_enter(&n, 1);	/* softirq, written */
	fxt_kirq_nest_enter(&n, 0);	/* hardirq inside, dropped */
	fxt_kirq_nest_enter(&n, 1);	/* another inside that, written */
	assert_true(fxt_kirq_nest_exit(&n));
	assert_false(fxt_kirq_nest_exit(&n));
	fxt_kirq_nest_enter(&n, 1);	/* depth 1 reused, written now */
	assert_true(fxt_kirq_nest_exit(&n));
	assert_true(fxt_kirq_nest_exit(&n));
	assert_int_equal(n.depth, 0);
}

static void decoder_refuses(void **state)
{
	__u64 w[FXT_KSYSCALL_EXIT_WORDS];

	/* A system call end whose "ret" is a one-word int32. */
	fxt_ksyscall_write_exit(w, 5000, 50, 51, 1, 1);
	w[4] = fxt_arg_header(FXT_ARG_INT32, 1, FXT_KIRQ_STR_RET, 1);
	decode_refused(w, 5);
	/* A complete event is not what the kernel side writes. */
	fxt_ksyscall_write_enter(w, 4000, 50, 51, 0);
	w[0] = fxt_event_header(5, FXT_EVENT_DURATION_COMPLETE, 1, 0,
				FXT_KIRQ_STR_CAT_SYSCALL, FXT_KSYSCALL_NAME_BASE);
	decode_refused(w, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(idle_koid),
		cmocka_unit_test(name_prefix),
		cmocka_unit_test(hardirq),
		cmocka_unit_test(softirq),
		cmocka_unit_test(syscalls),
		cmocka_unit_test(pid_filter),
		cmocka_unit_test(nesting),
		cmocka_unit_test(decoder_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
