// SPDX-License-Identifier: GPL-2.0-only
/*
 * The archive's stack records of <fxt/stacks.h> against words worked out
 * by hand from the layout (shared design of issue 23, section B and the
 * spec's large blob record), then read back by the decoders, which must
 * refuse entries that do not fit the words they are given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/kdev.h>
#include <fxt/stacks.h>

static void string_table(void **state)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;

	(void)state;
#define AT(i) table[(i)-FXT_KDEV_STR_BASE]
	assert_string_equal(AT(FXT_STACKS_STR_MAPPINGS),
			    FXT_STACKS_NAME_MAPPINGS);
	assert_string_equal(AT(FXT_STACKS_STR_FRAMES), FXT_STACKS_NAME_FRAMES);
	assert_string_equal(AT(FXT_STACKS_STR_STACKS), FXT_STACKS_NAME_STACKS);
	assert_string_equal(AT(FXT_STACKS_STR_SYMBOLS),
			    FXT_STACKS_NAME_SYMBOLS);
	assert_string_equal(AT(FXT_STACKS_STR_PERFETTO), "perfetto");
	assert_string_equal(AT(FXT_STACKS_STR_PERFETTO_DROPPED),
			    "fxtrace:perfetto_dropped");
	assert_string_equal(AT(FXT_STACKS_STR_STACK), "stack");
#undef AT
	/* 4095-word blob record: header + indexed name + payload. */
	assert_int_equal(FXT_STACKS_BLOB_PAYLOAD_MAX, (4095 - 1) * 8);
}

static void mapping_entry(void **state)
{
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef, [19] = 0x42 };
	const struct fxt_stacks_mapping m = {
		.id = 7,
		.path_len = 11,
		.path = "/usr/bin/xy",
		.build_id_len = 20,
		.build_id = bid,
	};
	uint64_t w[8];
	struct fxt_stacks_mapping d;

	(void)state;
	memset(w, 0xff, sizeof(w));
	assert_int_equal(fxt_stacks_mapping_words(11, 20), 1 + 2 + 3);
	assert_ptr_equal(fxt_stacks_put_mapping(w, &m), w + 6);
	/* id [0..31], path_len [32..47], build_id_len [48..55] */
	assert_int_equal(w[0], 7ull | 11ull << 32 | 20ull << 48);
	assert_int_equal(w[1], 0x6e69622f7273752f); /* "/usr/bin" */
	assert_int_equal(w[2], 0x79782f); /* "/xy" + zero padding */
	assert_int_equal(w[3], 0xefbeadde);
	assert_int_equal(w[4], 0);
	assert_int_equal(w[5], 0x42000000); /* byte 19 */
	assert_int_equal(w[6], ~0ull); /* nothing past the entry */

	assert_int_equal(fxt_stacks_get_mapping(w, 6, &d), 6);
	assert_int_equal(d.id, 7);
	assert_memory_equal(d.path, "/usr/bin/xy", 11);
	assert_int_equal(d.build_id_len, 20);
	assert_memory_equal(d.build_id, bid, 20);
	assert_int_equal(fxt_stacks_get_mapping(w, 5, &d), 0);
	assert_int_equal(fxt_stacks_get_mapping(w, 0, &d), 0);
}

