/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How often a streaming capture's per-CPU rings are drained when nothing
 * wakes the reader but a timer: as seldom as the load allows, so that a
 * drain finds no ring more than a quarter full.
 */
#ifndef FXT_DRAIN_PERIOD_H
#define FXT_DRAIN_PERIOD_H

#include <stdint.h>

#define DRAIN_PERIOD_MIN_NS 5000000ull
#define DRAIN_PERIOD_MAX_NS 100000000ull

/*
 * The next period after one of period_ns at whose end the fullest ring
 * held fullest of its ring_bytes: the period in which, at the same rate,
 * it would fill a quarter; at most twice the last (a burst may come
 * back), within [DRAIN_PERIOD_MIN_NS, DRAIN_PERIOD_MAX_NS].
 */
uint64_t drain_period_next(uint64_t period_ns, uint64_t fullest,
			   uint64_t ring_bytes);

#endif /* FXT_DRAIN_PERIOD_H */
