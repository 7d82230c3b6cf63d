// SPDX-License-Identifier: GPL-2.0-only
/* Bounded lines of a text file: line_read.h. */
#include <stdbool.h>
#include <string.h>

#include "line_read.h"

int line_read(FILE *f, char *line, size_t size)
{
	bool skipping = false;

	while (fgets(line, (int)size, f)) {
		size_t len = strlen(line);
		bool whole = len && line[len - 1] == '\n';

		if (!whole && !feof(f)) {
			/* The head of a line too long: skip it whole. */
			skipping = true;
			continue;
		}
		if (skipping) {
			/* Its tail. */
			skipping = false;
			continue;
		}
		if (whole)
			line[len - 1] = '\0';
		return 1;
	}
	return 0;
}
