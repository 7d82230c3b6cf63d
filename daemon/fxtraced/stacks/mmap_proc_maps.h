/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The executable file mappings of the processes that exist, from
 * PROC/[pid]/maps, into a mapping store (valid since before the trace),
 * with each file's build id read from the file opened as the process's
 * owner could (proc_open.h: the mapped file itself through
 * PROC/[pid]/map_files/, else its path in the process's root; no FUSE
 * file, no device, nothing the owner may not read). The text is the kernel's,
 * but paths are other users' names: lines are bounded, a longer one is
 * skipped whole, and at most MMAP_PROC_LINES_MAX lines of a process are
 * read.
 */
#ifndef FXT_KERNEL_MMAP_PROC_MAPS_H
#define FXT_KERNEL_MMAP_PROC_MAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "mmap_store.h"

#define MMAP_PROC_LINES_MAX 65536
/* Addresses, flags, offset, device, inode: under 128 bytes; then a path. */
#define MMAP_PROC_LINE_MAX (MMAP_STORE_PATH_MAX + 128)

/* One line of a maps file; path points into the line. */
struct mmap_proc_line {
	uint64_t start, end, pgoff;
	uint64_t inode;
	dev_t dev;
	bool exec;
	const char *path;
};

/*
 * "start-end perms offset major:minor inode   path" (line_read()'s
 * line, without its newline): 0 or -EINVAL. Also for jit_maps.h, which
 * finds a JIT's jitdump among a process's mappings.
 */
int mmap_proc_maps_parse(char *line, struct mmap_proc_line *m);

/* proc is "/proc", or a directory of the same layout (tests). Returns
 * the number of processes read, or -errno when proc cannot be listed.
 */
int mmap_proc_maps_scan(struct mmap_store *s, const char *proc);

/* One process's maps file (opened by the caller), pid's. */
int mmap_proc_maps_read(struct mmap_store *s, const char *proc, uint32_t pid,
			FILE *maps);

#endif /* FXT_KERNEL_MMAP_PROC_MAPS_H */
