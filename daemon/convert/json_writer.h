/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Buffered JSON text output for the converter: one big buffer flushed with
 * write(2), integers formatted by hand, strings escaped so that the output
 * is valid JSON whatever bytes the input held.
 *
 * Errors are sticky: after a failed write every call is a no-op and
 * json_writer_finish() returns the first -errno.
 */
#ifndef FXT_JSON_WRITER_H
#define FXT_JSON_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Fixed-size pieces (numbers, punctuation) never exceed this. */
#define JSON_WRITER_MAX_PIECE 256u

struct json_writer {
	char *buf;
	size_t len;
	size_t cap;
	int fd;
	int err;		/* first -errno of write(2), sticky */
	uint64_t flushed;	/* bytes handed to write(2) */
};

int json_writer_init(struct json_writer *w, int fd, size_t cap);
/* Flushes; returns 0 or the first -errno. Frees the buffer. */
int json_writer_finish(struct json_writer *w);
void json_writer_flush(struct json_writer *w);

/*
 * Escapes src[0..len) as the inside of a JSON string into dst, stopping
 * before a code point whose escaped form would not fit in dst_cap.
 * Control characters become \u00XX, '"' and '\\' are backslashed, each
 * maximal invalid UTF-8 subsequence becomes U+FFFD. Returns the bytes
 * written; *consumed gets the input bytes used (always whole code points).
 */
size_t json_escape(char *dst, size_t dst_cap, const char *src, size_t len,
		   size_t *consumed);

extern const uint8_t json_plain_byte[256];
void json_put_string_slow(struct json_writer *w, const char *s, size_t len);

/* A quoted, escaped string of any length. */
static inline void json_put_string(struct json_writer *w, const char *s,
				   size_t len)
{
	char *p = w->buf + w->len;
	size_t i;

	/* Most strings are short names with nothing to escape. */
	if (len > 64 || w->cap - w->len < len + 2)
		goto slow;
	for (i = 0; i < len; i++)
		if (!json_plain_byte[(unsigned char)s[i]])
			goto slow;
	p[0] = '"';
	memcpy(p + 1, s, len);
	p[len + 1] = '"';
	w->len += len + 2;
	return;
slow:
	json_put_string_slow(w, s, len);
}
/* The escaped inside of a string, for strings written in pieces. */
void json_put_string_part(struct json_writer *w, const char *s, size_t len);
void json_put_double(struct json_writer *w, double v);

static inline void json_reserve(struct json_writer *w, size_t n)
{
	if (w->cap - w->len < n)
		json_writer_flush(w);
}

/* Raw bytes, at most JSON_WRITER_MAX_PIECE of them. */
static inline void json_put_raw(struct json_writer *w, const char *s,
				size_t n)
{
	json_reserve(w, n);
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

#define json_put_lit(w, s) json_put_raw((w), (s), sizeof(s) - 1)

static inline void json_put_char(struct json_writer *w, char c)
{
	json_reserve(w, 1);
	w->buf[w->len++] = c;
}

/* Writes the decimal digits of v at p; returns their count (1..20). */
size_t json_format_u64(char *p, uint64_t v);

static inline void json_put_u64(struct json_writer *w, uint64_t v)
{
	json_reserve(w, 20);
	w->len += json_format_u64(w->buf + w->len, v);
}

static inline void json_put_i64(struct json_writer *w, int64_t v)
{
	json_reserve(w, 21);
	if (v < 0) {
		w->buf[w->len++] = '-';
		w->len += json_format_u64(w->buf + w->len, -(uint64_t)v);
		return;
	}
	w->len += json_format_u64(w->buf + w->len, (uint64_t)v);
}

/* "0x" and lowercase hex digits, quoted: for pointers and ids. */
void json_put_hex_string(struct json_writer *w, uint64_t v);

/*
 * Nanoseconds as microseconds with exactly three decimals, by integer
 * arithmetic: 1234567 -> 1234.567 (no floating point rounding).
 */
static inline void json_put_us(struct json_writer *w, uint64_t ns)
{
	uint64_t frac = ns % 1000;

	json_reserve(w, 24);
	w->len += json_format_u64(w->buf + w->len, ns / 1000);
	w->buf[w->len++] = '.';
	w->buf[w->len++] = (char)('0' + frac / 100);
	w->buf[w->len++] = (char)('0' + frac / 10 % 10);
	w->buf[w->len++] = (char)('0' + frac % 10);
}

#endif /* FXT_JSON_WRITER_H */
