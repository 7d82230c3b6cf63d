// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>

#include <fxt/fxt.h>
#include <fxt/sched.h>

#include "krec.h"

#define FAIL(...) do { snprintf(why, why_len, __VA_ARGS__); return 0; } while (0)

static int arg_ok(uint64_t a, unsigned int type, unsigned int words,
		  unsigned int name)
{
	return FXT_GET(a, FXT_ARG_TYPE) == type &&
	       FXT_GET(a, FXT_ARG_SIZE) == words &&
	       FXT_GET(a, FXT_ARG_NAME) == name;
}

static unsigned int decode_sched(const uint64_t *w, unsigned int size,
				 struct krec *r, char *why, size_t why_len)
{
	unsigned int type = FXT_GET(w[0], FXT_SCHED_TYPE);

	if (FXT_GET(w[0], FXT_SCHED_NARGS) != 2)
		FAIL("scheduling record with %u args",
		     (unsigned int)FXT_GET(w[0], FXT_SCHED_NARGS));
	r->cpu = FXT_GET(w[0], FXT_SCHED_CPU);
	r->ts = w[1];
	if (type == FXT_SCHED_CONTEXT_SWITCH) {
		if (size != FXT_SCHED_SWITCH_WORDS)
			FAIL("context switch of %u words", size);
		if (w[0] >> 40 & fxt_mask(20))
			FAIL("context switch reserved bits set");
		r->kind = KREC_SWITCH;
		r->out_state = FXT_GET(w[0], FXT_SCHED_OUT_STATE);
		if (r->out_state > FXT_THREAD_DEAD)
			FAIL("outgoing state %u", r->out_state);
		r->out_tid = w[2];
		r->in_tid = w[3];
		if (!arg_ok(w[4], FXT_ARG_INT32, 1, FXT_SCHED_STR_OUTGOING_WEIGHT) ||
		    !arg_ok(w[5], FXT_ARG_INT32, 1, FXT_SCHED_STR_INCOMING_WEIGHT))
			FAIL("context switch weights are not int32 args");
		r->out_weight = (int32_t)FXT_GET(w[4], FXT_ARG_VALUE32);
		r->in_weight = (int32_t)FXT_GET(w[5], FXT_ARG_VALUE32);
		return size;
	}
	if (type == FXT_SCHED_THREAD_WAKEUP) {
		if (size != FXT_SCHED_WAKEUP_WORDS)
			FAIL("wakeup of %u words", size);
		if (w[0] >> 36 & fxt_mask(24))
			FAIL("wakeup reserved bits set");
		r->kind = KREC_WAKEUP;
		r->tid = w[2];
		if (!arg_ok(w[3], FXT_ARG_INT32, 1, FXT_SCHED_STR_WEIGHT))
			FAIL("wakeup weight is not an int32 arg");
		if (!arg_ok(w[4], FXT_ARG_KOID, 2, FXT_SCHED_STR_WAKER) ||
		    FXT_GET(w[4], FXT_ARG_VALUE32))
			FAIL("wakeup waker is not a koid arg");
		r->weight = (int32_t)FXT_GET(w[3], FXT_ARG_VALUE32);
		r->waker = w[5];
		return size;
	}
	FAIL("scheduling record type %u", type);
}

static unsigned int decode_kobj(const uint64_t *w, unsigned int size,
				struct krec *r, char *why, size_t why_len)
{
	unsigned int obj = FXT_GET(w[0], FXT_KOBJ_TYPE);
	unsigned int ref = FXT_GET(w[0], FXT_KOBJ_NAME);
	unsigned int nargs = FXT_GET(w[0], FXT_KOBJ_NARGS);
	unsigned int len = ref & FXT_STRING_INDEX_MAX;
	unsigned int name_words = fxt_words(len);
	const char *name = (const char *)&w[2];
	unsigned int i;

	if (!(ref & FXT_STRING_REF_INLINE) || len > FXT_SCHED_NAME_MAX)
		FAIL("kernel object name ref 0x%x", ref);
	if (w[0] >> 44)
		FAIL("kernel object reserved bits set");
	for (i = len; i < name_words * 8; i++)
		if (name[i])
			FAIL("name padding not zero");
	if (memchr(name, 0, len))
		FAIL("NUL inside a name");
	memcpy(r->name, name, len);
	r->name[len] = 0;
	r->tid = w[1];
	if (obj == FXT_ZX_OBJ_PROCESS) {
		if (nargs != 0 || size != 2 + name_words)
			FAIL("process object of %u words, %u args", size, nargs);
		r->kind = KREC_PROCESS;
		return size;
	}
	if (obj == FXT_ZX_OBJ_THREAD) {
		const uint64_t *arg = &w[2 + name_words];

		if (nargs != 1 || size != 4 + name_words)
			FAIL("thread object of %u words, %u args", size, nargs);
		if (!arg_ok(arg[0], FXT_ARG_KOID, 2, FXT_SCHED_STR_PROCESS) ||
		    FXT_GET(arg[0], FXT_ARG_VALUE32))
			FAIL("thread object without a koid 'process' arg");
		r->kind = KREC_THREAD;
		r->process = arg[1];
		return size;
	}
	FAIL("kernel object type %u", obj);
}

unsigned int krec_decode(const uint64_t *w, size_t avail_words,
			 struct krec *r, char *why, size_t why_len)
{
	unsigned int size;

	memset(r, 0, sizeof(*r));
	if (!avail_words)
		FAIL("no words");
	size = fxt_record_words(w[0]);
	if (!size || size > avail_words)
		FAIL("record of %u words with %zu left", size, avail_words);
	if (size > FXT_SCHED_RECORD_MAX_WORDS)
		FAIL("record of %u words > max %u", size,
		     FXT_SCHED_RECORD_MAX_WORDS);
	r->words = size;
	switch (FXT_GET(w[0], FXT_HDR_TYPE)) {
	case FXT_RECORD_SCHEDULING:
		return decode_sched(w, size, r, why, why_len);
	case FXT_RECORD_KERNEL_OBJECT:
		return decode_kobj(w, size, r, why, why_len);
	default:
		FAIL("record type %u", (unsigned int)FXT_GET(w[0], FXT_HDR_TYPE));
	}
}
