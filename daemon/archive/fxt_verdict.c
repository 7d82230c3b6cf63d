// SPDX-License-Identifier: GPL-2.0-only
/* A provider record's verdict without decoding it: see fxt_verdict.h. */
#include <string.h>

#include <fxt/fxt.h>

#include "fxt_reader.h"
#include "fxt_verdict.h"

/*
 * The decoder (fxt_decode.c), reduced to what makes it skip a record: a
 * field that runs past its record (or its argument), an argument of size
 * 0, a type it does not know. Each size rule below is the decoder's, in
 * its order; the unit test test_verdict holds them to the decoder's
 * decisions.
 */

/* The words of a record still to be taken: [i, n). */
struct span {
	const unsigned char *p;
	uint64_t i, n;
};

static uint64_t span_word(const struct span *s, uint64_t i)
{
	uint64_t w;

	memcpy(&w, s->p + i * FXT_WORD_BYTES, sizeof(w));
	return w;
}

static bool span_take(struct span *s, uint64_t words)
{
	if (s->n - s->i < words)
		return false;
	s->i += words;
	return true;
}

/* take_string(): only an inline string has words. */
static bool span_string(struct span *s, uint16_t ref)
{
	return span_take(s, fxt_string_ref_words(ref));
}

/* take_thread(): only an inline thread has words, its two koids. */
static bool span_thread(struct span *s, uint8_t ref)
{
	return span_take(s, ref == FXT_THREAD_REF_INLINE ? 2 : 0);
}

/* take_args() and decode_arg_value(). */
static bool span_args(struct span *s, unsigned int nargs)
{
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		uint64_t start = s->i, header, size;
		unsigned int type;
		struct span sub;

		if (start >= s->n)
			return false;
		header = span_word(s, start);
		size = FXT_GET(header, FXT_ARG_SIZE);
		if (!size || size > s->n - start)
			return false;
		s->i = start + size;
		type = (unsigned int)FXT_GET(header, FXT_ARG_TYPE);
		if (type > FXT_ARG_TYPE_MAX)
			continue;
		sub = (struct span){ s->p, start + 1, start + size };
		if (!span_string(&sub, (uint16_t)FXT_GET(header, FXT_ARG_NAME)))
			return false;
		switch (type) {
		case FXT_ARG_NULL:
		case FXT_ARG_INT32:
		case FXT_ARG_UINT32:
		case FXT_ARG_BOOL:
			break;
		case FXT_ARG_STRING:
			if (!span_string(&sub, (uint16_t)FXT_GET(
						 header, FXT_ARG_STRING_VALUE)))
				return false;
			break;
		default:	/* double and the 64-bit integer kinds */
			if (!span_take(&sub, 1))
				return false;
			break;
		}
	}
	return true;
}

static enum fxt_record_verdict span_verdict(bool whole)
{
	return whole ? FXT_RECORD_KEEP : FXT_RECORD_SKIP;
}

static enum fxt_record_verdict event_verdict(struct span *s, uint64_t h)
{
	unsigned int type = (unsigned int)FXT_GET(h, FXT_EVENT_TYPE);
	bool whole;

	if (type > FXT_EVENT_TYPE_MAX)
		return FXT_RECORD_SKIP;
	whole = span_take(s, 1) &&
		span_thread(s, (uint8_t)FXT_GET(h, FXT_EVENT_THREAD)) &&
		span_string(s, (uint16_t)FXT_GET(h, FXT_EVENT_CATEGORY)) &&
		span_string(s, (uint16_t)FXT_GET(h, FXT_EVENT_NAME)) &&
		span_args(s, (unsigned int)FXT_GET(h, FXT_EVENT_NARGS));
	/* decode_event_extra(): an instant's scope word is optional. */
	if (whole && type != FXT_EVENT_INSTANT &&
	    type != FXT_EVENT_DURATION_BEGIN && type != FXT_EVENT_DURATION_END)
		whole = span_take(s, 1);
	return span_verdict(whole);
}

static enum fxt_record_verdict sched_verdict(struct span *s, uint64_t h)
{
	unsigned int nargs = (unsigned int)FXT_GET(h, FXT_SCHED_NARGS);

	switch (FXT_GET(h, FXT_SCHED_TYPE)) {
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		return span_verdict(
			span_take(s, 1) &&
			span_thread(s, (uint8_t)FXT_GET(h, FXT_LEGACY_CS_OUT_THREAD)) &&
			span_thread(s, (uint8_t)FXT_GET(h, FXT_LEGACY_CS_IN_THREAD)));
	case FXT_SCHED_CONTEXT_SWITCH:
		return span_verdict(span_take(s, 3) && span_args(s, nargs));
	case FXT_SCHED_THREAD_WAKEUP:
		return span_verdict(span_take(s, 2) && span_args(s, nargs));
	default:
		return FXT_RECORD_SKIP;
	}
}

