// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace clock: CLOCK_BOOTTIME in ns, the time base of the kernel side.
 */
#include <time.h>

#include "provider_private.h"

/* tsc_span 0: every read is clock_gettime(). */
FXT_EXPORT struct fxt_internal_clock fxt_internal_clock_params;

uint64_t fxt_clock_gettime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

FXT_EXPORT uint64_t fxt_now(void)
{
	return fxt_clock_gettime_ns();
}

void fxt_clock_trace_start(void)
{
}
