// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text output of tracectl dump and convert: JSON string escaping
 * (every control character, quotes, backslash, each kind of invalid
 * UTF-8), C-style escaping, integer, timestamp, hex and double
 * formatting, formatted and long pieces, buffer flushing.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "text_out.h"

/* Escapes in one go into a big enough buffer; returns a static string. */
static const char *escape(const char *s, size_t len)
{
	static char out[4096];
	size_t consumed, n;

	n = text_json_escape(out, sizeof(out) - 1, s, len, &consumed);
	assert_int_equal(consumed, len);
	out[n] = '\0';
	return out;
}

#define ESC(lit) escape((lit), sizeof(lit) - 1)

static void test_plain_ascii_is_copied(void **state)
{
	assert_string_equal(ESC("hello, world"), "hello, world");
	assert_string_equal(ESC("0123456789abcdefghijklmnopqrstuvwxyz"),
			    "0123456789abcdefghijklmnopqrstuvwxyz");
	assert_string_equal(ESC(""), "");
}

static void test_quote_and_backslash(void **state)
{
	assert_string_equal(ESC("a\"b\\c"), "a\\\"b\\\\c");
	/* In the middle of an eight-byte run too. */
	assert_string_equal(ESC("abcdefg\"hijklmn\\o"),
			    "abcdefg\\\"hijklmn\\\\o");
}

static void test_every_control_character(void **state)
{
	char in[1], want[8];
	unsigned int c;

	for (c = 0; c < 0x20; c++) {
		in[0] = (char)c;
		snprintf(want, sizeof(want), "\\u%04x", c);
		assert_string_equal(escape(in, 1), want);
	}
	assert_string_equal(ESC("a\nb\tc\x7f"), "a\\u000ab\\u0009c\x7f");
}

