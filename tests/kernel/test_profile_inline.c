// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inline frames through the manager's ingest filter
 * (daemon/fxtraced/stacks/profile_inline.c), with a fake resolver whose
 * DWARF says hot_inner is inlined into hot_outer, inlined into work()
 * at vaddr 0x1150, and helper into main() at the call before 0x1220:
 * the stack written gains those frames, innermost first, each flagged
 * inlined and named in its own entry (word-exact), the leaf's chain
 * taken at its address and a caller's at its call (the byte before its
 * return address); a chain is looked up once; the symbols at the end
 * name the functions' frames alone; the Perfetto stream names the
 * inline frames, marked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/ksample.h>
#include <fxt/stacks.h>

#include "ingest_out.h"
#include "profile_ingest.h"

#define PID 100u
#define TID 101u
#define WORK_FILE 7u

static int no_kernel(void *ctx, uint64_t pc, const char **name,
		     uint64_t *offset)
{
	return -ENOENT;
}

static bool no_sched(void *ctx, uint64_t pc)
{
	return false;
}

/* pid 100 maps /usr/bin/work at 0x400000, file offset 0 = vaddr 0x1000. */
static int fake_user_find(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
			  struct profile_user_hit *hit)
{
	if (pid != PID || pc < 0x400000 || pc >= 0x500000)
		return -ENOENT;
	hit->path = "/usr/bin/work";
	hit->file = WORK_FILE;
	hit->build_id = NULL;
	hit->build_id_len = 0;
	hit->vaddr = pc - 0x400000 + 0x1000;
	return 0;
}

static int fake_user_symbol(void *ctx, uint32_t file, const uint8_t *bid,
			    size_t bid_len, uint64_t vaddr, const char **name)
{
	*name = vaddr >= 0x1100 && vaddr < 0x1200 ? "work" :
		vaddr >= 0x1200 && vaddr < 0x1300 ? "main" :
						    NULL;
	return *name ? 0 : -ENOENT;
}

static unsigned int inline_asked;

static int fake_user_inline(void *ctx, uint32_t file, const uint8_t *bid,
			    size_t bid_len, uint64_t vaddr, const char **names,
			    size_t max)
{
	inline_asked++;
	assert_int_equal(file, WORK_FILE);
	assert_true(max >= 2);
	if (vaddr == 0x1150) {
		names[0] = "hot_inner";
		names[1] = "hot_outer";
		return 2;
	}
	if (vaddr == 0x121f) {
		names[0] = "helper";
		return 1;
	}
	return 0; /* 0x1220 itself: code of main's own */
}

static const struct profile_resolver fake = {
	.kernel_lookup = no_kernel,
	.in_sched_text = no_sched,
	.user_find = fake_user_find,
	.user_symbol = fake_user_symbol,
	.user_inline = fake_user_inline,
};

/* An on-CPU sample of user pcs upc (leaf first), no kernel frames. */
static void ingest(struct profile_ingest *p, struct out *o, const uint64_t *upc,
		   uint32_t nu)
{
	uint64_t rec[32];

	fxt_ksample_write_head((__u64 *)rec, FXT_KSAMPLE_ONCPU, 5000, PID, TID,
			       1, 0, nu, 0, 1000000);
	memcpy(rec + FXT_KSAMPLE_HEAD_WORDS, upc, nu * sizeof(*upc));
	assert_int_equal(profile_ingest_record(p, rec,
					       fxt_ksample_words(0, nu, 0),
					       collect, o),
			 0);
}

/* The first blob record named name at or after *at: its payload. */
static const uint64_t *blob(const struct out *o, uint16_t name, size_t *at,
			    size_t *words)
{
	while (*at < o->len) {
		const uint64_t *w = o->w + *at;

		*at += fxt_record_words(w[0]);
		if (FXT_GET(w[0], FXT_HDR_TYPE) == FXT_RECORD_BLOB &&
		    FXT_GET(w[0], FXT_BLOB_NAME) == name) {
			*words = fxt_record_words(w[0]) - 1;
			return w + 1;
		}
	}
	fail_msg("no blob %u", name);
	return NULL;
}

static void user_frame_is(const uint64_t *w, uint32_t id, uint64_t addr,
			  bool inlined, const char *name)
{
	size_t len = name ? strlen(name) : 0;

	assert_int_equal(w[0], id | 1ull << 32 | (uint64_t)len << 40 |
				       (inlined ? 1ull << 56 : 0));
	assert_int_equal(w[1], 1); /* mapping 1 */
	assert_int_equal(w[2], addr);
	if (len)
		assert_memory_equal(&w[3], name, len);
}

