/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mark of tracectl record's command in the archive
 * (<fxt/record_command.h>): which process the trace is about.
 */
#ifndef FXT_COMMAND_MARK_H
#define FXT_COMMAND_MARK_H

#include <stdint.h>
#include <sys/types.h>

struct archive;

/*
 * Writes the mark of process pid at ts (ns of CLOCK_BOOTTIME) in a
 * section of provider id (a fresh id: the manager's own), and commits
 * it. 0 or -errno (-ENOBUFS: the queue is full).
 */
int command_mark_write(struct archive *a, uint32_t id, pid_t pid, uint64_t ts);

#endif /* FXT_COMMAND_MARK_H */
