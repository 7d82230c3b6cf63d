// SPDX-License-Identifier: GPL-2.0-only
/* tracectl record's kernel:proc: see record_categories.h. */
#include <stdio.h>
#include <string.h>

#include "record_categories.h"

#define KERNEL_PREFIX "kernel:"
#define KERNEL_PROC "kernel:proc"

/*
 * Whether the comma-separated list has the entry want (prefix: an entry
 * that begins with it).
 */
static bool has_entry(const char *list, const char *want, bool prefix)
{
	size_t len, want_len = strlen(want);

	while (*list) {
		len = strcspn(list, ",");
		if (prefix ? len >= want_len && !strncmp(list, want, want_len) :
			     len == want_len && !strncmp(list, want, len))
			return true;
		list += len;
		list += *list == ',';
	}
	return false;
}

bool record_categories_add_proc(char *list, size_t size)
{
	size_t used = strlen(list);

	if (!has_entry(list, KERNEL_PREFIX, true) ||
	    has_entry(list, KERNEL_PROC, false))
		return true;
	if (used + 1 + strlen(KERNEL_PROC) >= size)
		return false;
	snprintf(list + used, size - used, ",%s", KERNEL_PROC);
	return true;
}
