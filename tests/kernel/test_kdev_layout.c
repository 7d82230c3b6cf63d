// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel:power, kernel:block and kernel:fault records of
 * <fxt/kpower.h>, <fxt/kblock.h> and <fxt/kfault.h>, the encoders the
 * module and the BPF program both call, against words worked out by hand
 * from shared/spec/fxt-format.md (event record, counter and async
 * words, arguments), then read back by the strict decoder the module's
 * guest tests use (krec.c). Bits are written [lo..hi] as in the spec.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/kblock.h>
#include <fxt/kfault.h>
#include <fxt/kpower.h>
#include <fxt/sched.h>

#include "krec_assert.h"

static void string_table(void **state)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;

	assert_int_equal(sizeof(table) / sizeof(*table), FXT_KDEV_STR_COUNT);
	/* Indexed strings are 15 bits; the sched table stays below. */
	assert_true(FXT_KDEV_STR_END - 1 <= FXT_STRING_INDEX_MAX);
	assert_true(FXT_SCHED_STR_COUNT < FXT_KDEV_STR_BASE);
#define AT(i) table[(i) - FXT_KDEV_STR_BASE]
	assert_string_equal(AT(FXT_KDEV_STR_CAT_POWER), "kernel:power");
	assert_string_equal(AT(FXT_KDEV_STR_CPU_IDLE), "cpu_idle");
	assert_string_equal(AT(FXT_KDEV_STR_CPU_FREQUENCY), "cpu_frequency");
	assert_string_equal(AT(FXT_KDEV_STR_STATE), "state");
	assert_string_equal(AT(FXT_KDEV_STR_KHZ), "khz");
	assert_string_equal(AT(FXT_KDEV_STR_CAT_BLOCK), "kernel:block");
	assert_string_equal(AT(FXT_KDEV_STR_BLOCK_READ), "block_read");
	assert_string_equal(AT(FXT_KDEV_STR_BLOCK_WRITE), "block_write");
	assert_string_equal(AT(FXT_KDEV_STR_BLOCK_FLUSH), "block_flush");
	assert_string_equal(AT(FXT_KDEV_STR_BLOCK_DISCARD), "block_discard");
	assert_string_equal(AT(FXT_KDEV_STR_BLOCK_OTHER), "block_other");
	assert_string_equal(AT(FXT_KDEV_STR_MAJOR), "major");
	assert_string_equal(AT(FXT_KDEV_STR_MINOR), "minor");
	assert_string_equal(AT(FXT_KDEV_STR_SECTOR), "sector");
	assert_string_equal(AT(FXT_KDEV_STR_BYTES), "bytes");
	assert_string_equal(AT(FXT_KDEV_STR_STATUS), "status");
	assert_string_equal(AT(FXT_KDEV_STR_CAT_FAULT), "kernel:fault");
	assert_string_equal(AT(FXT_KDEV_STR_PAGE_FAULT), "page_fault");
	assert_string_equal(AT(FXT_KDEV_STR_ADDRESS), "address");
	assert_string_equal(AT(FXT_KDEV_STR_ERROR_CODE), "error_code");
#undef AT
}

static void idle_counter(void **state)
{
	__u64 w[FXT_KPOWER_COUNTER_WORDS];
	struct krec r;

	fxt_kpower_write_idle(w, 1000, 1, 2);
	/*
	 * type 4 [0..3], size 6 [4..15] = 0x064, counter 1 [16..19],
	 * 1 arg [20..23], inline thread 0 [24..31], category #0x7f00
	 * "kernel:power" [32..47], name #0x7f01 "cpu_idle" [48..63].
	 */
	EXPECT_WORD(w[0], 0x7f017f0000110064ull);
	EXPECT_WORD(w[1], 1000);
	EXPECT_WORD(w[2], 0);	/* the kernel process */
	EXPECT_WORD(w[3], 0);
	/* int32 1 [0..3], size 1 [4..15], name #0x7f03 "state", value 2 */
	EXPECT_WORD(w[4], 0x000000027f030011ull);
	EXPECT_WORD(w[5], 1);	/* counter id: the CPU */
	decode_ok(w, FXT_KPOWER_COUNTER_WORDS, &r);
	assert_int_equal(r.kind, KREC_IDLE);
	assert_int_equal(r.cpu, 1);
	assert_int_equal(r.value, 2);

	/* Leaving idle: the kernel's (u32)-1 reads as state -1. */
	fxt_kpower_write_idle(w, 1000, 0, FXT_KPOWER_IDLE_EXIT);
	EXPECT_WORD(w[4], 0xffffffff7f030011ull);
	EXPECT_WORD(w[5], 0);
	decode_ok(w, FXT_KPOWER_COUNTER_WORDS, &r);
	assert_int_equal(r.value, -1);
}

