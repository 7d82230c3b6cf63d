// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/perfetto.h>

#include "profile_pb.h"

void pb_init(struct pb *b)
{
	memset(b, 0, sizeof(*b));
}

void pb_release(struct pb *b)
{
	free(b->buf);
	pb_init(b);
}

static uint8_t *pb_room(struct pb *b, size_t n)
{
	uint8_t *p;
	size_t cap;

	if (b->err)
		return NULL;
	if (b->len + n > b->cap) {
		cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n)
			cap *= 2;
		p = realloc(b->buf, cap);
		if (!p) {
			b->err = -ENOMEM;
			return NULL;
		}
		b->buf = p;
		b->cap = cap;
	}
	p = b->buf + b->len;
	b->len += n;
	return p;
}

void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t tmp[FXT_PB_VARINT_MAX];
	size_t n = fxt_pb_put_varint(tmp, v);
	uint8_t *p;

	p = pb_room(b, n);
	if (p)
		memcpy(p, tmp, n);
}

static void pb_tag(struct pb *b, uint32_t field, enum fxt_pb_wire wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb *b, uint32_t field, uint64_t v)
{
	pb_tag(b, field, FXT_PB_VARINT);
	pb_varint(b, v);
}

void pb_bytes(struct pb *b, uint32_t field, const void *data, size_t len)
{
	uint8_t *p;

	pb_tag(b, field, FXT_PB_LEN);
	pb_varint(b, len);
	p = pb_room(b, len);
	if (p && len)
		memcpy(p, data, len);
}

void pb_string(struct pb *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

void pb_begin(struct pb *b, uint32_t field)
{
	if (b->depth == PB_DEPTH_MAX) {
		b->err = b->err ? b->err : -E2BIG;
		return;
	}
	pb_tag(b, field, FXT_PB_LEN);
	if (!pb_room(b, FXT_PB_LEN4_BYTES))
		return;
	b->open[b->depth++] = b->len - FXT_PB_LEN4_BYTES;
}

void pb_end(struct pb *b)
{
	size_t at, n;

	if (b->err || !b->depth)
		return;
	at = b->open[--b->depth];
	n = b->len - at - FXT_PB_LEN4_BYTES;
	if (n > PB_NESTED_MAX) {
		b->err = -E2BIG;
		return;
	}
	fxt_pb_put_len4(b->buf + at, (uint32_t)n);
}

void pb_consume(struct pb *b, size_t n)
{
	if (n > b->len || b->depth)
		return;
	memmove(b->buf, b->buf + n, b->len - n);
	b->len -= n;
}
