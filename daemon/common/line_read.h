/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Lines of a text file another program writes (/proc/kallsyms,
 * /proc/PID/maps), read in a bounded buffer: a line too long for it is
 * skipped whole, never taken in pieces.
 */
#ifndef FXT_LINE_READ_H
#define FXT_LINE_READ_H

#include <stddef.h>
#include <stdio.h>

/*
 * The next line of f that fits in size bytes, without its newline, into
 * line: 1, or 0 at the end (or on an error: ferror(f) tells).
 */
int line_read(FILE *f, char *line, size_t size);

#endif /* FXT_LINE_READ_H */
