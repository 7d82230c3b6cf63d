// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every header builder of <fxt/fxt.h> and <fxt/sched.h> against words
 * worked out by hand from shared/spec/fxt-format.md. Each expected value
 * carries its field breakdown; nothing here is computed by the code under
 * test. Bits are written [lo..hi] as in the spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fxt/fxt.h>
#include <fxt/sched.h>

#define EXPECT_WORD(got, want) assert_int_equal((uint64_t)(got), (uint64_t)(want))

static void magic_record(void **state)
{
	/*
	 * type 0 [0..3], size 1 [4..15] = 0x010, metadata type 4 [16..19],
	 * trace info type 0 [20..23], magic 0x16547846 [24..55]:
	 * the spec gives the whole word.
	 */
	EXPECT_WORD(fxt_magic_record(), 0x0016547846040010ull);
	EXPECT_WORD(FXT_MAGIC_RECORD, 0x0016547846040010ull);
}

static void record_headers(void **state)
{
	/* type 5 [0..3], size 0xfff [4..15] */
	EXPECT_WORD(fxt_record_header(5, 0xfff), 0xfff5);
	/* size is cut to its 12 bits: 0x1001 -> 0x001 */
	EXPECT_WORD(fxt_record_header(2, 0x1001), 0x0012);
	/* type 15, size 0xffffffff [4..35], large type 0 [36..39] */
	EXPECT_WORD(fxt_large_header(0, 0xffffffffull), 0x0000000fffffffffull);
}

static void provider_info(void **state)
{
	/*
	 * type 0, size 2 [4..15] = 0x020, metadata type 1 [16..19] = 0x10000,
	 * provider id 0x12345678 [20..51] = 0x0001234567800000,
	 * name length 6 [52..59] = 0x0060000000000000
	 */
	EXPECT_WORD(fxt_provider_info_header(0x12345678, 6),
		    0x0061234567810020ull);
	/*
	 * id 0xffffffff fills [20..51], name length 255 fills [52..59]:
	 * hex digits 5..14 all f; metadata type 1 is digit 4; size
	 * 1 + 32 = 33 = 0x21 -> 0x210; [60..63] stay zero
	 */
	EXPECT_WORD(fxt_provider_info_header(0xffffffff, 255),
		    0x0ffffffffff10210ull);
}

static void provider_section_and_event(void **state)
{
	/* size 1, metadata type 2, provider id 0x12345678 [20..51] */
	EXPECT_WORD(fxt_provider_section_header(0x12345678),
		    0x0001234567820010ull);
	/* size 1, metadata type 3, provider id 3 [20..51], event 0 [52..55] */
	EXPECT_WORD(fxt_provider_event_header(3, 0), 0x0000000000330010ull);
	/* event id 0xf fills [52..55] */
	EXPECT_WORD(fxt_provider_event_header(3, 0xf), 0x00f0000000330010ull);
}

static void initialization(void **state)
{
	/* type 1, size 2; [16..63] reserved */
	EXPECT_WORD(fxt_init_header(), 0x21);
}

static void string_record(void **state)
{
	/*
	 * type 2, size 1 + 2 words = 3 -> 0x32, index 0x1234 [16..30],
	 * length 11 [32..46] = 0xb00000000
	 */
	EXPECT_WORD(fxt_string_header(0x1234, 11), 0x0000000b12340032ull);
	/* index 0x7fff, empty string: size 1; bit 31 stays zero */
	EXPECT_WORD(fxt_string_header(0x7fff, 0), 0x000000007fff0012ull);
}

static void thread_record(void **state)
{
	/* type 3, size 3, index 0xab [16..23] */
	EXPECT_WORD(fxt_thread_header(0xab), 0x0000000000ab0033ull);
}

