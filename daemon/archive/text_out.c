// SPDX-License-Identifier: GPL-2.0-only
/* Buffered text output: see text_out.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "text_out.h"
#include "utf8.h"

int text_out_init(struct text_out *o, int fd, size_t cap)
{
	if (cap < 4 * TEXT_OUT_MAX_PIECE)
		cap = 4 * TEXT_OUT_MAX_PIECE;
	o->buf = malloc(cap);
	if (!o->buf)
		return -ENOMEM;
	o->len = 0;
	o->cap = cap;
	o->fd = fd;
	o->err = 0;
	o->flushed = 0;
	return 0;
}

int text_out_flush(struct text_out *o)
{
	const char *p = o->buf;
	size_t left = o->len;

	/* Whatever happens, the buffer is free again: callers rely on room. */
	o->len = 0;
	while (left && !o->err) {
		ssize_t n = write(o->fd, p, left);

		if (n < 0) {
			if (errno != EINTR)
				o->err = -errno;
			continue;
		}
		p += n;
		left -= (size_t)n;
		o->flushed += (uint64_t)n;
	}
	return o->err;
}

int text_out_finish(struct text_out *o)
{
	text_out_flush(o);
	free(o->buf);
	o->buf = NULL;
	o->cap = 0;
	return o->err;
}

void text_put_mem_slow(struct text_out *o, const char *s, size_t n)
{
	for (;;) {
		size_t room = o->cap - o->len;

		if (n <= room) {
			memcpy(o->buf + o->len, s, n);
			o->len += n;
			return;
		}
		memcpy(o->buf + o->len, s, room);
		o->len += room;
		s += room;
		n -= room;
		text_out_flush(o);
	}
}

void text_put_printf(struct text_out *o, const char *fmt, ...)
{
	va_list ap;
	char *long_text;
	int n;

	text_reserve(o, TEXT_OUT_MAX_PIECE);
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < o->cap - o->len) {
		o->len += (size_t)n;
		return;
	}
	/* Longer than the room left: rare, formatted on the side. */
	va_start(ap, fmt);
	n = vasprintf(&long_text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		if (!o->err)
			o->err = -ENOMEM;
		return;
	}
	text_put_mem(o, long_text, (size_t)n);
	free(long_text);
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"68697071727374757677787980818283848586878889909192939495969798"
	"99";

static const uint64_t powers_of_10[20] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
	10000000000000000000ull,
};

/* log10 from log2 (x 1233/4096 ~ log10(2)), corrected by one compare. */
static inline size_t decimal_digits(uint64_t v)
{
	uint64_t x = v | 1;
	unsigned int t = (unsigned int)(64 - __builtin_clzll(x)) * 1233 >> 12;

	return t - (x < powers_of_10[t]) + 1;
}

size_t text_format_u64(char *p, uint64_t v)
{
	size_t n = decimal_digits(v);
	char *q = p + n;

	/* Written in place, back to front: no stores re-read as one load. */
	while (v >= 100) {
		unsigned int pair = (unsigned int)(v % 100) * 2;

		v /= 100;
		q -= 2;
		memcpy(q, digit_pairs + pair, 2);
	}
	if (v >= 10)
		memcpy(q - 2, digit_pairs + v * 2, 2);
	else
		q[-1] = (char)('0' + v);
	return n;
}

static const char hex_digits[] = "0123456789abcdef";

void text_put_hex(struct text_out *o, uint64_t v, unsigned int min_digits)
{
	char tmp[16];
	size_t n = 0;

	do {
		tmp[n++] = hex_digits[v & 0xf];
		v >>= 4;
	} while (v || n < min_digits);
	text_reserve(o, n + 2);
	o->buf[o->len++] = '0';
	o->buf[o->len++] = 'x';
	while (n)
		o->buf[o->len++] = tmp[--n];
}

/* \xNN for one byte; returns 4. */
static size_t hex_escape(char *dst, unsigned char c)
{
	dst[0] = '\\';
	dst[1] = 'x';
	dst[2] = hex_digits[c >> 4];
	dst[3] = hex_digits[c & 0xf];
	return 4;
}

size_t text_c_escape(char *dst, size_t dst_cap, const char *src, size_t len,
		     bool utf8_valid, size_t *consumed)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t in = 0, out = 0, n, k;

	for (; in < len; in += n) {
		unsigned char c = s[in];

		/* a character at a time: a code point is never cut */
		n = c < 0x80 || !utf8_valid ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		if (n > len - in)
			n = len - in;
		if (c == '"' || c == '\\' || c == '\n') {
			if (dst_cap - out < 2)
				break;
			dst[out++] = '\\';
			dst[out++] = c == '\n' ? 'n' : (char)c;
		} else if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8_valid) ||
			   (c == 0xc2 && n == 2 && s[in + 1] < 0xa0)) {
			/* C0, DEL, C1 (U+0080..U+009F), bytes of bad UTF-8 */
			if (dst_cap - out < 4 * n)
				break;
			for (k = 0; k < n; k++)
				out += hex_escape(dst + out, s[in + k]);
		} else {
			if (dst_cap - out < n)
				break;
			memcpy(dst + out, s + in, n);
			out += n;
		}
	}
	*consumed = in;
	return out;
}

