/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cells of the summary's text tables, shared by its sections: names
 * from the archive escaped (cut only in padded columns), durations in
 * three figures.
 */
#ifndef FXT_TEXT_CELLS_H
#define FXT_TEXT_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The widest a padded name cell gets, in columns. */
#define SUMMARY_TEXT_NAME_MAX 48

/*
 * A name from the archive, escaped; if pad, cut to width columns (at
 * most 48) and padded to them, else whole (width unused); "-" when empty.
 */
void summary_text_name(FILE *out, const char *s, size_t len, int width,
		       bool pad);
/* "812 ns", "12.3 us", "4.56 ms", "7.89 s": three figures. */
const char *summary_text_ns(char *buf, size_t size, uint64_t ns);

#endif /* FXT_TEXT_CELLS_H */