static void event_record(void **state)
{
	/*
	 * type 4, size 5 -> 0x54, event type 1 (counter) [16..19],
	 * 2 args [20..23], thread ref 0x11 [24..31], category 0x0001
	 * [32..47], name 0x8005 (inline, 5 bytes) [48..63]
	 */
	EXPECT_WORD(fxt_event_header(5, FXT_EVENT_COUNTER, 2, 0x11, 0x0001,
				     0x8005),
		    0x8005000111210054ull);
	/*
	 * every field at its maximum: size 0xfff, flow end 10 = 0xa,
	 * 15 args, thread 0xff, category 0x7fff, name 0xffff
	 */
	EXPECT_WORD(fxt_event_header(0xfff, FXT_EVENT_FLOW_END, 15, 0xff,
				     0x7fff, 0xffff),
		    0xffff7ffffffafff4ull);
}

static void event_numbering(void **state)
{
	/* current numbering: complete = 4, async begin = 5 ... flow end = 10 */
	assert_int_equal(FXT_EVENT_INSTANT, 0);
	assert_int_equal(FXT_EVENT_COUNTER, 1);
	assert_int_equal(FXT_EVENT_DURATION_BEGIN, 2);
	assert_int_equal(FXT_EVENT_DURATION_END, 3);
	assert_int_equal(FXT_EVENT_DURATION_COMPLETE, 4);
	assert_int_equal(FXT_EVENT_ASYNC_BEGIN, 5);
	assert_int_equal(FXT_EVENT_ASYNC_INSTANT, 6);
	assert_int_equal(FXT_EVENT_ASYNC_END, 7);
	assert_int_equal(FXT_EVENT_FLOW_BEGIN, 8);
	assert_int_equal(FXT_EVENT_FLOW_STEP, 9);
	assert_int_equal(FXT_EVENT_FLOW_END, 10);
	assert_int_equal(FXT_SCOPE_THREAD, 0);
	assert_int_equal(FXT_SCOPE_PROCESS, 1);
	assert_int_equal(FXT_SCOPE_GLOBAL, 2);
}

static void blob_record(void **state)
{
	/*
	 * type 5, size 4 -> 0x45, name 0x8004 [16..31], payload 10 bytes
	 * [32..46], blob type 1 (data) [48..55]
	 */
	EXPECT_WORD(fxt_blob_header(4, 0x8004, 10, FXT_BLOB_DATA),
		    0x0001000a80040045ull);
}

static void userspace_object(void **state)
{
	/*
	 * type 6, size 4 -> 0x46, process ref 0x22 [16..23],
	 * name 0x0003 [24..39], 1 arg [40..43]
	 */
	EXPECT_WORD(fxt_object_header(FXT_RECORD_USERSPACE_OBJECT, 4, 0x22,
				      0x0003, 1),
		    0x0000010003220046ull);
}

static void kernel_object(void **state)
{
	/*
	 * type 7, size 4 -> 0x47, object type 2 (thread) [16..23],
	 * name 0x8007 [24..39], 1 arg [40..43]
	 */
	EXPECT_WORD(fxt_object_header(FXT_RECORD_KERNEL_OBJECT, 4,
				      FXT_ZX_OBJ_THREAD, 0x8007, 1),
		    0x0000018007020047ull);
}

static void context_switch(void **state)
{
	/*
	 * type 8, size 6 -> 0x68, 2 args [16..19], cpu 3 [20..35],
	 * outgoing state 3 (blocked) [36..39], sched type 1 [60..63]
	 */
	EXPECT_WORD(fxt_context_switch_header(6, 2, 3, FXT_THREAD_BLOCKED),
		    0x1000003000320068ull);
	/* cpu 0xffff fills [20..35] */
	EXPECT_WORD(fxt_context_switch_header(6, 2, 0xffff, FXT_THREAD_BLOCKED),
		    0x1000003ffff20068ull);
}

static void thread_wakeup(void **state)
{
	/* type 8, size 6, 2 args [16..19], cpu 5 [20..35], sched type 2 */
	EXPECT_WORD(fxt_thread_wakeup_header(6, 2, 5), 0x2000000000520068ull);
}