static void stack_gains_inline_frames(void **state)
{
	static const uint64_t upc[2] = { 0x400150, 0x400220 };
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest *p;
	const uint64_t *w;
	size_t at = 0, words;

	(void)state;
	inline_asked = 0;
	assert_int_equal(profile_ingest_new(&fake, 0, 0, &p), 0);
	ingest(p, o, upc, 2);
	/* work()'s frame, then its chain outermost first, then main's. */
	w = blob(o, FXT_STACKS_STR_FRAMES, &at, &words);
	assert_int_equal(words, 3 + (3 + 2) + (3 + 2) + 3 + (3 + 1));
	user_frame_is(w, 1, 0x1150, false, NULL);
	user_frame_is(w + 3, 2, 0x1150, true, "hot_outer");
	assert_memory_equal(&w[6], "hot_outer\0\0\0\0\0\0\0", 16);
	user_frame_is(w + 8, 3, 0x1150, true, "hot_inner");
	user_frame_is(w + 13, 4, 0x1220, false, NULL);
	user_frame_is(w + 16, 5, 0x1220, true, "helper");
	assert_memory_equal(&w[19], "helper\0\0", 8);
	/* stack 1: hot_inner hot_outer work helper main */
	w = blob(o, FXT_STACKS_STR_STACKS, &at, &words);
	assert_int_equal(words, 4);
	assert_int_equal(w[0], 1 | 5ull << 32);
	assert_int_equal(w[1], 3 | 2ull << 32);
	assert_int_equal(w[2], 1 | 5ull << 32);
	assert_int_equal(w[3], 4);
	/* Again: the same stack, no chain asked for again. */
	ingest(p, o, upc, 2);
	assert_int_equal(inline_asked, 2);
	assert_int_equal(profile_ingest_finish(p, collect, o), 0);
	profile_ingest_free(p);
	free(o);
}

/* The leaf at 0x1220 (its own code), then as a caller: two chains. */
static void leaf_and_caller_apart(void **state)
{
	static const uint64_t leaf[1] = { 0x400220 };
	static const uint64_t called[2] = { 0x400150, 0x400220 };
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest *p;
	const uint64_t *w;
	size_t at = 0, words;

	(void)state;
	assert_int_equal(profile_ingest_new(&fake, 0, 0, &p), 0);
	ingest(p, o, leaf, 1);
	ingest(p, o, called, 2);
	w = blob(o, FXT_STACKS_STR_STACKS, &at, &words);
	assert_int_equal(w[0], 1 | 1ull << 32); /* main alone */
	assert_int_equal(w[1], 1);
	w = blob(o, FXT_STACKS_STR_STACKS, &at, &words);
	/* stack 2: hot_inner hot_outer work helper main(frame 1) */
	assert_int_equal(w[0], 2 | 5ull << 32);
	assert_int_equal(w[1], 4 | 3ull << 32);
	assert_int_equal(w[2], 2 | 5ull << 32);
	assert_int_equal(w[3], 1);
	profile_ingest_free(p);
	free(o);
}

/* Symbols for the functions' frames only; Perfetto's names marked. */
static void finish_names_functions_alone(void **state)
{
	static const uint64_t upc[2] = { 0x400150, 0x400220 };
	struct out *o = calloc(1, sizeof(*o));
	struct fxt_stacks_symbol s;
	struct profile_ingest *p;
	const uint64_t *w;
	size_t at, words, n;

	(void)state;
	assert_int_equal(profile_ingest_new(&fake, 0, 0, &p), 0);
	ingest(p, o, upc, 2);
	at = o->len;
	assert_int_equal(profile_ingest_finish(p, collect, o), 0);
	w = blob(o, FXT_STACKS_STR_SYMBOLS, &at, &words);
	n = fxt_stacks_get_symbol(w, words, &s);
	assert_int_equal(s.frame_id, 1);
	assert_int_equal(s.name_len, 4);
	assert_memory_equal(s.name, "work", 4);
	assert_int_equal(fxt_stacks_get_symbol(w + n, words - n, &s), n);
	assert_int_equal(s.frame_id, 4);
	assert_memory_equal(s.name, "main", 4);
	assert_int_equal(words, 2 * n);
	w = blob(o, FXT_STACKS_STR_PERFETTO, &at, &words);
	assert_non_null(memmem(w, words * 8, "hot_inner [inlined]", 19));
	assert_non_null(memmem(w, words * 8, "helper [inlined]", 16));
	profile_ingest_free(p);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stack_gains_inline_frames),
		cmocka_unit_test(leaf_and_caller_apart),
		cmocka_unit_test(finish_names_functions_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
