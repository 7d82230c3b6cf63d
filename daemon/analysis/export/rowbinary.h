/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rows in ClickHouse's RowBinary format, appended to a growing buffer:
 * integers little-endian, Float64 as its IEEE bytes, String as a LEB128
 * length and the bytes (any bytes: archive strings are data here, never
 * SQL), FixedString(N) as exactly N bytes, Array(T) as a LEB128 count and
 * the elements. A failed allocation sets oom once; the caller checks it
 * when the row is done.
 */
#ifndef FXT_EXPORT_ROWBINARY_H
#define FXT_EXPORT_ROWBINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rowbinary {
	uint8_t *data;
	size_t len, cap;
	bool oom;
};

/* Room for n more bytes: a pointer to write them at, or NULL (oom set). */
uint8_t *rowbinary_grow(struct rowbinary *b, size_t n);
void rowbinary_free(struct rowbinary *b);

static inline void rowbinary_reset(struct rowbinary *b)
{
	b->len = 0;
}

static inline void rowbinary_bytes(struct rowbinary *b, const void *p,
				   size_t n)
{
	uint8_t *w = b->len + n <= b->cap ? b->data + b->len :
					     rowbinary_grow(b, n);

	if (!w)
		return;
	memcpy(w, p, n);
	b->len += n;
}

/* The memory order of the integers is the format's. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "RowBinary is little-endian; add byte swaps for this target");

static inline void rowbinary_u8(struct rowbinary *b, uint8_t v)
{
	rowbinary_bytes(b, &v, 1);
}

static inline void rowbinary_u16(struct rowbinary *b, uint16_t v)
{
	rowbinary_bytes(b, &v, 2);
}

static inline void rowbinary_u32(struct rowbinary *b, uint32_t v)
{
	rowbinary_bytes(b, &v, 4);
}

static inline void rowbinary_u64(struct rowbinary *b, uint64_t v)
{
	rowbinary_bytes(b, &v, 8);
}

static inline void rowbinary_i64(struct rowbinary *b, int64_t v)
{
	rowbinary_bytes(b, &v, 8);
}

static inline void rowbinary_f64(struct rowbinary *b, double v)
{
	rowbinary_bytes(b, &v, 8);
}

/* The LEB128 length of a String or the count of an Array. */
static inline void rowbinary_varuint(struct rowbinary *b, uint64_t v)
{
	uint8_t buf[10];
	size_t n = 0;

	do {
		buf[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			buf[n] |= 0x80;
		n++;
	} while (v);
	rowbinary_bytes(b, buf, n);
}

static inline void rowbinary_string(struct rowbinary *b, const void *p,
				    size_t n)
{
	rowbinary_varuint(b, n);
	rowbinary_bytes(b, p, n);
}

static inline void rowbinary_cstring(struct rowbinary *b, const char *s)
{
	rowbinary_string(b, s, strlen(s));
}

#endif /* FXT_EXPORT_ROWBINARY_H */
