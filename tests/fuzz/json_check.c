// SPDX-License-Identifier: GPL-2.0-only
/* A recursive-descent JSON validator; see json_check.h. */
#include <stdbool.h>
#include <stdint.h>

#include "json_check.h"

/* The converter nests a few levels; anything deeper is a bug there. */
#define JSON_MAX_DEPTH 64

struct parser {
	const unsigned char *p;
	const unsigned char *end;
	const char *error;
};

static bool fail(struct parser *ps, const char *why)
{
	if (!ps->error)
		ps->error = why;
	return false;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool parse_hex4(struct parser *ps, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	if (ps->end - ps->p < 4)
		return fail(ps, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		int h = hex_value(ps->p[i]);

		if (h < 0)
			return fail(ps, "bad hex digit in \\u escape");
		v = v << 4 | (unsigned int)h;
	}
	ps->p += 4;
	*out = v;
	return true;
}

/* \uXXXX, with surrogates only as a high+low pair. */
static bool parse_unicode_escape(struct parser *ps)
{
	unsigned int cp, low;

	if (!parse_hex4(ps, &cp))
		return false;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, "lone low surrogate escape");
	if (cp < 0xd800 || cp > 0xdbff)
		return true;
	if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
		return fail(ps, "high surrogate escape without low one");
	ps->p += 2;
	if (!parse_hex4(ps, &low))
		return false;
	if (low < 0xdc00 || low > 0xdfff)
		return fail(ps, "high surrogate escape without low one");
	return true;
}

static bool parse_escape(struct parser *ps)
{
	unsigned char c;

	if (ps->p == ps->end)
		return fail(ps, "truncated escape");
	c = *ps->p++;
	switch (c) {
	case '"': case '\\': case '/': case 'b': case 'f': case 'n':
	case 'r': case 't':
		return true;
	case 'u':
		return parse_unicode_escape(ps);
	}
	return fail(ps, "unknown escape");
}

/* One UTF-8 sequence starting at a byte >= 0x80 (RFC 3629 table). */
static bool parse_utf8(struct parser *ps)
{
	unsigned char c = *ps->p;
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (c >= 0xc2 && c <= 0xdf) {
		n = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		return fail(ps, "invalid UTF-8 lead byte");
	}
	if (ps->end - ps->p <= n)
		return fail(ps, "truncated UTF-8 sequence");
	for (i = 1; i <= n; i++) {
		unsigned char b = ps->p[i];

		if (b < lo || b > hi)
			return fail(ps, "invalid UTF-8 continuation byte");
		lo = 0x80;
		hi = 0xbf;
	}
	ps->p += n + 1;
	return true;
}

static bool parse_string(struct parser *ps)
{
	ps->p++;	/* the opening quote */
	while (ps->p < ps->end) {
		unsigned char c = *ps->p;

		if (c == '"') {
			ps->p++;
			return true;
		}
		if (c < 0x20)
			return fail(ps, "raw control character in string");
		if (c == '\\') {
			ps->p++;
			if (!parse_escape(ps))
				return false;
		} else if (c >= 0x80) {
			if (!parse_utf8(ps))
				return false;
		} else {
			ps->p++;
		}
	}
	return fail(ps, "unterminated string");
}

static bool parse_digits(struct parser *ps)
{
	if (ps->p == ps->end || !is_digit(*ps->p))
		return fail(ps, "digit expected in number");
	while (ps->p < ps->end && is_digit(*ps->p))
		ps->p++;
	return true;
}

static bool parse_number(struct parser *ps)
{
	if (*ps->p == '-')
		ps->p++;
	if (ps->p == ps->end)
		return fail(ps, "truncated number");
	if (*ps->p == '0') {
		ps->p++;
		if (ps->p < ps->end && is_digit(*ps->p))
			return fail(ps, "leading zero in number");
	} else if (!parse_digits(ps)) {
		return false;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (!parse_digits(ps))
			return false;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!parse_digits(ps))
			return false;
	}
	return true;
}

static bool parse_literal(struct parser *ps, const char *lit)
{
	while (*lit) {
		if (ps->p == ps->end || *ps->p != (unsigned char)*lit)
			return fail(ps, "invalid literal");
		ps->p++;
		lit++;
	}
	return true;
}

static bool parse_value(struct parser *ps, unsigned int depth);

/* Members or elements up to close; object members are "key": value. */
static bool parse_container(struct parser *ps, unsigned int depth,
			    bool object)
{
	char close = object ? '}' : ']';

	if (depth >= JSON_MAX_DEPTH)
		return fail(ps, "nesting too deep");
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return true;
	}
	for (;;) {
		skip_space(ps);
		if (object) {
			if (ps->p == ps->end || *ps->p != '"')
				return fail(ps, "object key expected");
			if (!parse_string(ps))
				return false;
			skip_space(ps);
			if (ps->p == ps->end || *ps->p != ':')
				return fail(ps, "':' expected after key");
			ps->p++;
		}
		if (!parse_value(ps, depth + 1))
			return false;
		skip_space(ps);
		if (ps->p == ps->end)
			return fail(ps, "unterminated object or array");
		if (*ps->p == close) {
			ps->p++;
			return true;
		}
		if (*ps->p != ',')
			return fail(ps, "',' expected between members");
		ps->p++;
	}
}

static bool parse_value(struct parser *ps, unsigned int depth)
{
	skip_space(ps);
	if (ps->p == ps->end)
		return fail(ps, "value expected");
	switch (*ps->p) {
	case '{':
		return parse_container(ps, depth, true);
	case '[':
		return parse_container(ps, depth, false);
	case '"':
		return parse_string(ps);
	case 't':
		return parse_literal(ps, "true");
	case 'f':
		return parse_literal(ps, "false");
	case 'n':
		return parse_literal(ps, "null");
	}
	if (*ps->p == '-' || is_digit(*ps->p))
		return parse_number(ps);
	return fail(ps, "unexpected character");
}

const char *json_check(const char *text, size_t len, size_t *error_offset)
{
	struct parser ps = {
		.p = (const unsigned char *)text,
		.end = (const unsigned char *)text + len,
	};

	if (parse_value(&ps, 0)) {
		skip_space(&ps);
		if (ps.p != ps.end)
			fail(&ps, "text after the document");
	}
	if (ps.error && error_offset)
		*error_offset = (size_t)(ps.p - (const unsigned char *)text);
	return ps.error;
}
