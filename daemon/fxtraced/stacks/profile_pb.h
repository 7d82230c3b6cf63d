/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small protobuf encoder: varints, length-delimited fields, nested
 * messages whose length is patched at their end (written as a 4-byte
 * redundant varint, as protozero does: decoders accept it). Errors stick
 * (pb_error()); the bytes are then not to be used.
 */
#ifndef FXT_PROFILE_PB_H
#define FXT_PROFILE_PB_H

#include <stddef.h>
#include <stdint.h>

#include <fxt/perfetto.h>

#define PB_DEPTH_MAX 8u
/* A nested message holds at most this many bytes (4 varint bytes). */
#define PB_NESTED_MAX FXT_PB_LEN4_MAX

struct pb {
	uint8_t *buf;
	size_t len, cap;
	size_t open[PB_DEPTH_MAX]; /* where each open message's length is */
	unsigned int depth;
	int err;
};

void pb_init(struct pb *b);
void pb_release(struct pb *b);
static inline int pb_error(const struct pb *b)
{
	return b->err;
}

void pb_varint(struct pb *b, uint64_t v);
void pb_uint(struct pb *b, uint32_t field, uint64_t v);
void pb_bytes(struct pb *b, uint32_t field, const void *data, size_t len);
void pb_string(struct pb *b, uint32_t field, const char *s);
void pb_begin(struct pb *b, uint32_t field);
void pb_end(struct pb *b);
/* Drops the first n bytes (already handed out). */
void pb_consume(struct pb *b, size_t n);

#endif /* FXT_PROFILE_PB_H */