static void legacy_context_switch(void **state)
{
	/*
	 * 2018 layout: type 8, size 6, cpu 7 [16..23], state 2 (suspended)
	 * [24..27], inline threads 0 [28..35] [36..43], outgoing priority
	 * 0x10 [44..51], incoming priority 0x20 [52..59], sched type 0
	 */
	EXPECT_WORD(fxt_legacy_context_switch_header(6, 7, FXT_THREAD_SUSPENDED,
						     0, 0, 0x10, 0x20),
		    0x0201000002070068ull);
	/*
	 * oldest layout, no priorities: size 2, cpu 1, state 3, outgoing
	 * thread ref 5 [28..35], incoming thread ref 6 [36..43]
	 */
	EXPECT_WORD(fxt_legacy_context_switch_header(2, 1, FXT_THREAD_BLOCKED,
						     5, 6, 0, 0),
		    0x0000006053010028ull);
}

static void log_record(void **state)
{
	/* type 9, size 4, length 13 [16..30], thread ref 1 [32..39] */
	EXPECT_WORD(fxt_log_header(4, 13, 1), 0x00000001000d0049ull);
}

static void large_blob(void **state)
{
	/*
	 * type 15, size 0x12345678 [4..35], large type 0 [36..39],
	 * blob format 1 [40..43]
	 */
	EXPECT_WORD(fxt_large_blob_header(0x12345678,
					  FXT_LARGE_BLOB_NO_METADATA),
		    0x000001012345678full);
	/*
	 * format header: category 0x8003 [0..15], name 0x0002 [16..31],
	 * 4 args [32..35], thread ref 9 [36..43]
	 */
	EXPECT_WORD(fxt_large_blob_format_word(0x8003, 0x0002, 4, 9),
		    0x0000009400028003ull);
}

static void argument_headers(void **state)
{
	/* null: type 0, size 2 [4..15], name 0x8004 [16..31] */
	EXPECT_WORD(fxt_arg_header(FXT_ARG_NULL, 2, 0x8004, 0),
		    0x0000000080040020ull);
	/* int32: type 1, size 1, name 5, value -2 [32..63] */
	EXPECT_WORD(fxt_arg_header(FXT_ARG_INT32, 1, 5, (uint32_t)-2),
		    0xfffffffe00050011ull);
	/* uint32: type 2, size 1, name 6, value 0xdeadbeef */
	EXPECT_WORD(fxt_arg_header(FXT_ARG_UINT32, 1, 6, 0xdeadbeef),
		    0xdeadbeef00060012ull);
	/* int64, uint64, double, pointer, koid: size 2, value word after */
	EXPECT_WORD(fxt_arg_header(FXT_ARG_INT64, 2, 7, 0),
		    0x0000000000070023ull);
	EXPECT_WORD(fxt_arg_header(FXT_ARG_UINT64, 2, 8, 0),
		    0x0000000000080024ull);
	EXPECT_WORD(fxt_arg_header(FXT_ARG_DOUBLE, 2, 9, 0),
		    0x0000000000090025ull);
	/* string: type 6, size 2, name 0xa, value ref 0x8005 [32..47] */
	EXPECT_WORD(fxt_arg_header(FXT_ARG_STRING, 2, 0xa, 0x8005),
		    0x00008005000a0026ull);
	EXPECT_WORD(fxt_arg_header(FXT_ARG_POINTER, 2, 0xb, 0),
		    0x00000000000b0027ull);
	EXPECT_WORD(fxt_arg_header(FXT_ARG_KOID, 2, 0xc, 0),
		    0x00000000000c0028ull);
	/* bool: type 9, size 1, name 0xd, value 1 [32] */
	EXPECT_WORD(fxt_arg_header(FXT_ARG_BOOL, 1, 0xd, 1),
		    0x00000001000d0019ull);
}