static enum fxt_record_verdict large_verdict(struct span *s, uint64_t h)
{
	unsigned int format = (unsigned int)FXT_GET(h, FXT_LARGE_BLOB_FORMAT);
	uint64_t f, len;

	if (FXT_GET(h, FXT_LARGE_TYPE) != FXT_LARGE_BLOB ||
	    format > FXT_LARGE_BLOB_NO_METADATA)
		return FXT_RECORD_SKIP;
	if (s->n > FXT_READER_LARGE_RECORD_MAX / FXT_WORD_BYTES)
		return FXT_RECORD_SKIP;	/* skip_large() */
	if (!span_take(s, 1))
		return FXT_RECORD_SKIP;
	f = span_word(s, s->i - 1);
	if (!span_string(s, (uint16_t)FXT_GET(f, FXT_LBLOB_CATEGORY)) ||
	    !span_string(s, (uint16_t)FXT_GET(f, FXT_LBLOB_NAME)))
		return FXT_RECORD_SKIP;
	if (format == FXT_LARGE_BLOB_WITH_METADATA &&
	    !(span_take(s, 1) &&
	      span_thread(s, (uint8_t)FXT_GET(f, FXT_LBLOB_THREAD)) &&
	      span_args(s, (unsigned int)FXT_GET(f, FXT_LBLOB_NARGS))))
		return FXT_RECORD_SKIP;
	/* take_large_payload() */
	if (!span_take(s, 1))
		return FXT_RECORD_SKIP;
	len = span_word(s, s->i - 1);
	return span_verdict(len <= (s->n - s->i) * FXT_WORD_BYTES);
}

enum fxt_record_verdict fxt_provider_record_verdict(const void *record,
						    uint64_t words)
{
	struct span s = { record, 1, words };
	uint64_t h = span_word(&s, 0);
	uint8_t ref;

	if (h == __builtin_bswap64(FXT_MAGIC_RECORD))
		return FXT_RECORD_STOP;
	switch (FXT_GET(h, FXT_HDR_TYPE)) {
	case FXT_RECORD_INITIALIZATION:
		return span_verdict(span_take(&s, 1));
	case FXT_RECORD_STRING:
		return span_verdict(span_take(
			&s, fxt_words((uint32_t)FXT_GET(h, FXT_STRING_LEN))));
	case FXT_RECORD_THREAD:
		return span_verdict(span_take(&s, 2));
	case FXT_RECORD_EVENT:
		return event_verdict(&s, h);
	case FXT_RECORD_BLOB:
		return span_verdict(
			span_string(&s, (uint16_t)FXT_GET(h, FXT_BLOB_NAME)) &&
			span_take(&s, fxt_words((uint32_t)FXT_GET(h, FXT_BLOB_SIZE))));
	case FXT_RECORD_USERSPACE_OBJECT:
		/* An inline process is one koid word, not a thread's two. */
		ref = (uint8_t)FXT_GET(h, FXT_UOBJ_PROCESS);
		return span_verdict(
			span_take(&s, ref == FXT_THREAD_REF_INLINE ? 2 : 1) &&
			span_string(&s, (uint16_t)FXT_GET(h, FXT_UOBJ_NAME)) &&
			span_args(&s, (unsigned int)FXT_GET(h, FXT_UOBJ_NARGS)));
	case FXT_RECORD_KERNEL_OBJECT:
		return span_verdict(
			span_take(&s, 1) &&
			span_string(&s, (uint16_t)FXT_GET(h, FXT_KOBJ_NAME)) &&
			span_args(&s, (unsigned int)FXT_GET(h, FXT_KOBJ_NARGS)));
	case FXT_RECORD_SCHEDULING:
		return sched_verdict(&s, h);
	case FXT_RECORD_LOG:
		return span_verdict(
			span_take(&s, 1) &&
			span_thread(&s, (uint8_t)FXT_GET(h, FXT_LOG_THREAD)) &&
			span_take(&s, fxt_words((uint32_t)FXT_GET(h, FXT_LOG_LEN))));
	case FXT_RECORD_LARGE:
		return large_verdict(&s, h);
	default:	/* metadata in a provider buffer, unknown types */
		return FXT_RECORD_SKIP;
	}
}
