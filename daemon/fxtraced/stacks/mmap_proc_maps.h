/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The executable file mappings of the processes that exist, from
 * PROC/[pid]/maps, into a mapping store (valid since before the trace),
 * with each file's build id read from the file opened as the process's
 * owner could (proc_open.h: the mapped file itself through
 * PROC/[pid]/map_files/, else its path in the process's root; no FUSE
 * file, no device, nothing the owner may not read). Lines are bounded as
 * proc_maps_line.h says, at most PROC_MAPS_LINES_MAX of a process read.
 */
#ifndef FXT_KERNEL_MMAP_PROC_MAPS_H
#define FXT_KERNEL_MMAP_PROC_MAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "mmap_store.h"
#include "proc_maps_line.h"

/* proc is "/proc", or a directory of the same layout (tests). Returns
 * the number of processes read, or -errno when proc cannot be listed.
 */
int mmap_proc_maps_scan(struct mmap_store *s, const char *proc);

/* One process's maps file (opened by the caller), pid's. */
int mmap_proc_maps_read(struct mmap_store *s, const char *proc, uint32_t pid,
			FILE *maps);

#endif /* FXT_KERNEL_MMAP_PROC_MAPS_H */
