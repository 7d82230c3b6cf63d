// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wakeup-latency instant of <fxt/sched.h>, the one encoder the module
 * and the BPF program both call, against words worked out by hand from
 * shared/spec/fxt-format.md (event record, arguments), then read back by
 * the strict decoder the module's guest tests use (krec.c); and the
 * module's packed wakeup-time slots. Bits are written [lo..hi] as in the
 * spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/kirq.h>
#include <fxt/sched.h>

#include "krec_assert.h"

static void string_table(void **state)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;

	assert_int_equal(sizeof(table) / sizeof(*table),
			 FXT_SCHED_STR_COUNT + 1);
	assert_string_equal(table[FXT_SCHED_STR_CAT_SCHED], "kernel:sched");
	assert_string_equal(table[FXT_SCHED_STR_LATENCY], "sched_latency");
	assert_string_equal(table[FXT_SCHED_STR_LATENCY_NS], "latency_ns");
	assert_string_equal(table[FXT_SCHED_STR_WAKEUP_TS], "wakeup_ts");
	assert_true(FXT_SCHED_STR_COUNT < FXT_KIRQ_STR_BASE);
}

static void latency_event(void **state)
{
	__u64 w[FXT_SCHED_LATENCY_WORDS];
	struct krec r;

	fxt_sched_write_latency(w, 1300000000, 40, 41, 300000000, 1000000000);
	/*
	 * event 4 [0..3], size 8 [4..15] = 0x084, instant 0 [16..19],
	 * 2 args [20..23], inline thread 0 [24..31], category #14
	 * "kernel:sched" [32..47], name #15 "sched_latency" [48..63].
	 */
	EXPECT_WORD(w[0], 0x000f000e00200084ull);
	EXPECT_WORD(w[1], 1300000000);	/* when it got the CPU */
	EXPECT_WORD(w[2], 40);		/* process koid */
	EXPECT_WORD(w[3], 41);		/* thread koid */
	/* uint64 4 [0..3], size 2 [4..15], name #16 "latency_ns" [16..31] */
	EXPECT_WORD(w[4], 0x0000000000100024ull);
	EXPECT_WORD(w[5], 300000000);
	/* uint64, size 2, name #17 "wakeup_ts" */
	EXPECT_WORD(w[6], 0x0000000000110024ull);
	EXPECT_WORD(w[7], 1000000000);
	assert_true(FXT_SCHED_LATENCY_WORDS <= FXT_SCHED_RECORD_MAX_WORDS);
	decode_ok(w, FXT_SCHED_LATENCY_WORDS, &r);
	assert_int_equal(r.kind, KREC_LATENCY);
	assert_int_equal(r.ts, 1300000000);
	assert_int_equal(r.process, 40);
	assert_int_equal(r.tid, 41);
	assert_int_equal(r.latency_ns, 300000000);
	assert_int_equal(r.wakeup_ts, 1000000000);
}

/* The strict decoder must refuse what Perfetto would misread. */
static void decoder_refuses(void **state)
{
	__u64 w[FXT_SCHED_LATENCY_WORDS];

	/* The wait does not end at the record's time. */
	fxt_sched_write_latency(w, 1300000000, 40, 41, 300000000, 900000000);
	decode_refused(w, FXT_SCHED_LATENCY_WORDS);
	/* latency_ns as an int64 */
	fxt_sched_write_latency(w, 1300000000, 40, 41, 300000000, 1000000000);
	w[4] = fxt_arg_header(FXT_ARG_INT64, 2, FXT_SCHED_STR_LATENCY_NS, 0);
	decode_refused(w, FXT_SCHED_LATENCY_WORDS);
	/* another name */
	fxt_sched_write_latency(w, 1300000000, 40, 41, 300000000, 1000000000);
	w[0] = fxt_event_header(FXT_SCHED_LATENCY_WORDS, FXT_EVENT_INSTANT, 2,
				0, FXT_SCHED_STR_CAT_SCHED,
				FXT_SCHED_STR_WEIGHT);
	decode_refused(w, FXT_SCHED_LATENCY_WORDS);
}

static void wake_slots(void **state)
{
	__u64 slot = fxt_sched_wake_slot(1234, 5000000999ull);

	/* 5000000 us above 22 bits of tid */
	EXPECT_WORD(slot, (5000000ull << 22) | 1234);
	assert_true(fxt_sched_wake_slot_is(slot, 1234));
	/* Another tid of the same slot index, and an empty slot. */
	assert_false(fxt_sched_wake_slot_is(slot, 1234 + 4096));
	assert_false(fxt_sched_wake_slot_is(0, 0));
	/* The highest tid Linux gives (PID_MAX_LIMIT - 1) fits. */
	assert_true(fxt_sched_wake_slot_is(fxt_sched_wake_slot(4194303, 1000),
					   4194303));
	EXPECT_WORD(fxt_sched_wake_slot_wait(slot, 5300000500ull), 300000000);
	/* Microsecond grain: a wait inside one microsecond is 0. */
	EXPECT_WORD(fxt_sched_wake_slot_wait(slot, 5000000999ull), 0);
	/* Across the wrap of 2^42 us (50 days of uptime). */
	slot = fxt_sched_wake_slot(7, ((1ull << 42) - 1) * 1000);
	EXPECT_WORD(fxt_sched_wake_slot_wait(slot, (1ull << 42) * 1000 + 999000),
		    1000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(latency_event),
		cmocka_unit_test(decoder_refuses),
		cmocka_unit_test(wake_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
