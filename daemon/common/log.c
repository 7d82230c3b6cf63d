// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

static int log_max_level = LOG_INFO;

void log_level_set(int max_level)
{
	log_max_level = max_level;
}

/*
 * Paths and names in messages come from controllers and providers: a
 * newline in one must not start a line of its own, with a priority
 * prefix of its choosing.
 */
static void defuse(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			*s = '?';
}

void log_write(int level, int error, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (level > log_max_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	defuse(line);
	if (error)
		fprintf(stderr, "<%d>fxtraced: %s: %s\n", level, line,
			strerror(error));
	else
		fprintf(stderr, "<%d>fxtraced: %s\n", level, line);
}
