/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tracectl record adds to the categories it is given: kernel:proc,
 * whose fork records tell which processes the command started (the
 * summary keeps to them).
 */
#ifndef FXT_RECORD_CATEGORIES_H
#define FXT_RECORD_CATEGORIES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Appends ",kernel:proc" to list (size bytes) when it names kernel
 * categories but not that one (no kernel category: the kernel's default,
 * which has it). False when it does not fit (list unchanged).
 */
bool record_categories_add_proc(char *list, size_t size);

#endif /* FXT_RECORD_CATEGORIES_H */
