// SPDX-License-Identifier: GPL-2.0-only
/* Text safe on a terminal: see text_check.h. */
#include <stdio.h>
#include <stdlib.h>

#define CHECK_ABORTS
#include "check.h"
#include "text_check.h"
#include "utf8.h"

void check_terminal_text(const char *what, const char *text, size_t len)
{
	size_t i;

	CHECK(fxt_utf8_valid(text, len), "%s is not valid UTF-8", what);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		unsigned char next = i + 1 < len ? (unsigned char)text[i + 1] : 0;

		/* C0, DEL, and C1 (U+0080..U+009F, 0xc2 0x80..0x9f) */
		if ((c < 0x20 && c != '\n') || c == 0x7f ||
		    (c == 0xc2 && next >= 0x80 && next < 0xa0)) {
			fprintf(stderr, "%s: control character 0x%02x at %zu in: %.*s\n",
				what, c, i, (int)(len - i < 100 ? len - i : 100),
				text + (i > 50 ? i - 50 : 0));
			abort();
		}
	}
}
