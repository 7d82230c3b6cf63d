/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace clock (clock.c). */
#ifndef FXT_PROVIDER_CLOCK_H
#define FXT_PROVIDER_CLOCK_H

#include <stdint.h>

#include <fxt/provider.h>

/* CLOCK_BOOTTIME in ns, as the kernel side uses: TSC or clock_gettime. */
static inline uint64_t fxt_clock_ns(void)
{
	return fxt_internal_now();
}

/* CLOCK_BOOTTIME in ns from clock_gettime() (vDSO). */
uint64_t fxt_clock_gettime_ns(void);
/* A trace starts: re-anchor the TSC clock (calibrating it the first time). */
void fxt_clock_trace_start(void);
void fxt_clock_after_fork_child(void);

#endif /* FXT_PROVIDER_CLOCK_H */
