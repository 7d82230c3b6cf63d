// SPDX-License-Identifier: GPL-2.0-only
/* Well-formed UTF-8: see utf8.h. */
#include <stdint.h>
#include <string.h>

#include "utf8.h"

int fxt_utf8_sequence(const char *str, size_t len)
{
	const uint8_t *s = (const uint8_t *)str;
	uint8_t c = s[0], lo = 0x80, hi = 0xbf;
	int need, i;

	/* overlong forms, surrogates and beyond U+10FFFF by the second byte */
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

static bool utf8_valid_tail(const uint8_t *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		int n = s[i] < 0x80 ? 1 :
			fxt_utf8_sequence((const char *)s + i, len - i);

		if (n < 0)
			return false;
		i += (size_t)n;
	}
	return true;
}

bool fxt_utf8_valid(const char *str, size_t len)
{
	const uint8_t *s = (const uint8_t *)str;
	size_t i = 0;
	uint64_t w;

	/* ASCII fast path, a word at a time */
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ull)
			return utf8_valid_tail(s + i, len - i);
	}
	for (; i < len; i++)
		if (s[i] & 0x80)
			return utf8_valid_tail(s + i, len - i);
	return true;
}
