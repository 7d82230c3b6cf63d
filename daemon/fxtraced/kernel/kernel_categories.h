/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel categories a trace selects (kernel:sched, kernel:sample,
 * ...): the events each selects and counts, the default ones, the
 * tracepoints each needs. kernel_categories_parse() (kernel_session.h)
 * reads a list of them.
 */
#ifndef FXT_KERNEL_CATEGORIES_H
#define FXT_KERNEL_CATEGORIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/fxt_sched_uapi.h>

struct kernel_category {
	const char *name;
	uint32_t events; /* FXT_SCHED_EV_* it selects */
	uint32_t counted; /* those whose records it counts */
	bool by_default;
	const char *tracepoints; /* for the message when missing */
};

/* In the order of tracectl stop's rows; new ones are appended. */
extern const struct kernel_category kernel_categories[];
extern const size_t kernel_ncategories;

/* The events of the default categories. */
uint32_t kernel_categories_default(void);

#endif /* FXT_KERNEL_CATEGORIES_H */
