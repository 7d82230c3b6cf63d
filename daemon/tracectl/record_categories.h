/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tracectl record adds to the categories it is given: kernel:proc,
 * whose fork records tell which processes the command started (the
 * summary keeps to them), and with stack samples (kernel:sample,
 * kernel:offcpu) kernel:sched, whose switches draw the CPUs and threads
 * the samples fall on.
 */
#ifndef FXT_RECORD_CATEGORIES_H
#define FXT_RECORD_CATEGORIES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Appends ",kernel:proc" to list (size bytes) when it names kernel
 * categories but not that one (no kernel category: the kernel's default,
 * which has it), and ",kernel:sched" when it names kernel:sample or
 * kernel:offcpu but not it. NULL, or the category that did not fit.
 */
const char *record_categories_add(char *list, size_t size);

#endif /* FXT_RECORD_CATEGORIES_H */
