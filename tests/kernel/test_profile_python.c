// SPDX-License-Identifier: GPL-2.0-only
/*
 * Python frames through the manager's ingest filter: a raw sample whose
 * user PCs end with Python words (include/fxt/pyframes.h, their count
 * in "user_stack_words") comes out with each evaluation call's Python
 * frames in place of its native frame, leaf first, those placed nowhere
 * after the native frames; each code object named once per process by
 * the resolver, "[python]" and counted when it cannot be; the record
 * itself word-exact (include/fxt/ksample.h).
 */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <fxt/ksample.h>
#include <fxt/pyframes.h>
#include <fxt/stacks.h>

#include "ingest_out.h"
#include "profile_ingest.h"

#define PID 300u
#define TID 301u
#define CODE_A 0x7f0000001000ull
#define CODE_B 0x7f0000002000ull
#define CODE_C 0x7f0000003000ull
#define EVAL_PC 0x600010ull

/* /usr/bin/python at 0x400000..0x700000: hot at 0x1100, main 0x1200. */
static int fake_user_find(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
			  struct profile_user_hit *hit)
{
	if (pid != PID || pc < 0x400000 || pc >= 0x700000)
		return -ENOENT;
	hit->path = "/usr/bin/python";
	hit->file = 1;
	hit->build_id = NULL;
	hit->build_id_len = 0;
	hit->vaddr = pc - 0x400000 + 0x1000;
	return 0;
}

static unsigned int named_asked;

/* Code objects A and B have names; C's words cannot be read. */
static int fake_user_python(void *ctx, uint32_t pid, uint64_t code,
			    const char **name)
{
	named_asked++;
	if (pid != PID)
		return -ENOENT;
	if (code == CODE_A)
		*name = "app.inner (/srv/app.py:10)";
	else if (code == CODE_B)
		*name = "app.outer (/srv/app.py:20)";
	else
		return -EFAULT;
	return 0;
}

static const struct profile_resolver fake = {
	.user_find = fake_user_find,
	.user_python = fake_user_python,
};

/* The frames of the last stack o holds, leaf first: names or addresses. */
static size_t last_stack(const struct out *o, char (*names)[64], size_t max)
{
	static char frame_name[64][64];
	struct fxt_stacks_frame f = { 0 };
	struct fxt_stacks_stack st = { 0 };
	size_t at, i, n, words;

	for (at = 0; at < o->len; at += words) {
		uint16_t name = (uint16_t)FXT_GET(o->w[at], FXT_BLOB_NAME);

		words = fxt_record_words(o->w[at]);
		for (i = 1; name == FXT_KDEV_STR_FRAMES && i < words; i += n) {
			n = fxt_stacks_get_frame(o->w + at + i, words - i, &f);
			assert_true(n > 0 && f.id < 64);
			if (f.name_len)
				snprintf(frame_name[f.id], 64, "%.*s",
					 (int)f.name_len, f.name);
			else
				snprintf(frame_name[f.id], 64, "0x%llx",
					 (unsigned long long)f.addr);
		}
		for (i = 1; name == FXT_KDEV_STR_STACKS && i < words; i += n) {
			n = fxt_stacks_get_stack(o->w + at + i, words - i, &st);
			assert_true(n > 0);
		}
	}
	assert_true(st.nframes <= max);
	for (i = 0; i < st.nframes; i++)
		strcpy(names[i], frame_name[fxt_stacks_stack_frame(&st, i)]);
	return st.nframes;
}

/* The head's word 7 and the parse of a record with Python words. */
static void record_word_exact(void **state)
{
	uint64_t w[32];
	struct fxt_ksample s;

	(void)state;
	fxt_ksample_write_head((__u64 *)w, FXT_KSAMPLE_ONCPU, 1, PID, TID, 0,
			       0, 5, FXT_KSAMPLE_UNWOUND | 2u << 16, 1000);
	/* uint32 arg: type 3, size 1, name ref, value UNWOUND | 2 << 16 */
	assert_int_equal(w[7] >> 32, 0x80020000u);
	assert_int_equal(w[10], 5 * 8);
	assert_int_equal(fxt_ksample_parse((const __u64 *)w, 16, &s), 1);
	assert_int_equal(s.nu, 3);
	assert_int_equal(s.npy, 2);
	assert_true(s.unwound);
	assert_int_equal(s.ns, 0);
	/* With a leaf's words: they follow the Python words. */
	fxt_ksample_write_head((__u64 *)w, FXT_KSAMPLE_ONCPU, 1, PID, TID, 0,
			       0, 3, 2 | 1u << 16, 1000);
	w[11 + 3] = 0x7ffd0000; /* sp */
	assert_int_equal(fxt_ksample_parse((const __u64 *)w, 11 + 3 + 4, &s),
			 1);
	assert_int_equal(s.nu, 2);
	assert_int_equal(s.npy, 1);
	assert_int_equal(s.ns, 2);
	assert_int_equal(s.user_sp, 0x7ffd0000);
	/* More Python words than user PCs: refused. */
	fxt_ksample_write_head((__u64 *)w, FXT_KSAMPLE_ONCPU, 1, PID, TID, 0,
			       0, 1, FXT_KSAMPLE_UNWOUND | 2u << 16, 1000);
	assert_int_equal(fxt_ksample_parse((const __u64 *)w, 12, &s), 0);
	assert_int_equal(fxt_py_word(CODE_A, 3) >> 48, 0x5003);
	assert_int_equal(fxt_py_word_code(fxt_py_word(CODE_A, 3)), CODE_A);
}

/*
 * hot <- [eval] <- main, its Python words: A and B for the evaluation
 * frame (native 1), C placed nowhere: hot <- A <- B <- main <- C.
 */
static void frames_in_place(void **state)
{
	static const char *const want[] = {
		"0x1150", "app.inner (/srv/app.py:10)",
		"app.outer (/srv/app.py:20)", "0x1250", "[python]",
	};
	const uint64_t u[6] = {
		0x400150, EVAL_PC, 0x400250, fxt_py_word(CODE_A, 1),
		fxt_py_word(CODE_B, 1),
		fxt_py_word(CODE_C, FXT_PY_NATIVE_NONE),
	};
	struct out *o = calloc(1, sizeof(*o));
	struct profile_ingest_stats st;
	struct profile_ingest *p;
	char names[16][64];
	uint64_t rec[64];
	size_t i, n;

	(void)state;
	assert_int_equal(profile_ingest_new(&fake, 0, 0, &p), 0);
	named_asked = 0;
	for (i = 0; i < 2; i++) {
		fxt_ksample_write_head((__u64 *)rec, FXT_KSAMPLE_ONCPU,
				       1000 + i, PID, TID, 0, 0, 6,
				       FXT_KSAMPLE_UNWOUND | 3u << 16, 1000);
		memcpy(rec + FXT_KSAMPLE_HEAD_WORDS, u, sizeof(u));
		assert_int_equal(profile_ingest_record(p, rec, 17, collect, o),
				 0);
	}
	n = last_stack(o, names, 16);
	assert_int_equal(n, 5);
	for (i = 0; i < n; i++)
		assert_string_equal(names[i], want[i]);
	/* Each code object named once: the second sample's are interned. */
	assert_int_equal(named_asked, 3);
	profile_ingest_stats(p, &st);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.python_frames, 3);
	assert_int_equal(st.python_unnamed, 1);
	/* No code object's address is written. */
	assert_null(memmem(o->w, o->len * 8, &u[3], 6));
	profile_ingest_free(p);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(record_word_exact),
		cmocka_unit_test(frames_in_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
