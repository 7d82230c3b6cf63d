// SPDX-License-Identifier: GPL-2.0-only
/*
 * The archive's stack-losses record of <fxt/stacks_losses.h> against
 * words worked out by hand from the layout, then read back by the
 * decoder, which must refuse entries that do not fit their words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/kdev.h>
#include <fxt/stacks_losses.h>

/* 21 entries: 21 * 2 words, and 52 words of names. */
#define PAYLOAD_WORDS 94u

static void names(void **state)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;
	static const char *const reasons[] = FXT_STACK_LOSS_NAMES;

	(void)state;
	assert_string_equal(table[FXT_STACK_LOSSES_STR - FXT_KDEV_STR_BASE],
			    "fxtrace:stack_losses");
	assert_int_equal(sizeof(reasons) / sizeof(*reasons),
			 FXT_STACK_LOSS_COUNT);
	/* The names are an interface: tests and users grep for them. */
	assert_string_equal(
		fxt_stack_loss_name(FXT_STACK_LOSS_USER_DEPTH_LIMIT),
		"user_depth_limit");
	assert_string_equal(fxt_stack_loss_name(FXT_STACK_LOSS_USER_READ_FAULT),
			    "user_read_fault");
	assert_string_equal(
		fxt_stack_loss_name(FXT_STACK_LOSS_LEAF_CALLER_UNREAD),
		"leaf_caller_unread");
	assert_string_equal(fxt_stack_loss_name(FXT_STACK_LOSS_JUNK_FRAME_WORD),
			    "junk_frame_word");
	assert_int_equal(fxt_stack_loss_lookup("junk_frame_word", 15),
			 FXT_STACK_LOSS_JUNK_FRAME_WORD);
	assert_int_equal(fxt_stack_loss_lookup("junk_frame_wor", 14), -1);
	assert_int_equal(fxt_stack_loss_lookup("junk_frame_words", 16), -1);
	assert_int_equal(fxt_stack_losses_payload_words(), PAYLOAD_WORDS);
}

static void record_words(void **state)
{
	uint64_t counts[FXT_STACK_LOSS_COUNT], w[PAYLOAD_WORDS + 2];
	size_t i;

	(void)state;
	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++)
		counts[i] = 100 + i;
	counts[FXT_STACK_LOSS_PYTHON_UNNAMED] = UINT64_MAX;
	memset(w, 0xff, sizeof(w));
	assert_int_equal(fxt_stack_losses_put(w, counts), 1 + PAYLOAD_WORDS);
	assert_int_equal(w[1 + PAYLOAD_WORDS], UINT64_MAX); /* untouched */
	/* blob: type 5, size, name ref [16..31], bytes [32..47], type 1 */
	assert_int_equal(w[0],
			 5ull | (1ull + PAYLOAD_WORDS) << 4 |
				 (uint64_t)FXT_KDEV_STR_STACK_LOSSES << 16 |
				 (PAYLOAD_WORDS * 8ull) << 32 | 1ull << 48);
	/* "samples_dropped": length 15, count, two words of name */
	assert_int_equal(w[1], 15);
	assert_int_equal(w[2], 100);
	assert_int_equal(w[3], 0x5f73656c706d6173); /* "samples_" */
	assert_int_equal(w[4], 0x646570706f7264); /* "dropped" + 0 */
	/* the last: "python_unnamed", 14 bytes in two words */
	assert_int_equal(w[PAYLOAD_WORDS - 3], 14);
	assert_int_equal(w[PAYLOAD_WORDS - 2], UINT64_MAX);
	assert_int_equal(w[PAYLOAD_WORDS - 1], 0x755f6e6f68747970);
	assert_int_equal(w[PAYLOAD_WORDS], 0x64656d616e6e); /* "nnamed" */
}

static void read_back(void **state)
{
	uint64_t counts[FXT_STACK_LOSS_COUNT], w[PAYLOAD_WORDS + 1];
	struct fxt_stack_loss_entry e = { 0 };
	size_t at = 1, i, n;

	(void)state;
	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++)
		counts[i] = i * 7;
	fxt_stack_losses_put(w, counts);
	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++) {
		n = fxt_stack_losses_get(w + at, 1 + PAYLOAD_WORDS - at, &e);
		assert_int_not_equal(n, 0);
		assert_int_equal(fxt_stack_loss_lookup(e.name, e.name_len), i);
		assert_int_equal(e.count, i * 7);
		at += n;
	}
	assert_int_equal(at, 1 + PAYLOAD_WORDS);
	assert_int_equal(fxt_stack_losses_get(w + at, 0, &e), 0);
}

static void hostile_entries(void **state)
{
	uint64_t w[4] = { 15, 1, 0x5f73656c706d6173, 0x646570706f7264 };
	struct fxt_stack_loss_entry e = { 0 };

	(void)state;
	assert_int_equal(fxt_stack_losses_get(w, 4, &e), 4);
	assert_int_equal(fxt_stack_losses_get(w, 3, &e), 0); /* name cut */
	assert_int_equal(fxt_stack_losses_get(w, 1, &e), 0);
	w[0] = 0; /* no name */
	assert_int_equal(fxt_stack_losses_get(w, 4, &e), 0);
	w[0] = 64; /* over FXT_STACK_LOSSES_NAME_MAX */
	assert_int_equal(fxt_stack_losses_get(w, 4, &e), 0);
	w[0] = 15 | 1ull << 8; /* reserved bits */
	assert_int_equal(fxt_stack_losses_get(w, 4, &e), 0);
	w[0] = 63; /* fits the field, not the words */
	assert_int_equal(fxt_stack_losses_get(w, 4, &e), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(record_words),
		cmocka_unit_test(read_back),
		cmocka_unit_test(hostile_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
