// SPDX-License-Identifier: GPL-2.0-only
/*
 * proc_stat.h: a field of /proc/PID/stat, read once, bounded.
 */
#include <stdio.h>
#include <string.h>

#include "cleanup.h"
#include "proc_stat.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);

uint64_t proc_start_stack(const char *proc, uint32_t pid)
{
	_cleanup_(fclosep) FILE *f = NULL;
	unsigned long long v = 0;
	char path[4096], buf[1024], *p;
	size_t n;
	int i;

	snprintf(path, sizeof(path), "%s/%u/stat", proc, pid);
	f = fopen(path, "re");
	n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	buf[n] = '\0';
	/* After the name (which may hold anything): state is field 3. */
	p = strrchr(buf, ')');
	for (i = 3; p && i <= 28; i++)
		p = strchr(p + 1, ' ');
	if (p && sscanf(p, " %llu", &v) != 1)
		v = 0;
	return v;
}
