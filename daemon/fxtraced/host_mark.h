/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host and clock records of an archive (<fxt/host_clock.h>): which
 * host it came from, and readings of its clocks that tie the trace's
 * clock (CLOCK_BOOTTIME) to wall time.
 */
#ifndef FXT_HOST_MARK_H
#define FXT_HOST_MARK_H

#include <stdint.h>

#include "host_clock.h"

struct archive;

/*
 * Reads CLOCK_BOOTTIME, CLOCK_MONOTONIC and CLOCK_REALTIME together: of
 * FXT_CLOCK_TRIES reads of the three between two BOOTTIME reads, the
 * narrowest; boottime is its middle, error_ns half its width.
 */
void host_clock_read(struct fxt_clock_reading *out);

/*
 * Writes, in a section of provider id (a fresh id: the manager's own),
 * the host record with trace_id (32 hex; NULL: a random one) and the
 * start reading, and commits them. 0 or -errno (-ENOBUFS: the queue is
 * full).
 */
int host_mark_start(struct archive *a, uint32_t id, const char *trace_id,
		    const struct fxt_clock_reading *start);
/* A reading of the clocks now, as the stop reading, the same way. */
int host_mark_stop(struct archive *a, uint32_t id);

#endif /* FXT_HOST_MARK_H */
