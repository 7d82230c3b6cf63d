/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a command prints for a terminal (a dump, a summary table, any
 * diagnostic) must be safe there whatever the input held: valid UTF-8,
 * and no control character but the line end.
 */
#ifndef FXT_FUZZ_TEXT_CHECK_H
#define FXT_FUZZ_TEXT_CHECK_H

#include <stddef.h>

/* Aborts, naming what and the place, unless text[0..len) is safe. */
void check_terminal_text(const char *what, const char *text, size_t len);

#endif /* FXT_FUZZ_TEXT_CHECK_H */
