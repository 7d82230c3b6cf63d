/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict RFC 8259 JSON check for the converter's output: one value,
 * nothing but whitespace around it, valid UTF-8 in strings, no raw
 * control characters, no NaN/Infinity, no leading zeros, bounded depth.
 */
#ifndef FXT_FUZZ_JSON_CHECK_H
#define FXT_FUZZ_JSON_CHECK_H

#include <stddef.h>

/* NULL when text[0..len) is one valid JSON document, else the reason. */
const char *json_check(const char *text, size_t len, size_t *error_offset);

#endif /* FXT_FUZZ_JSON_CHECK_H */
