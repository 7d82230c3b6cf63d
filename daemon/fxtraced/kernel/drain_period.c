// SPDX-License-Identifier: GPL-2.0-only
#include "drain_period.h"

uint64_t drain_period_next(uint64_t period_ns, uint64_t fullest,
			   uint64_t ring_bytes)
{
	uint64_t next = 2 * period_ns;

	/* Periods and quarter rings are small enough not to overflow. */
	if (fullest && period_ns * (ring_bytes / 4) / fullest < next)
		next = period_ns * (ring_bytes / 4) / fullest;
	if (next < DRAIN_PERIOD_MIN_NS)
		next = DRAIN_PERIOD_MIN_NS;
	if (next > DRAIN_PERIOD_MAX_NS)
		next = DRAIN_PERIOD_MAX_NS;
	return next;
}
