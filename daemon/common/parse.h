/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FXT_COMMON_PARSE_H
#define FXT_COMMON_PARSE_H

#include <stdint.h>

/* "4096", "64K", "4M", "1G" (powers of 1024). 0 or -EINVAL. */
int parse_size(const char *s, uint64_t *out);
/* A decimal count from 1 to max. 0 or -EINVAL. */
int parse_count(const char *s, uint64_t max, uint64_t *out);
/* "500ms", "10s", "2m", "1h"; a bare number is seconds. 0 or -EINVAL. */
int parse_duration_ns(const char *s, uint64_t *out);
/* "0", "500ns", "100us", "2ms", "1s": a unit is needed. 0 or -EINVAL. */
int parse_short_duration_ns(const char *s, uint64_t *out);

#endif /* FXT_COMMON_PARSE_H */