static void frequency_counter(void **state)
{
	__u64 w[FXT_KPOWER_COUNTER_WORDS];
	struct krec r;

	fxt_kpower_write_frequency(w, 2000, 3, 2400000);
	/* name #0x7f02 "cpu_frequency" */
	EXPECT_WORD(w[0], 0x7f027f0000110064ull);
	/* uint32 2, size 1, name #0x7f04 "khz", 2400000 = 0x249f00 */
	EXPECT_WORD(w[4], 0x00249f007f040012ull);
	EXPECT_WORD(w[5], 3);
	decode_ok(w, FXT_KPOWER_COUNTER_WORDS, &r);
	assert_int_equal(r.kind, KREC_FREQUENCY);
	assert_int_equal(r.value, 2400000);
}

/* The reference vector of SipHash-2-4: key 00..0f, message 00..07. */
static void block_id_siphash(void **state)
{
	EXPECT_WORD(fxt_kblock_siphash(0x0706050403020100ull,
				       0x0706050403020100ull,
				       0x0f0e0d0c0b0a0908ull),
		    0x93f5f5799a932462ull);
	/* Another key, another id: the address cannot be read back. */
	assert_true(fxt_kblock_siphash(0xffff888012345000ull, 1, 2) !=
		    fxt_kblock_siphash(0xffff888012345000ull, 1, 3));
}

static void block_begin_end(void **state)
{
	__u64 w[FXT_KBLOCK_BEGIN_WORDS];
	struct krec r;

	/* A write (op 1) with a sync flag above the op bits. */
	fxt_kblock_write_begin(w, 5000, 1 | 0x800, 254, 16, 12345, 65536,
			       0xabcdef);
	/*
	 * size 10 = 0x0a4, async begin 5, 4 args, category #0x7f05
	 * "kernel:block", name #0x7f07 "block_write"
	 */
	EXPECT_WORD(w[0], 0x7f077f05004500a4ull);
	EXPECT_WORD(w[1], 5000);
	EXPECT_WORD(w[2], 0);
	EXPECT_WORD(w[3], 0);
	/* uint32 "major" #0x7f0b = 254, "minor" #0x7f0c = 16 */
	EXPECT_WORD(w[4], 0x000000fe7f0b0012ull);
	EXPECT_WORD(w[5], 0x000000107f0c0012ull);
	/* uint64 4, size 2, "sector" #0x7f0d, then the value */
	EXPECT_WORD(w[6], 0x000000007f0d0024ull);
	EXPECT_WORD(w[7], 12345);
	/* uint32 "bytes" #0x7f0e = 65536 */
	EXPECT_WORD(w[8], 0x000100007f0e0012ull);
	EXPECT_WORD(w[9], 0xabcdef);	/* async correlation id */
	decode_ok(w, FXT_KBLOCK_BEGIN_WORDS, &r);
	assert_int_equal(r.kind, KREC_BLOCK_BEGIN);
	assert_int_equal(r.op, FXT_KDEV_STR_BLOCK_WRITE);
	assert_int_equal(r.major, 254);
	assert_int_equal(r.minor, 16);
	assert_int_equal(r.sector, 12345);
	assert_int_equal(r.bytes, 65536);
	assert_int_equal(r.async_id, 0xabcdef);

	/* Read, flush, discard; a driver private request has no sector. */
	fxt_kblock_write_begin(w, 5000, 0, 254, 0, 8, 4096, 1);
	assert_int_equal(fxt_get(w[0], FXT_EVENT_NAME_SHIFT, 16), 0x7f06);
	fxt_kblock_write_begin(w, 5000, 2, 254, 0, 0, 0, 1);
	assert_int_equal(fxt_get(w[0], FXT_EVENT_NAME_SHIFT, 16), 0x7f08);
	fxt_kblock_write_begin(w, 5000, 3, 254, 0, 8, 4096, 1);
	assert_int_equal(fxt_get(w[0], FXT_EVENT_NAME_SHIFT, 16), 0x7f09);
	fxt_kblock_write_begin(w, 5000, 34, 254, 0, 99, 512, 1);
	assert_int_equal(fxt_get(w[0], FXT_EVENT_NAME_SHIFT, 16), 0x7f0a);
	EXPECT_WORD(w[7], 0);

	/* The end: async end 7, 1 arg, uint32 "status" #0x7f0f = 10. */
	fxt_kblock_write_end(w, 6000, 1, 10, 0xabcdef);
	EXPECT_WORD(w[0], 0x7f077f0500170064ull);
	EXPECT_WORD(w[1], 6000);
	EXPECT_WORD(w[2], 0);
	EXPECT_WORD(w[3], 0);
	EXPECT_WORD(w[4], 0x0000000a7f0f0012ull);
	EXPECT_WORD(w[5], 0xabcdef);
	decode_ok(w, FXT_KBLOCK_END_WORDS, &r);
	assert_int_equal(r.kind, KREC_BLOCK_END);
	assert_int_equal(r.status, 10);
	assert_int_equal(r.async_id, 0xabcdef);
}

