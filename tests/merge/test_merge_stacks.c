// SPDX-License-Identifier: GPL-2.0-only
/*
 * A merge's stack records in one id space (merge_stacks.h), word for
 * word: ids moved past the inputs before, id 0 kept, an id past 32 bits
 * left out and counted.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <fxt/stacks.h>

#include "merge_stacks.h"

static struct fxt_str str(const char *s)
{
	return (struct fxt_str){ s, (uint32_t)strlen(s) };
}

static void test_ids(void **state)
{
	struct merge_stack_ids a, b;
	uint32_t out;

	(void)state;
	merge_stack_ids_follow(&a, NULL);
	assert_true(merge_stack_id(&a, MERGE_STACK_FRAMES, 7, &out));
	assert_int_equal(out, 7);
	assert_true(merge_stack_id(&a, MERGE_STACK_FRAMES, 0, &out));
	assert_int_equal(out, 0);
	assert_true(merge_stack_id(&a, MERGE_STACK_STACKS, 3, &out));
	assert_true(merge_stack_id(&a, MERGE_STACK_FRAMES, 2, &out));
	assert_int_equal(out, 2);

	merge_stack_ids_follow(&b, &a);
	assert_int_equal(b.base[MERGE_STACK_MAPPINGS], 0);
	assert_int_equal(b.base[MERGE_STACK_FRAMES], 7);
	assert_int_equal(b.base[MERGE_STACK_STACKS], 3);
	assert_true(merge_stack_id(&b, MERGE_STACK_FRAMES, 1, &out));
	assert_int_equal(out, 8);
	assert_true(merge_stack_id(&b, MERGE_STACK_STACKS, 1, &out));
	assert_int_equal(out, 4);
	assert_true(merge_stack_id(&b, MERGE_STACK_MAPPINGS, 2, &out));
	assert_int_equal(out, 2);
	assert_true(merge_stack_id(&b, MERGE_STACK_FRAMES, 0, &out));
	assert_int_equal(out, 0);
	/* the last id that fits, then past 32 bits: no id, max kept */
	assert_true(merge_stack_id(&b, MERGE_STACK_FRAMES, 0xfffffff8u, &out));
	assert_int_equal(out, 0xffffffffu);
	out = 1;
	assert_false(merge_stack_id(&b, MERGE_STACK_FRAMES, 0xfffffff9u, &out));
	assert_false(merge_stack_id(&b, MERGE_STACK_FRAMES, 1ull << 32, &out));
	assert_int_equal(out, 1);
	assert_int_equal(b.max[MERGE_STACK_FRAMES], 0xffffffffu);
	assert_int_equal(b.max[MERGE_STACK_STACKS], 4);
}

/* A table blob record of name with payload words p, into rec/words. */
static void table(struct fxt_record *rec, uint64_t *words, const char *name,
		  const uint64_t *p, size_t n)
{
	size_t len = strlen(name), at = 1 + fxt_words((uint32_t)len);

	memset(rec, 0, sizeof(*rec));
	memset(words, 0, at * 8);
	memcpy(&words[1], name, len);
	memcpy(&words[at], p, n * 8);
	words[0] = fxt_blob_header((uint32_t)(at + n),
				   fxt_string_ref_inline((uint16_t)len),
				   (uint16_t)(n * 8), FXT_BLOB_DATA);
	rec->type = FXT_RECORD_BLOB;
	rec->blob.blob_type = FXT_BLOB_DATA;
	rec->blob.name = str(name);
	rec->words = words;
	rec->size_words = at + n;
}

static void test_frames_table(void **state)
{
	struct fxt_stacks_frame f1 = { .id = 1,
				       .kind = FXT_STACKS_FRAME_USER,
				       .name_len = 1,
				       .mapping_id = 2,
				       .addr = 0x1234,
				       .name = "f" };
	struct fxt_stacks_frame f2 = { .id = 2,
				       .kind = FXT_STACKS_FRAME_KERNEL,
				       .addr = 0x10 };
	uint64_t in[16], want[16], words[32], out[32], *p;
	struct merge_stack_ids m;
	struct fxt_record rec;
	size_t n;

	(void)state;
	p = fxt_stacks_put_frame(in, &f1);
	p = fxt_stacks_put_frame(p, &f2);
	n = (size_t)(p - in);
	table(&rec, words, FXT_STACKS_NAME_FRAMES, in, n);
	merge_stack_ids_follow(&m, NULL);
	m.base[MERGE_STACK_FRAMES] = 10;
	m.base[MERGE_STACK_MAPPINGS] = 5;
	f1.id = 11;
	f1.mapping_id = 7;
	f2.id = 12; /* the kernel's mapping 0 stays 0 */
	p = fxt_stacks_put_frame(want, &f1);
	p = fxt_stacks_put_frame(p, &f2);
	table(&rec, words, FXT_STACKS_NAME_FRAMES, in, n);
	memcpy(out, words, 3 * 8); /* the header and the name: the same */
	memcpy(&out[3], want, n * 8);
	{
		uint64_t got[32];

		assert_int_equal(merge_stack_table(&m, &rec, got), 3 + n);
		assert_memory_equal(got, out, (3 + n) * 8);
	}
	assert_int_equal(m.lost, 0);
	assert_int_equal(m.max[MERGE_STACK_FRAMES], 12);
	assert_int_equal(m.max[MERGE_STACK_MAPPINGS], 7);
}

/* A stack naming a frame past 32 bits is left out, the record shrinks. */
static void test_stacks_table_overflow(void **state)
{
	const uint32_t ok[3] = { 1, 2, 3 }, past[1] = { 0x20 };
	const uint32_t moved[3] = { 0xfffffff1u, 0xfffffff2u, 0xfffffff3u };
	uint64_t in[16], words[32], got[32], want[32], *p;
	struct merge_stack_ids m;
	struct fxt_record rec;
	size_t n, keep;

	(void)state;
	p = fxt_stacks_put_stack(in, 1, ok, 3);
	keep = (size_t)(p - in);
	p = fxt_stacks_put_stack(p, 2, past, 1);
	n = (size_t)(p - in);
	table(&rec, words, FXT_STACKS_NAME_STACKS, in, n);
	merge_stack_ids_follow(&m, NULL);
	m.base[MERGE_STACK_FRAMES] = 0xfffffff0u;
	m.base[MERGE_STACK_STACKS] = 100;
	/* "fxtrace:stacks": 14 bytes, 2 words */
	memcpy(want, words, 3 * 8);
	fxt_stacks_put_stack(&want[3], 101, moved, 3);
	want[0] = fxt_blob_header((uint32_t)(3 + keep),
				  fxt_string_ref_inline(14),
				  (uint16_t)(keep * 8), FXT_BLOB_DATA);
	assert_int_equal(merge_stack_table(&m, &rec, got), 3 + keep);
	assert_memory_equal(got, want, (3 + keep) * 8);
	assert_int_equal(m.lost, 1);
	assert_int_equal(m.max[MERGE_STACK_STACKS], 101);

	/* not a table: 0, nothing written */
	rec.blob.name = str("fxtrace:other");
	assert_int_equal(merge_stack_table(&m, &rec, got), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_frames_table),
		cmocka_unit_test(test_stacks_table_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