static void frame_entries(void **state)
{
	const struct fxt_stacks_frame k = {
		.id = 3,
		.kind = FXT_STACKS_FRAME_KERNEL,
		.name_len = 9,
		.name = "pipe_read",
		.mapping_id = 0,
		.addr = 0x2a,
	};
	const struct fxt_stacks_frame u = {
		.id = 0xfffffffe,
		.kind = FXT_STACKS_FRAME_USER,
		.name_len = 0,
		.mapping_id = 7,
		.addr = 0x1139,
	};
	uint64_t w[8];
	struct fxt_stacks_frame d;

	(void)state;
	assert_ptr_equal(fxt_stacks_put_frame(w, &k), w + 5);
	/* id [0..31], kind [32..39], name_len [40..55] */
	assert_int_equal(w[0], 3ull | 2ull << 32 | 9ull << 40);
	assert_int_equal(w[1], 0);
	assert_int_equal(w[2], 0x2a);
	assert_int_equal(w[3], 0x6165725f65706970); /* "pipe_rea" */
	assert_int_equal(w[4], 0x64); /* "d" */
	assert_int_equal(fxt_stacks_get_frame(w, 5, &d), 5);
	assert_int_equal(d.kind, FXT_STACKS_FRAME_KERNEL);
	assert_int_equal(d.addr, 0x2a);
	assert_memory_equal(d.name, "pipe_read", 9);
	assert_int_equal(fxt_stacks_get_frame(w, 4, &d), 0);

	assert_ptr_equal(fxt_stacks_put_frame(w, &u), w + 3);
	assert_int_equal(w[0], 0xfffffffeull | 1ull << 32);
	assert_int_equal(w[1], 7);
	assert_int_equal(w[2], 0x1139);
	assert_int_equal(fxt_stacks_get_frame(w, 3, &d), 3);
	assert_int_equal(d.id, 0xfffffffe);
	assert_int_equal(d.mapping_id, 7);
	w[1] = 1ull << 32; /* a mapping id past 32 bits */
	assert_int_equal(fxt_stacks_get_frame(w, 3, &d), 0);
}

static void stack_entry(void **state)
{
	const uint32_t ids[3] = { 5, 6, 0x80000001 };
	uint64_t w[4];
	struct fxt_stacks_stack d;

	(void)state;
	memset(w, 0xff, sizeof(w));
	assert_ptr_equal(fxt_stacks_put_stack(w, 9, ids, 3), w + 3);
	assert_int_equal(w[0], 9ull | 3ull << 32);
	assert_int_equal(w[1], 5ull | 6ull << 32); /* low half first */
	assert_int_equal(w[2], 0x80000001ull); /* zero-padded */
	assert_int_equal(fxt_stacks_get_stack(w, 3, &d), 3);
	assert_int_equal(d.id, 9);
	assert_int_equal(d.nframes, 3);
	assert_int_equal(fxt_stacks_stack_frame(&d, 0), 5);
	assert_int_equal(fxt_stacks_stack_frame(&d, 1), 6);
	assert_int_equal(fxt_stacks_stack_frame(&d, 2), 0x80000001);
	assert_int_equal(fxt_stacks_get_stack(w, 2, &d), 0);
	assert_int_equal(fxt_stacks_stack_words(0), 1);
	assert_int_equal(fxt_stacks_stack_words(2), 2);
}

static void symbol_entry(void **state)
{
	const struct fxt_stacks_symbol s = {
		.frame_id = 12,
		.name_len = 4,
		.name = "main",
	};
	uint64_t w[2];
	struct fxt_stacks_symbol d;

	(void)state;
	assert_ptr_equal(fxt_stacks_put_symbol(w, &s), w + 2);
	assert_int_equal(w[0], 12ull | 4ull << 32);
	assert_int_equal(w[1], 0x6e69616d);
	assert_int_equal(fxt_stacks_get_symbol(w, 2, &d), 2);
	assert_int_equal(d.frame_id, 12);
	assert_memory_equal(d.name, "main", 4);
	assert_int_equal(fxt_stacks_get_symbol(w, 1, &d), 0);
}

