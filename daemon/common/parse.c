// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static int scale(unsigned long long v, unsigned long long unit,
		 uint64_t *out)
{
	if (v > UINT64_MAX / unit)
		return -EINVAL;
	*out = v * unit;
	return 0;
}

struct unit {
	const char *suffix;
	unsigned long long scale;
};

/* A decimal number followed by exactly one of the suffixes. */
static int parse_with_unit(const char *s, const struct unit *units,
			   size_t nunits, uint64_t *out)
{
	unsigned long long v;
	char *end;
	size_t i;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	for (i = 0; i < nunits; i++)
		if (!strcmp(end, units[i].suffix))
			return scale(v, units[i].scale, out);
	return -EINVAL;
}

int parse_size(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "", 1 }, { "K", 1ull << 10 }, { "k", 1ull << 10 },
		{ "M", 1ull << 20 }, { "m", 1ull << 20 },
		{ "G", 1ull << 30 }, { "g", 1ull << 30 },
	};

	return parse_with_unit(s, units, sizeof(units) / sizeof(units[0]),
			       out);
}

int parse_duration_ns(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "", 1000000000ull }, { "s", 1000000000ull },
		{ "ms", 1000000ull }, { "m", 60000000000ull },
		{ "min", 60000000000ull }, { "h", 3600000000000ull },
	};

	return parse_with_unit(s, units, sizeof(units) / sizeof(units[0]),
			       out);
}

int parse_short_duration_ns(const char *s, uint64_t *out)
{
	static const struct unit units[] = {
		{ "ns", 1 }, { "us", 1000ull }, { "ms", 1000000ull },
		{ "s", 1000000000ull },
	};

	if (!strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	return parse_with_unit(s, units, sizeof(units) / sizeof(units[0]),
			       out);
}

int parse_count(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || !v || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}
