/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What /proc/PID/stat says of a process that its users need: the start
 * of its stack (mm->start_stack, field 28), which a new program (an
 * exec, a pid reused) moves: the unwinding tables' and Python entries'
 * mark of the program they were written for.
 */
#ifndef FXT_SYMBOLS_PROC_STAT_H
#define FXT_SYMBOLS_PROC_STAT_H

#include <stdint.h>

/* pid's mm->start_stack under proc ("/proc"), 0 if not read. */
uint64_t proc_start_stack(const char *proc, uint32_t pid);

#endif /* FXT_SYMBOLS_PROC_STAT_H */