static void sample_record(void **state)
{
	const struct fxt_stacks_sample s = {
		.category_ref = 0x7f30,
		.name_ref = 0x7f31,
		.cpu_ref = 0x7f32,
		.stack_ref = FXT_STACKS_STR_STACK,
		.weight_ref = 0x7f34,
		.ts = 123456789,
		.pid = 100,
		.tid = 101,
		.cpu = 1,
		.stack_id = 77,
		.weight_ns = 2003,
	};
	uint64_t w[FXT_STACKS_SAMPLE_WORDS];
	struct fxt_stacks_sample d;

	(void)state;
	fxt_stacks_put_sample(w, &s);
	/* type 15 [0..3], size 11 [4..35], large type 0, format 0 */
	assert_int_equal(w[0], 0xf | 11ull << 4);
	/* category [0..15], name [16..31], nargs 3 [32..35], thread 0 */
	assert_int_equal(w[1], 0x7f30 | 0x7f31ull << 16 | 3ull << 32);
	assert_int_equal(w[2], 123456789);
	assert_int_equal(w[3], 100);
	assert_int_equal(w[4], 101);
	/* uint32 arg: type 2, size 1, name [16..31], value [32..63] */
	assert_int_equal(w[5], 2 | 1 << 4 | 0x7f32ull << 16 | 1ull << 32);
	/* uint64 args: type 4, size 2 */
	assert_int_equal(w[6],
			 4 | 2 << 4 | (uint64_t)FXT_STACKS_STR_STACK << 16);
	assert_int_equal(w[7], 77);
	assert_int_equal(w[8], 4 | 2 << 4 | 0x7f34ull << 16);
	assert_int_equal(w[9], 2003);
	assert_int_equal(w[10], 0); /* blob size: no payload */

	assert_int_equal(fxt_stacks_get_sample(w, 11, &d), 0);
	assert_int_equal(d.category_ref, 0x7f30);
	assert_int_equal(d.name_ref, 0x7f31);
	assert_int_equal(d.cpu_ref, 0x7f32);
	assert_int_equal(d.stack_ref, FXT_STACKS_STR_STACK);
	assert_int_equal(d.weight_ref, 0x7f34);
	assert_int_equal(d.ts, 123456789);
	assert_int_equal(d.pid, 100);
	assert_int_equal(d.tid, 101);
	assert_int_equal(d.cpu, 1);
	assert_int_equal(d.stack_id, 77);
	assert_int_equal(d.weight_ns, 2003);
	assert_int_equal(fxt_stacks_get_sample(w, 10, &d), -1);
	w[10] = 8; /* a payload: not our form */
	assert_int_equal(fxt_stacks_get_sample(w, 11, &d), -1);
	w[10] = 0;
	w[8] = 2 | 1 << 4; /* weight as uint32: refused */
	assert_int_equal(fxt_stacks_get_sample(w, 11, &d), -1);
}

/* The one name of a frame without a symbol (fxt_stacks_unnamed_name). */
static void unnamed_frame_name(void **state)
{
	char buf[512], path[400] = "/opt/";
	const char *lib = "/usr/lib/x86_64-linux-gnu/libc.so.6";

	(void)state;
	assert_int_equal(fxt_stacks_unnamed_name(buf, sizeof(buf), lib,
						 strlen(lib), 0x1a2b),
			 16);
	assert_string_equal(buf, "libc.so.6+0x1a2b");
	/* Nothing after the last '/': the whole path. */
	assert_int_equal(fxt_stacks_unnamed_name(buf, sizeof(buf), "/weird/", 7,
						 0),
			 11);
	assert_string_equal(buf, "/weird/+0x0");
	assert_int_equal(fxt_stacks_unnamed_name(buf, sizeof(buf), "a.out", 5,
						 0xffffffffffffffffull),
			 24);
	assert_string_equal(buf, "a.out+0xffffffffffffffff");
	/* A file name of 300 bytes: its first 255. */
	memset(path + 5, 'n', 300);
	assert_int_equal(fxt_stacks_unnamed_name(buf, sizeof(buf), path, 305,
						 0x10),
			 FXT_STACKS_UNNAMED_BASE_MAX + 5);
	assert_int_equal(buf[FXT_STACKS_UNNAMED_BASE_MAX - 1], 'n');
	assert_string_equal(buf + FXT_STACKS_UNNAMED_BASE_MAX, "+0x10");
	/* A small buffer: cut, always ended. */
	assert_int_equal(fxt_stacks_unnamed_name(buf, 8, lib, strlen(lib),
						 0x1a2b),
			 7);
	assert_string_equal(buf, "libc.so");
	assert_int_equal(fxt_stacks_unnamed_name(buf, 0, lib, 3, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(string_table),
		cmocka_unit_test(mapping_entry),
		cmocka_unit_test(frame_entries),
		cmocka_unit_test(stack_entry),
		cmocka_unit_test(symbol_entry),
		cmocka_unit_test(sample_record),
		cmocka_unit_test(unnamed_frame_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