static void page_fault(void **state)
{
	__u64 w[FXT_KFAULT_WORDS];
	struct krec r;

	fxt_kfault_write(w, 7000, 40, 41, 0x7f0012345000ull, 6);
	/*
	 * size 7 = 0x074, instant 0, 2 args, category #0x7f10
	 * "kernel:fault", name #0x7f11 "page_fault"
	 */
	EXPECT_WORD(w[0], 0x7f117f1000200074ull);
	EXPECT_WORD(w[1], 7000);
	EXPECT_WORD(w[2], 40);	/* process koid */
	EXPECT_WORD(w[3], 41);	/* thread koid */
	/* pointer 7, size 2, "address" #0x7f12, then the address */
	EXPECT_WORD(w[4], 0x000000007f120027ull);
	EXPECT_WORD(w[5], 0x7f0012345000ull);
	/* uint32 "error_code" #0x7f13 = 6 (user write, not present) */
	EXPECT_WORD(w[6], 0x000000067f130012ull);
	decode_ok(w, FXT_KFAULT_WORDS, &r);
	assert_int_equal(r.kind, KREC_FAULT);
	assert_int_equal(r.process, 40);
	assert_int_equal(r.tid, 41);
	assert_int_equal(r.address, 0x7f0012345000ull);
	assert_int_equal(r.error_code, 6);

	/* A user access to a kernel address: recorded at 0. */
	fxt_kfault_write(w, 7000, 40, 41, 0xffff888012345000ull, 5);
	EXPECT_WORD(w[5], 0);
	decode_ok(w, FXT_KFAULT_WORDS, &r);
	assert_int_equal(r.address, 0);
}

/* The strict decoder refuses what Perfetto would misread. */
static void decoder_refuses(void **state)
{
	__u64 w[FXT_KBLOCK_BEGIN_WORDS];

	fxt_kblock_write_begin(w, 5000, 1, 254, 0, 8, 4096, 1);
	w[6] = fxt_arg_header(FXT_ARG_UINT32, 1, FXT_KDEV_STR_SECTOR, 0);
	decode_refused(w, 10);
	fxt_kfault_write(w, 7000, 40, 41, 0x1000, 6);
	w[5] = 0xffff888012345000ull;
	decode_refused(w, 7);
	fxt_kpower_write_idle(w, 1000, 1, 2);
	w[2] = 5;	/* counters of a CPU belong to no process */
	decode_refused(w, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(idle_counter),
		cmocka_unit_test(frequency_counter),
		cmocka_unit_test(block_id_siphash),
		cmocka_unit_test(block_begin_end),
		cmocka_unit_test(page_fault),
		cmocka_unit_test(decoder_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
