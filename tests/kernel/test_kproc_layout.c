// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel:proc records of <fxt/kproc.h>, the one encoder the module
 * and the BPF program both call, against words worked out by hand from
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

#include <fxt/kproc.h>

#include "krec_assert.h"

static void string_table(void **state)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;

	assert_int_equal(sizeof(table) / sizeof(*table), FXT_SCHED_STR_COUNT + 1);
	assert_string_equal(table[FXT_SCHED_STR_CAT_PROC], "kernel:proc");
	assert_string_equal(table[FXT_SCHED_STR_FORK], "fork");
	assert_string_equal(table[FXT_SCHED_STR_EXEC], "exec");
	assert_string_equal(table[FXT_SCHED_STR_EXIT], "exit");
	assert_string_equal(table[FXT_SCHED_STR_CHILD], "child");
	assert_string_equal(table[FXT_SCHED_STR_FILENAME], "filename");
	assert_string_equal(table[FXT_SCHED_STR_CODE], "code");
	assert_string_equal(table[FXT_SCHED_STR_SIGNAL], "signal");
}

static void fork_event(void **state)
{
	__u64 w[FXT_KPROC_FORK_WORDS];
	struct krec r;

	fxt_kproc_write_fork(w, 1000, 40, 41, 42);
	/*
	 * type 4 [0..3], size 6 [4..15] = 0x064, instant 0 [16..19],
	 * 1 arg [20..23], inline thread 0 [24..31], category #6 [32..47],
	 * name #7 "fork" [48..63].
	 */
	EXPECT_WORD(w[0], 0x0007000600100064ull);
	EXPECT_WORD(w[1], 1000);	/* timestamp */
	EXPECT_WORD(w[2], 40);		/* process koid */
	EXPECT_WORD(w[3], 41);		/* thread koid */
	/* koid 8 [0..3], size 2 [4..15], name #10 "child" [16..31] */
	EXPECT_WORD(w[4], 0x00000000000a0028ull);
	EXPECT_WORD(w[5], 42);
	decode_ok(w, FXT_KPROC_FORK_WORDS, &r);
	assert_int_equal(r.kind, KREC_FORK);
	assert_int_equal(r.process, 40);
	assert_int_equal(r.tid, 41);
	assert_int_equal(r.child, 42);
}

static void exit_event(void **state)
{
	__u64 w[FXT_KPROC_EXIT_WORDS];
	struct krec r;

	/* exit(7): the kernel's exit_code is 7 << 8. */
	fxt_kproc_write_exit(w, 2000, 40, 40, 7 << 8);
	/* size 5 = 0x054, 1 arg, category #6, name #9 "exit" */
	EXPECT_WORD(w[0], 0x0009000600100054ull);
	EXPECT_WORD(w[1], 2000);
	EXPECT_WORD(w[2], 40);
	EXPECT_WORD(w[3], 40);
	/* int32 1 [0..3], size 1 [4..15], name #12 "code", value 7 [32..63] */
	EXPECT_WORD(w[4], 0x00000007000c0011ull);
	decode_ok(w, FXT_KPROC_EXIT_WORDS, &r);
	assert_int_equal(r.kind, KREC_EXIT);
	assert_int_equal(r.code, 7);

	/* Killed by SIGKILL (9), core dump bit 0x80 set: "signal" 9. */
	fxt_kproc_write_exit(w, 2000, 40, 40, 0x80 | 9);
	/* int32, size 1, name #13 "signal", value 9 */
	EXPECT_WORD(w[4], 0x00000009000d0011ull);
	decode_ok(w, FXT_KPROC_EXIT_WORDS, &r);
	assert_int_equal(r.code, -1);
	assert_int_equal(r.signal, 9);
}

static void exec_event(void **state)
{
	__u64 w[FXT_SCHED_RECORD_MAX_WORDS] = { 0 };
	char name[FXT_KPROC_FILENAME_MAX + 1];
	struct krec r;

	assert_int_equal(fxt_kproc_exec_words(7), 6);
	fxt_kproc_write_exec(w, 3000, 50, 51, 7);
	memcpy(&w[FXT_KPROC_EVENT_WORDS + 1], "/bin/sh", 7);
	/* size 6 = 0x064, 1 arg, category #6, name #8 "exec" */
	EXPECT_WORD(w[0], 0x0008000600100064ull);
	EXPECT_WORD(w[1], 3000);
	EXPECT_WORD(w[2], 50);
	EXPECT_WORD(w[3], 51);
	/*
	 * string 6 [0..3], size 2 [4..15], name #11 "filename" [16..31],
	 * value ref inline 0x8000 | 7 bytes [32..47]
	 */
	EXPECT_WORD(w[4], 0x00008007000b0026ull);
	/* "/bin/sh" little-endian, padded with a zero byte */
	EXPECT_WORD(w[5], 0x0068732f6e69622full);
	decode_ok(w, 6, &r);
	assert_int_equal(r.kind, KREC_EXEC);
	assert_string_equal(r.filename, "/bin/sh");

	/* The longest file name fills the largest kernel record. */
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	memset(w, 0, sizeof(w));
	fxt_kproc_write_exec(w, 3000, 50, 51, FXT_KPROC_FILENAME_MAX);
	memcpy(&w[FXT_KPROC_EVENT_WORDS + 1], name, FXT_KPROC_FILENAME_MAX);
	assert_int_equal(fxt_record_words(w[0]), FXT_SCHED_RECORD_MAX_WORDS);
	/* string, size 9 = 0x090, "filename", inline 63 bytes = 0x803f */
	EXPECT_WORD(w[4], 0x0000803f000b0096ull);
	decode_ok(w, FXT_SCHED_RECORD_MAX_WORDS, &r);
	assert_string_equal(r.filename, name);

	/* No file name: the empty string ref 0, no stream. */
	fxt_kproc_write_exec(w, 3000, 50, 51, 0);
	EXPECT_WORD(w[0], 0x0008000600100054ull);
	EXPECT_WORD(w[4], 0x00000000000b0016ull);
	decode_ok(w, 5, &r);
	assert_string_equal(r.filename, "");
}

/* The strict decoder must refuse what Perfetto would misread. */
static void decoder_refuses(void **state)
{
	__u64 w[FXT_KPROC_FORK_WORDS];

	fxt_kproc_write_fork(w, 1000, 40, 41, 42);
	w[4] = fxt_arg_header(FXT_ARG_KOID, 1, FXT_SCHED_STR_CHILD, 0);
	decode_refused(w, 6);
	fxt_kproc_write_fork(w, 1000, 40, 41, 42);
	w[0] = fxt_event_header(6, FXT_EVENT_INSTANT, 1, 0,
				FXT_SCHED_STR_CAT_PROC, FXT_SCHED_STR_CHILD);
	decode_refused(w, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(fork_event),
		cmocka_unit_test(exit_event),
		cmocka_unit_test(exec_event),
		cmocka_unit_test(decoder_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
