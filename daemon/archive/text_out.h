/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Buffered text output for tracectl dump and the JSON converter: one big
 * buffer flushed with write(2), integers formatted by hand, strings
 * escaped as JSON or as C-style text. Big outputs are bound by formatting.
 *
 * Errors are sticky: after a failed write nothing more is written and
 * text_out_flush()/text_out_finish() return the first -errno.
 */
#ifndef FXT_TEXT_OUT_H
#define FXT_TEXT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* text_reserve() guarantees at most this much room. */
#define TEXT_OUT_MAX_PIECE 256u

struct text_out {
	char *buf;
	size_t len;
	size_t cap;
	int fd;
	int err;		/* first -errno of write(2), sticky */
	uint64_t flushed;	/* bytes handed to write(2) */
};

int text_out_init(struct text_out *o, int fd, size_t cap);
/* Writes out the buffer; returns 0 or the first -errno. */
int text_out_flush(struct text_out *o);
/* Flushes and frees the buffer; returns 0 or the first -errno. */
int text_out_finish(struct text_out *o);

/* Room for n <= TEXT_OUT_MAX_PIECE bytes at buf + len. */
static inline void text_reserve(struct text_out *o, size_t n)
{
	if (o->cap - o->len < n)
		text_out_flush(o);
}

void text_put_mem_slow(struct text_out *o, const char *s, size_t n);

/* Raw bytes, any number of them. */
static inline void text_put_mem(struct text_out *o, const char *s, size_t n)
{
	if (o->cap - o->len < n) {
		text_put_mem_slow(o, s, n);
		return;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

#define text_put_lit(o, s) text_put_mem((o), (s), sizeof(s) - 1)

static inline void text_put_str(struct text_out *o, const char *s)
{
	text_put_mem(o, s, strlen(s));
}

static inline void text_put_char(struct text_out *o, char c)
{
	text_reserve(o, 1);
	o->buf[o->len++] = c;
}

__attribute__((format(printf, 2, 3)))
void text_put_printf(struct text_out *o, const char *fmt, ...);

/* Writes the decimal digits of v at p; returns their count (1..20). */
size_t text_format_u64(char *p, uint64_t v);

static inline void text_put_u64(struct text_out *o, uint64_t v)
{
	text_reserve(o, 20);
	o->len += text_format_u64(o->buf + o->len, v);
}

static inline void text_put_i64(struct text_out *o, int64_t v)
{
	text_reserve(o, 21);
	if (v < 0) {
		o->buf[o->len++] = '-';
		o->len += text_format_u64(o->buf + o->len, -(uint64_t)v);
		return;
	}
	o->len += text_format_u64(o->buf + o->len, (uint64_t)v);
}

/*
 * v thousandths with exactly three decimals, by integer arithmetic:
 * 1234567 -> 1234.567 (nanoseconds as microseconds, no rounding).
 */
static inline void text_put_thousandths(struct text_out *o, uint64_t v)
{
	uint64_t frac = v % 1000;

	text_reserve(o, 24);
	o->len += text_format_u64(o->buf + o->len, v / 1000);
	o->buf[o->len++] = '.';
	o->buf[o->len++] = (char)('0' + frac / 100);
	o->buf[o->len++] = (char)('0' + frac / 10 % 10);
	o->buf[o->len++] = (char)('0' + frac % 10);
}

/* "0x" and at least min_digits lowercase hex digits, zero-padded. */
void text_put_hex(struct text_out *o, uint64_t v, unsigned int min_digits);

/*
 * The one escape of text from an input (an archive, a provider) for a
 * terminal, for output and diagnostics alike: the inside of a C-style
 * quoted string. '"', '\\' and '\n' are backslashed; other control
 * characters (C0, DEL, and C1: U+0080..U+009F) become \xNN per byte, and
 * so do all bytes >= 0x80 unless the caller knows s is valid UTF-8.
 *
 * text_c_escape() writes the escaped src[0..len) into dst, stopping
 * before a character whose escaped form would not fit in dst_cap (a
 * code point is never cut); returns the bytes written, with the input
 * bytes used in *consumed.
 */
size_t text_c_escape(char *dst, size_t dst_cap, const char *src, size_t len,
		     bool utf8_valid, size_t *consumed);
/* The longest escaped form of one character (C1: \xc2\x9b). */
#define TEXT_C_ESCAPE_MAX 8u
void text_put_c_escaped(struct text_out *o, const char *s, size_t len,
			bool utf8_valid);

/* ---- JSON --------------------------------------------------------------- */

/*
 * Escapes src[0..len) as the inside of a JSON string into dst, stopping
 * before a code point whose escaped form would not fit in dst_cap.
 * Control characters become \u00XX, '"' and '\\' are backslashed, each
 * maximal invalid UTF-8 subsequence becomes U+FFFD. Returns the bytes
 * written; *consumed gets the input bytes used (always whole code points).
 */
size_t text_json_escape(char *dst, size_t dst_cap, const char *src,
			size_t len, size_t *consumed);

extern const uint8_t text_json_plain_byte[256];
void text_put_json_string_slow(struct text_out *o, const char *s, size_t len);

/* A quoted, escaped JSON string of any length. */
static inline void text_put_json_string(struct text_out *o, const char *s,
					size_t len)
{
	char *p = o->buf + o->len;
	size_t i;

	/* Most strings are short names with nothing to escape. */
	if (len > 64 || o->cap - o->len < len + 2)
		goto slow;
	for (i = 0; i < len; i++)
		if (!text_json_plain_byte[(unsigned char)s[i]])
			goto slow;
	p[0] = '"';
	memcpy(p + 1, s, len);
	p[len + 1] = '"';
	o->len += len + 2;
	return;
slow:
	text_put_json_string_slow(o, s, len);
}

/* The escaped inside of a JSON string, for strings written in pieces. */
void text_put_json_part(struct text_out *o, const char *s, size_t len);
/* "0x" and lowercase hex digits, quoted: for pointers and ids. */
void text_put_json_hex(struct text_out *o, uint64_t v);
void text_put_json_double(struct text_out *o, double v);

#endif /* FXT_TEXT_OUT_H */
