// SPDX-License-Identifier: GPL-2.0-only
/* Buffered JSON output: see json_writer.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "json_writer.h"

int json_writer_init(struct json_writer *w, int fd, size_t cap)
{
	if (cap < 4 * JSON_WRITER_MAX_PIECE)
		cap = 4 * JSON_WRITER_MAX_PIECE;
	w->buf = malloc(cap);
	if (!w->buf)
		return -ENOMEM;
	w->len = 0;
	w->cap = cap;
	w->fd = fd;
	w->err = 0;
	w->flushed = 0;
	return 0;
}

void json_writer_flush(struct json_writer *w)
{
	const char *p = w->buf;
	size_t left = w->len;

	/* Whatever happens, the buffer is free again: callers rely on room. */
	w->len = 0;
	if (w->err)
		return;
	while (left) {
		ssize_t n = write(w->fd, p, left);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			w->err = -errno;
			return;
		}
		p += n;
		left -= (size_t)n;
		w->flushed += (uint64_t)n;
	}
}

int json_writer_finish(struct json_writer *w)
{
	json_writer_flush(w);
	free(w->buf);
	w->buf = NULL;
	w->cap = 0;
	return w->err;
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

size_t json_format_u64(char *p, uint64_t v)
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

void json_put_hex_string(struct json_writer *w, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	size_t n = 0;

	do {
		tmp[n++] = hex[v & 0xf];
		v >>= 4;
	} while (v);
	json_reserve(w, n + 4);
	w->buf[w->len++] = '"';
	w->buf[w->len++] = '0';
	w->buf[w->len++] = 'x';
	while (n)
		w->buf[w->len++] = tmp[--n];
	w->buf[w->len++] = '"';
}

/*
 * JSON has no NaN or infinity: those become strings. Integral values
 * print exactly as integers; others take the shortest of %.15g/%.17g
 * that reads back to the same double.
 */
void json_put_double(struct json_writer *w, double v)
{
	char tmp[40];
	int n;

	if (isnan(v)) {
		json_put_lit(w, "\"NaN\"");
		return;
	}
	if (isinf(v)) {
		if (v < 0)
			json_put_lit(w, "\"-Infinity\"");
		else
			json_put_lit(w, "\"Infinity\"");
		return;
	}
	if (v == trunc(v) && fabs(v) < 1e15) {
		json_put_i64(w, (int64_t)v);
		return;
	}
	n = snprintf(tmp, sizeof(tmp), "%.15g", v);
	if (strtod(tmp, NULL) != v)
		n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	json_put_raw(w, tmp, (size_t)n);
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
	return json_plain_byte[c];
}

/*
 * Length of the UTF-8 sequence at s (1..4) if valid, else the length of
 * its maximal invalid subpart (>= 1) as a negative number (Unicode 3.9,
 * "U+FFFD substitution of maximal subparts").
 */
static int utf8_sequence(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	int need, i;

	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		return -1;
	}
	for (i = 1; i <= need; i++) {
		if ((size_t)i >= len || s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return need + 1;
}

static size_t escape_ascii(char *dst, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";

	if (c == '"' || c == '\\') {
		dst[0] = '\\';
		dst[1] = (char)c;
		return 2;
	}
	memcpy(dst, "\\u00", 4);
	dst[4] = hex[c >> 4];
	dst[5] = hex[c & 0xf];
	return 6;
}

size_t json_escape(char *dst, size_t dst_cap, const char *src, size_t len,
		   size_t *consumed)
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
		seq = utf8_sequence(s + in, len - in);
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

void json_put_string_part(struct json_writer *w, const char *s, size_t len)
{
	while (len) {
		size_t consumed;

		/* Room for the longest escaped code point: progress. */
		json_reserve(w, 6);
		w->len += json_escape(w->buf + w->len, w->cap - w->len, s, len,
				      &consumed);
		s += consumed;
		len -= consumed;
	}
}

/* 1 for bytes that stand for themselves inside a JSON string. */
const uint8_t json_plain_byte[256] = {
	[0x20 ... 0x21] = 1,	/* '"' is 0x22 */
	[0x23 ... 0x5b] = 1,	/* '\\' is 0x5c */
	[0x5d ... 0x7f] = 1,
};

void json_put_string_slow(struct json_writer *w, const char *s, size_t len)
{
	json_put_char(w, '"');
	json_put_string_part(w, s, len);
	json_put_char(w, '"');
}
