// SPDX-License-Identifier: GPL-2.0-only
/* proc_maps_line.h: a line of /proc/[pid]/maps. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "proc_maps_line.h"

int proc_maps_line_parse(char *line, struct proc_maps_line *m)
{
	unsigned long long start, end, pgoff, inode;
	unsigned int major, minor;
	char perms[5];
	int n = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms,
		   &pgoff, &major, &minor, &inode, &n) < 7 || !n)
		return -EINVAL;
	if (end <= start || strlen(perms) != 4)
		return -EINVAL;
	*m = (struct proc_maps_line){ .start = start,
				      .end = end,
				      .pgoff = pgoff,
				      .inode = inode,
				      .dev = makedev(major, minor),
				      .exec = perms[2] == 'x',
				      .path = line + n };
	return 0;
}
