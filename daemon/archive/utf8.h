/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * UTF-8 as the FXT spec wants its strings: what the reader checks a
 * record's strings by, and what text_out escapes by.
 */
#ifndef FXT_UTF8_H
#define FXT_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Well-formed UTF-8: no overlong forms, surrogates or code points beyond
 * U+10FFFF.
 */
bool fxt_utf8_valid(const char *s, size_t len);
/*
 * The sequence at s[0] >= 0x80: its length (2..4) if well-formed, else
 * minus the length of its maximal invalid subpart (at least 1), the bytes
 * that Unicode replaces with one U+FFFD.
 */
int fxt_utf8_sequence(const char *s, size_t len);

#endif /* FXT_UTF8_H */
