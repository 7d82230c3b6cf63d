// SPDX-License-Identifier: GPL-2.0-only
/* The cells of the summary's text tables: see text_cells.h. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "text_cells.h"
#include "text_out.h"
#include "utf8.h"

/* "812 ns", "12.3 us", "4.56 ms", "7.89 s": three figures. */
const char *summary_text_ns(char *buf, size_t size, uint64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	unsigned int u = 0;

	if (ns < 1000) {
		snprintf(buf, size, "%" PRIu64 " ns", ns);
		return buf;
	}
	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	snprintf(buf, size,
		 v < 10	 ? "%.2f %s" :
		 v < 100 ? "%.1f %s" :
			   "%.0f %s",
		 v, unit[u]);
	return buf;
}

/* The whole of a name, escaped, however long. */
static void put_whole(FILE *out, const char *s, size_t len)
{
	char buf[TEXT_C_ESCAPE_MAX * SUMMARY_TEXT_NAME_MAX];
	bool valid = fxt_utf8_valid(s, len);
	size_t n, used;

	while (len) {
		n = text_c_escape(buf, sizeof(buf), s, len, valid, &used);
		if (!used)
			break;
		fwrite(buf, 1, n, out);
		s += used;
		len -= used;
	}
}

/*
 * Names as printable text, escaped as every name from an archive is
 * (text_c_escape(): no escape sequence reaches the terminal). A padded
 * cell is cut to width columns (at most SUMMARY_TEXT_NAME_MAX) and padded
 * to them; an unpadded one is never cut, so that two rows of different
 * names never read the same. "-" stands for an empty name.
 */
void summary_text_name(FILE *out, const char *s, size_t len, int width,
		       bool pad)
{
	char buf[TEXT_C_ESCAPE_MAX * SUMMARY_TEXT_NAME_MAX];
	size_t i = 0, n, used;
	int cols = 0;

	if (!pad && len) {
		put_whole(out, s, len);
		return;
	}
	if (width > SUMMARY_TEXT_NAME_MAX)
		width = SUMMARY_TEXT_NAME_MAX;
	n = text_c_escape(buf, sizeof(buf), s, len, fxt_utf8_valid(s, len),
			  &used);
	/* a column per code point of the escaped text, valid UTF-8 */
	while (i < n && cols < width) {
		unsigned char c = (unsigned char)buf[i];

		i += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		cols++;
	}
	if (!i)
		fprintf(out, "-%*s", pad && width > 1 ? width - 1 : 0, "");
	else
		fprintf(out, "%.*s%*s", (int)i, buf,
			pad && width > cols ? width - cols : 0, "");
}
