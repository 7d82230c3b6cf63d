/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Userspace encoding of the FXT parts libprovider and the daemon's writer
 * both write: padded byte streams and arguments (layout: fxt.h).
 */
#ifndef FXT_ENCODE_H
#define FXT_ENCODE_H

#include <stdint.h>
#include <string.h>

#include <fxt/fxt.h>
#include <fxt/provider_args.h>

/* A byte stream padded with zeros to whole words; returns the next word. */
static inline uint64_t *fxt_encode_stream(uint64_t *p, const void *data,
					  uint32_t len)
{
	uint32_t words = fxt_words(len);

	if (!words)
		return p;
	p[words - 1] = 0;
	memcpy(p, data, len);
	return p + words;
}

/* The bytes of an inline string ref; nothing for a table index. */
static inline uint64_t *fxt_encode_ref_stream(uint64_t *p, uint16_t ref,
					      const char *s)
{
	if (!fxt_string_ref_is_inline(ref))
		return p;
	return fxt_encode_stream(p, s, ref & FXT_STRING_INDEX_MAX);
}

/*
 * Writes one argument whose refs are resolved (a known type; name_ref,
 * and value_ref for a string) in words words, fxt_arg_words() of them;
 * returns the word after it.
 */
static inline uint64_t *fxt_encode_arg(uint64_t *p, const struct fxt_arg_in *a,
				       uint32_t words)
{
	uint32_t value32 = 0;

	switch (a->type) {
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
		value32 = (uint32_t)a->v.u64;
		break;
	case FXT_ARG_BOOL:
		value32 = a->v.u64 != 0;
		break;
	case FXT_ARG_STRING:
		value32 = a->value_ref;
		break;
	default:
		break;
	}
	*p++ = fxt_arg_header(a->type, words, a->name_ref, value32);
	p = fxt_encode_ref_stream(p, a->name_ref, a->name);
	switch (a->type) {
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
	case FXT_ARG_POINTER:
	case FXT_ARG_KOID:
		*p++ = a->v.u64;
		break;
	case FXT_ARG_STRING:
		p = fxt_encode_ref_stream(p, a->value_ref, a->v.str);
		break;
	default:
		break;
	}
	return p;
}

#endif /* FXT_ENCODE_H */