static void sizes_and_refs(void **state)
{
	assert_int_equal(fxt_words(0), 0);
	assert_int_equal(fxt_words(1), 1);
	assert_int_equal(fxt_words(8), 1);
	assert_int_equal(fxt_words(9), 2);
	assert_int_equal(fxt_string_ref_inline(5), 0x8005);
	assert_true(fxt_string_ref_is_inline(0x8000));
	assert_false(fxt_string_ref_is_inline(0x7fff));
	assert_int_equal(fxt_string_ref_words(0x8009), 2);
	assert_int_equal(fxt_string_ref_words(0x0009), 0);
	assert_int_equal(fxt_string_ref_words(FXT_STRING_REF_EMPTY), 0);
	/* header + 1 word of name + 2 words of value */
	assert_int_equal(fxt_arg_words(FXT_ARG_STRING, 0x8003, 0x8009), 4);
	assert_int_equal(fxt_arg_words(FXT_ARG_STRING, 1, 2), 1);
	assert_int_equal(fxt_arg_words(FXT_ARG_INT64, 1, 0), 2);
	assert_int_equal(fxt_arg_words(FXT_ARG_KOID, 0x8010, 0), 4);
	assert_int_equal(fxt_arg_words(FXT_ARG_INT32, 0x8010, 0), 3);
	assert_int_equal(fxt_arg_words(FXT_ARG_BOOL, 1, 0), 1);
}

static void field_helpers(void **state)
{
	EXPECT_WORD(FXT_SET(0x1ff, FXT_THREAD_INDEX), 0xff0000);
	assert_int_equal(FXT_GET(0x8005000111210054ull, FXT_EVENT_NAME), 0x8005);
	assert_int_equal(FXT_GET(0x1000003ffff20068ull, FXT_SCHED_CPU), 0xffff);
	assert_int_equal(FXT_GET(0x000001012345678full, FXT_LARGE_SIZE),
			 0x12345678);
}

static void record_sizes(void **state)
{
	/* type 8, size 6 [4..15]: the bits above the size do not count */
	assert_int_equal(fxt_record_words(0x1000003000220068ull), 6);
	assert_int_equal(fxt_record_bytes(0x1000003000220068ull), 48);
	/* large (type 15): size 0x12345678 [4..35] */
	assert_int_equal(fxt_record_words(0x000001012345678full), 0x12345678);
	assert_int_equal(fxt_record_words(0xfff5), 0xfff);
	assert_int_equal(fxt_record_words(0x5), 0);
}

static void sched_switch(void **state)
{
	__u64 w[FXT_SCHED_SWITCH_WORDS];

	fxt_sched_write_switch(w, 1000, 2, FXT_THREAD_BLOCKED, 100, 200, 5,
			       FXT_SCHED_IDLE_WEIGHT);
	/* size 6, 2 args, cpu 2 [20..35], state 3 [36..39], sched type 1 */
	EXPECT_WORD(w[0], 0x1000003000220068ull);
	EXPECT_WORD(w[1], 1000);
	EXPECT_WORD(w[2], 100);
	EXPECT_WORD(w[3], 200);
	/* int32 arg, size 1, name 1 (outgoing_weight), value 5 */
	EXPECT_WORD(w[4], 0x0000000500010011ull);
	/* int32 arg, size 1, name 2 (incoming_weight), value INT32_MIN */
	EXPECT_WORD(w[5], 0x8000000000020011ull);
}

static void sched_wakeup(void **state)
{
	__u64 w[FXT_SCHED_WAKEUP_WORDS];

	fxt_sched_write_wakeup(w, 2000, 1, 300, 7, 400);
	/* size 6, 2 args, cpu 1, sched type 2 */
	EXPECT_WORD(w[0], 0x2000000000120068ull);
	EXPECT_WORD(w[1], 2000);
	EXPECT_WORD(w[2], 300);
	/* int32 arg, size 1, name 3 (weight), value 7 */
	EXPECT_WORD(w[3], 0x0000000700030011ull);
	/* koid arg, size 2, name 4 (waker), then the koid */
	EXPECT_WORD(w[4], 0x0000000000040028ull);
	EXPECT_WORD(w[5], 400);
}

