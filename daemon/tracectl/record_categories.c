// SPDX-License-Identifier: GPL-2.0-only
/* What tracectl record adds to its categories: see record_categories.h. */
#include <stdio.h>
#include <string.h>

#include "record_categories.h"

#define KERNEL_PREFIX "kernel:"

/*
 * Whether an entry of the comma-separated list is name, or a prefix of
 * it with a trailing '*' ("kernel:*"); prefix: an entry that begins with
 * name.
 */
static bool has_entry(const char *list, const char *name, bool prefix)
{
	size_t len, name_len = strlen(name);

	while (*list) {
		len = strcspn(list, ",");
		if (prefix ? len >= name_len && !strncmp(list, name, name_len) :
			     (len == name_len && !strncmp(list, name, len)) ||
				     (len && list[len - 1] == '*' &&
				      len - 1 <= name_len &&
				      !strncmp(list, name, len - 1)))
			return true;
		list += len;
		list += *list == ',';
	}
	return false;
}

/* Appends ",name" to list unless it has it: false when it does not fit. */
static bool append(char *list, size_t size, const char *name)
{
	size_t used = strlen(list);

	if (has_entry(list, name, false))
		return true;
	if (used + 1 + strlen(name) >= size)
		return false;
	snprintf(list + used, size - used, ",%s", name);
	return true;
}

const char *record_categories_add(char *list, size_t size)
{
	if (!has_entry(list, KERNEL_PREFIX, true))
		return NULL;
	if (!append(list, size, "kernel:proc"))
		return "kernel:proc";
	if ((has_entry(list, "kernel:sample", false) ||
	     has_entry(list, "kernel:offcpu", false)) &&
	    !append(list, size, "kernel:sched"))
		return "kernel:sched";
	return NULL;
}