static void test_valid_utf8_is_kept(void **state)
{
	/* 2, 3 and 4 byte sequences, including the edges of each range. */
	assert_string_equal(ESC("caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(ESC("\xc2\x80\xdf\xbf"), "\xc2\x80\xdf\xbf");
	assert_string_equal(ESC("\xe0\xa0\x80\xef\xbf\xbf"),
			    "\xe0\xa0\x80\xef\xbf\xbf");
	assert_string_equal(ESC("\xed\x9f\xbf"), "\xed\x9f\xbf");
	assert_string_equal(ESC("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"),
			    "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
}

#define FFFD "\xef\xbf\xbd"

static void test_invalid_utf8_becomes_replacement(void **state)
{
	/* Lone continuation, impossible bytes. */
	assert_string_equal(ESC("a\x80z"), "a" FFFD "z");
	assert_string_equal(ESC("\xfe\xff"), FFFD FFFD);
	assert_string_equal(ESC("\xf5\x80"), FFFD FFFD);
	/* Overlong forms. */
	assert_string_equal(ESC("\xc0\xaf"), FFFD FFFD);
	assert_string_equal(ESC("\xe0\x80\xaf"), FFFD FFFD FFFD);
	assert_string_equal(ESC("\xf0\x80\x80\xaf"), FFFD FFFD FFFD FFFD);
	/* UTF-16 surrogates and code points past U+10FFFF. */
	assert_string_equal(ESC("\xed\xa0\x80"), FFFD FFFD FFFD);
	assert_string_equal(ESC("\xf4\x90\x80\x80"), FFFD FFFD FFFD FFFD);
	/* A truncated sequence is one maximal subpart: one U+FFFD. */
	assert_string_equal(ESC("\xe2\x82"), FFFD);
	assert_string_equal(ESC("\xe2\x82z"), FFFD "z");
	assert_string_equal(ESC("\xf0\x9f\x98"), FFFD);
	/* A control character right after a broken sequence. */
	assert_string_equal(ESC("\xc3\n"), FFFD "\\u000a");
}

/* The output never splits a code point and always makes progress. */
static void test_small_destination_stops_at_code_points(void **state)
{
	const char in[] = "ab\xc3\xa9\n\"";
	char out[64];
	size_t consumed, n;

	n = text_json_escape(out, 3, in, sizeof(in) - 1, &consumed);
	assert_int_equal(n, 2);
	assert_int_equal(consumed, 2);
	n = text_json_escape(out, 6, in + 2, sizeof(in) - 3, &consumed);
	assert_int_equal(n, 2);			/* é, then \u000a won't fit */
	assert_int_equal(consumed, 2);
	n = text_json_escape(out, 6, in + 4, sizeof(in) - 5, &consumed);
	assert_int_equal(n, 6);
	assert_int_equal(consumed, 1);
	assert_memory_equal(out, "\\u000a", 6);
}

static void test_u64_formatting(void **state)
{
	static const uint64_t values[] = {
		0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 123456789,
		4294967295ull, 4294967296ull, 9007199254740993ull,
		10000000000000000000ull, UINT64_MAX,
	};
	char got[32], want[32];
	size_t i, n;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		n = text_format_u64(got, values[i]);
		got[n] = '\0';
		snprintf(want, sizeof(want), "%llu",
			 (unsigned long long)values[i]);
		assert_string_equal(got, want);
	}
}

/* A writer to a pipe; returns what it wrote. */
struct capture {
	int fds[2];
	struct text_out w;
	char text[1 << 16];
};

static void capture_start(struct capture *c, size_t cap)
{
	assert_int_equal(pipe(c->fds), 0);
	assert_int_equal(text_out_init(&c->w, c->fds[1], cap), 0);
}

static const char *capture_end(struct capture *c)
{
	ssize_t n;

	assert_int_equal(text_out_finish(&c->w), 0);
	close(c->fds[1]);
	n = read(c->fds[0], c->text, sizeof(c->text) - 1);
	assert_true(n >= 0);
	c->text[n] = '\0';
	close(c->fds[0]);
	return c->text;
}

static void test_numbers_and_timestamps(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	capture_start(c, 0);
	text_put_i64(&c->w, INT64_MIN);
	text_put_char(&c->w, ' ');
	text_put_i64(&c->w, -5);
	text_put_char(&c->w, ' ');
	text_put_thousandths(&c->w, 1234567);	/* ns */
	text_put_char(&c->w, ' ');
	text_put_thousandths(&c->w, 5);
	text_put_char(&c->w, ' ');
	text_put_thousandths(&c->w, UINT64_MAX);
	text_put_char(&c->w, ' ');
	text_put_json_hex(&c->w, 0xdeadbeef);
	text_put_char(&c->w, ' ');
	text_put_json_hex(&c->w, 0);
	assert_string_equal(capture_end(c),
			    "-9223372036854775808 -5 1234.567 0.005 "
			    "18446744073709551.615 \"0xdeadbeef\" \"0x0\"");
	free(c);
}

static void test_doubles(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	capture_start(c, 0);
	text_put_json_double(&c->w, 1.5);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, 0.1);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, -3);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, 1e300);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, NAN);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, INFINITY);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, -INFINITY);
	text_put_char(&c->w, ' ');
	text_put_json_double(&c->w, 1.0 / 3);
	assert_string_equal(capture_end(c),
			    "1.5 0.1 -3 1e+300 \"NaN\" \"Infinity\" "
			    "\"-Infinity\" 0.33333333333333331");
	free(c);
}

/* Strings longer than the buffer go out in pieces, whole code points. */
static void test_long_string_through_small_buffer(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));
	char in[5000], *want, *p;
	size_t i;

	for (i = 0; i < sizeof(in); i += 5)
		memcpy(in + i, "\xc3\xa9\n\x01\"", 5);
	want = malloc(sizeof(in) / 5 * 16 + 3);
	p = want;
	*p++ = '"';
	for (i = 0; i < sizeof(in); i += 5) {
		memcpy(p, "\xc3\xa9\\u000a\\u0001\\\"", 16);
		p += 16;
	}
	*p++ = '"';
	*p = '\0';
	capture_start(c, 1024);
	text_put_json_string(&c->w, in, sizeof(in));
	assert_string_equal(capture_end(c), want);
	free(want);
	free(c);
}

static void test_hex_padding(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	capture_start(c, 0);
	text_put_hex(&c->w, 0x1f, 8);
	text_put_char(&c->w, ' ');
	text_put_hex(&c->w, 0x123456789ull, 8);
	text_put_char(&c->w, ' ');
	text_put_hex(&c->w, UINT64_MAX, 1);
	assert_string_equal(capture_end(c),
			    "0x0000001f 0x123456789 0xffffffffffffffff");
	free(c);
}