static void sched_objects(void **state)
{
	__u64 w[8] = { 0 };

	assert_int_equal(fxt_sched_thread_words(5), 5);
	assert_int_equal(fxt_sched_thread_words(15), 6);
	assert_int_equal(fxt_sched_process_words(9), 4);
	fxt_sched_write_thread_object(w, 300, 100, 5);
	/*
	 * kernel object, size 5, object type 2 (thread), name 0x8005
	 * inline [24..39], 1 arg [40..43]
	 */
	EXPECT_WORD(w[0], 0x0000018005020057ull);
	EXPECT_WORD(w[1], 300);
	/* koid arg, size 2, name 5 (process), then the tgid */
	EXPECT_WORD(w[3], 0x0000000000050028ull);
	EXPECT_WORD(w[4], 100);
	fxt_sched_write_process_object(w, 100, 9);
	/* kernel object, size 4, type 1 (process), name 0x8009, no args */
	EXPECT_WORD(w[0], 0x0000008009010047ull);
	EXPECT_WORD(w[1], 100);
}

static void sched_states(void **state)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;

	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_RUNNING, 0),
			 FXT_THREAD_RUNNING);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_INTERRUPTIBLE, 1),
			 FXT_THREAD_RUNNING);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_INTERRUPTIBLE, 0),
			 FXT_THREAD_BLOCKED);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_UNINTERRUPTIBLE, 0),
			 FXT_THREAD_BLOCKED);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_STOPPED, 0),
			 FXT_THREAD_SUSPENDED);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_TRACED, 0),
			 FXT_THREAD_SUSPENDED);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_EXIT_ZOMBIE, 0),
			 FXT_THREAD_DYING);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_DEAD, 0),
			 FXT_THREAD_DEAD);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_EXIT_DEAD, 0),
			 FXT_THREAD_DEAD);
	assert_int_equal(fxt_sched_thread_state(FXT_LINUX_TASK_PARKED, 0),
			 FXT_THREAD_BLOCKED);
	assert_string_equal(table[FXT_SCHED_STR_OUTGOING_WEIGHT],
			    "outgoing_weight");
	assert_string_equal(table[FXT_SCHED_STR_INCOMING_WEIGHT],
			    "incoming_weight");
	assert_string_equal(table[FXT_SCHED_STR_WEIGHT], "weight");
	assert_string_equal(table[FXT_SCHED_STR_WAKER], "waker");
	assert_string_equal(table[FXT_SCHED_STR_PROCESS], "process");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(magic_record),
		cmocka_unit_test(record_headers),
		cmocka_unit_test(record_sizes),
		cmocka_unit_test(provider_info),
		cmocka_unit_test(provider_section_and_event),
		cmocka_unit_test(initialization),
		cmocka_unit_test(string_record),
		cmocka_unit_test(thread_record),
		cmocka_unit_test(event_record),
		cmocka_unit_test(event_numbering),
		cmocka_unit_test(blob_record),
		cmocka_unit_test(userspace_object),
		cmocka_unit_test(kernel_object),
		cmocka_unit_test(context_switch),
		cmocka_unit_test(thread_wakeup),
		cmocka_unit_test(legacy_context_switch),
		cmocka_unit_test(log_record),
		cmocka_unit_test(large_blob),
		cmocka_unit_test(argument_headers),
		cmocka_unit_test(sizes_and_refs),
		cmocka_unit_test(field_helpers),
		cmocka_unit_test(sched_switch),
		cmocka_unit_test(sched_wakeup),
		cmocka_unit_test(sched_objects),
		cmocka_unit_test(sched_states),
	};

	return cmocka_run_group_tests_name("fxt layout", tests, NULL, NULL);
}
