/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One line of PROC/[pid]/maps, parsed: for the mapping tracker's scan at
 * start, a JIT's jitdump found among a process's mappings, and the
 * unwinding tables written for a process. The text is the kernel's, but
 * paths are other users' names: read lines with line_read() bounded by
 * PROC_MAPS_LINE_MAX (a longer one is skipped whole).
 */
#ifndef FXT_SYMBOLS_PROC_MAPS_LINE_H
#define FXT_SYMBOLS_PROC_MAPS_LINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* A path of PATH_MAX bytes after addresses, flags, offset, device, inode. */
#define PROC_MAPS_PATH_MAX 4096
#define PROC_MAPS_LINE_MAX (PROC_MAPS_PATH_MAX + 128)
/* Lines of one process read at most. */
#define PROC_MAPS_LINES_MAX 65536

/* One line of a maps file; path points into the line. */
struct proc_maps_line {
	uint64_t start, end, pgoff;
	uint64_t inode;
	dev_t dev;
	bool exec;
	const char *path;
};

/*
 * "start-end perms offset major:minor inode   path" (line_read()'s
 * line, without its newline): 0 or -EINVAL.
 */
int proc_maps_line_parse(char *line, struct proc_maps_line *m);

#endif /* FXT_SYMBOLS_PROC_MAPS_LINE_H */