static void test_c_escaped(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	capture_start(c, 0);
	text_put_c_escaped(&c->w, "a\"b\\c\nd\te\x7f", 10, true);
	text_put_char(&c->w, ' ');
	/* Valid UTF-8 is kept as such; otherwise high bytes are escaped. */
	text_put_c_escaped(&c->w, "caf\xc3\xa9", 5, true);
	text_put_char(&c->w, ' ');
	text_put_c_escaped(&c->w, "caf\xc3\xa9", 5, false);
	assert_string_equal(capture_end(c),
			    "a\\\"b\\\\c\\nd\\x09e\\x7f caf\xc3\xa9 caf\\xc3\\xa9");
	free(c);
}

/* C1 controls (CSI is U+009B) are escaped in valid UTF-8 too. */
static void test_c_escaped_c1(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	capture_start(c, 0);
	text_put_c_escaped(&c->w, "a\xc2\x9b" "2J\xc2\xa0\xe2\x82\xac", 10, true);
	assert_string_equal(capture_end(c), "a\\xc2\\x9b2J\xc2\xa0\xe2\x82\xac");
	free(c);
}

/* Into a fixed buffer: whole characters only, and what was used. */
static void test_c_escape_stops_at_a_character(void **state)
{
	char dst[16];
	size_t used, n;

	/* "\x01" takes 4: three fit in 14 bytes, not a fourth */
	n = text_c_escape(dst, 14, "\001\001\001\001", 4, true, &used);
	assert_int_equal(n, 12);
	assert_int_equal(used, 3);
	/* a 3-byte code point is not cut */
	n = text_c_escape(dst, 3, "ab\xe2\x82\xac", 5, true, &used);
	assert_int_equal(n, 2);
	assert_int_equal(used, 2);
	(void)state;
}

/* Pieces longer than the buffer, escaped, raw or formatted. */
static void test_long_pieces_through_small_buffer(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));
	char in[3000], ys[3000], zs[3001], *want, *p;
	size_t i;

	for (i = 0; i < sizeof(in); i++)
		in[i] = i % 2 ? 'x' : '\001';
	memset(ys, 'y', sizeof(ys));
	memset(zs, 'z', sizeof(zs) - 1);
	zs[sizeof(zs) - 1] = '\0';
	want = malloc(sizeof(in) / 2 * 5 + sizeof(ys) + sizeof(zs));
	p = want;
	for (i = 0; i < sizeof(in); i += 2) {
		memcpy(p, "\\x01x", 5);
		p += 5;
	}
	memcpy(p, ys, sizeof(ys));
	memcpy(p + sizeof(ys), zs, sizeof(zs));
	capture_start(c, 1024);
	text_put_c_escaped(&c->w, in, sizeof(in), true);
	text_put_mem(&c->w, ys, sizeof(ys));
	text_put_printf(&c->w, "%s", zs);
	assert_string_equal(capture_end(c), want);
	free(want);
	free(c);
}

static void test_write_error_is_sticky(void **state)
{
	struct text_out w;
	int fds[2];

	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(text_out_init(&w, fds[1], 0), 0);
	text_put_lit(&w, "lost");
	text_out_flush(&w);
	text_put_json_string(&w, "more", 4);
	assert_int_equal(text_out_finish(&w), -EPIPE);
	close(fds[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_ascii_is_copied),
		cmocka_unit_test(test_quote_and_backslash),
		cmocka_unit_test(test_every_control_character),
		cmocka_unit_test(test_valid_utf8_is_kept),
		cmocka_unit_test(test_invalid_utf8_becomes_replacement),
		cmocka_unit_test(test_small_destination_stops_at_code_points),
		cmocka_unit_test(test_u64_formatting),
		cmocka_unit_test(test_numbers_and_timestamps),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_long_string_through_small_buffer),
		cmocka_unit_test(test_hex_padding),
		cmocka_unit_test(test_c_escaped),
		cmocka_unit_test(test_c_escaped_c1),
		cmocka_unit_test(test_c_escape_stops_at_a_character),
		cmocka_unit_test(test_long_pieces_through_small_buffer),
		cmocka_unit_test(test_write_error_is_sticky),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