void text_put_c_escaped(struct text_out *o, const char *s, size_t len,
			bool utf8_valid)
{
	while (len) {
		size_t consumed;

		text_reserve(o, TEXT_C_ESCAPE_MAX);
		o->len += text_c_escape(o->buf + o->len, o->cap - o->len, s,
					len, utf8_valid, &consumed);
		s += consumed;
		len -= consumed;
	}
}

void text_put_json_hex(struct text_out *o, uint64_t v)
{
	text_put_char(o, '"');
	text_put_hex(o, v, 1);
	text_put_char(o, '"');
}

/*
 * JSON has no NaN or infinity: those become strings. Integral values
 * print exactly as integers; others take the shortest of %.15g/%.17g
 * that reads back to the same double.
 */
void text_put_json_double(struct text_out *o, double v)
{
	char tmp[40];
	int n;

	if (isnan(v)) {
		text_put_lit(o, "\"NaN\"");
		return;
	}
	if (isinf(v)) {
		if (v < 0)
			text_put_lit(o, "\"-Infinity\"");
		else
			text_put_lit(o, "\"Infinity\"");
		return;
	}
	if (v == trunc(v) && fabs(v) < 1e15) {
		text_put_i64(o, (int64_t)v);
		return;
	}
	n = snprintf(tmp, sizeof(tmp), "%.15g", v);
	if (strtod(tmp, NULL) != v)
		n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	text_put_mem(o, tmp, (size_t)n);
}

/* Bytes that a run of plain characters cannot contain. */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline uint64_t special_bytes(uint64_t x)
{
	uint64_t quote = x ^ (ONES * '"');
	uint64_t bslash = x ^ (ONES * '\\');
	uint64_t below_space = (x - ONES * 0x20) & ~x;
	uint64_t is_quote = (quote - ONES) & ~quote;
	uint64_t is_bslash = (bslash - ONES) & ~bslash;

	/* Exact for "is there any": a byte < 0x20, '"', '\\' or >= 0x80. */
	return (below_space | is_quote | is_bslash | x) & HIGHS;
}

static inline int is_plain(unsigned char c)
{
	return text_json_plain_byte[c];
}

static size_t escape_ascii(char *dst, unsigned char c)
{
	if (c == '"' || c == '\\') {
		dst[0] = '\\';
		dst[1] = (char)c;
		return 2;
	}
	memcpy(dst, "\\u00", 4);
	dst[4] = hex_digits[c >> 4];
	dst[5] = hex_digits[c & 0xf];
	return 6;
}

size_t text_json_escape(char *dst, size_t dst_cap, const char *src,
			size_t len, size_t *consumed)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t in = 0, out = 0;

	while (in < len) {
		unsigned char c;
		int seq;

		/* Eight plain bytes at a time while there is room. */
		while (len - in >= 8 && dst_cap - out >= 8) {
			uint64_t x;

			memcpy(&x, s + in, 8);
			if (special_bytes(x))
				break;
			memcpy(dst + out, s + in, 8);
			in += 8;
			out += 8;
		}
		if (in == len)
			break;
		c = s[in];
		if (is_plain(c)) {
			if (out == dst_cap)
				break;
			dst[out++] = (char)c;
			in++;
			continue;
		}
		if (c < 0x80) {
			if (dst_cap - out < 6)
				break;
			out += escape_ascii(dst + out, c);
			in++;
			continue;
		}
		seq = fxt_utf8_sequence(src + in, len - in);
		if (seq > 0) {
			if (dst_cap - out < (size_t)seq)
				break;
			memcpy(dst + out, s + in, (size_t)seq);
			out += (size_t)seq;
			in += (size_t)seq;
		} else {
			if (dst_cap - out < 3)
				break;
			memcpy(dst + out, "\xef\xbf\xbd", 3);
			out += 3;
			in += (size_t)-seq;
		}
	}
	*consumed = in;
	return out;
}

void text_put_json_part(struct text_out *o, const char *s, size_t len)
{
	while (len) {
		size_t consumed;

		/* Room for the longest escaped code point: progress. */
		text_reserve(o, 6);
		o->len += text_json_escape(o->buf + o->len, o->cap - o->len, s,
					   len, &consumed);
		s += consumed;
		len -= consumed;
	}
}

/* 1 for bytes that stand for themselves inside a JSON string. */
const uint8_t text_json_plain_byte[256] = {
	[0x20 ... 0x21] = 1,	/* '"' is 0x22 */
	[0x23 ... 0x5b] = 1,	/* '\\' is 0x5c */
	[0x5d ... 0x7f] = 1,
};

void text_put_json_string_slow(struct text_out *o, const char *s, size_t len)
{
	text_put_char(o, '"');
	text_put_json_part(o, s, len);
	text_put_char(o, '"');
}
