/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The clock readings a merge trusts (host_clock.h): an input's readings
 * decide where all its times land, so readings no running host writes
 * are refused, with the file and the reading named, before any output:
 *
 * - a reading of 0 on BOOTTIME, MONOTONIC or REALTIME (a clock at its
 *   epoch, or a field left empty), or UINT64_MAX on any field;
 * - an error_ns over MERGE_CLOCK_ERROR_MAX_NS (it would excuse any drift);
 * - a stop before the start on any of the three clocks;
 * - REALTIME against BOOTTIME, between start and stop, more than
 *   MERGE_CLOCK_DRIFT_MAX_PPM apart beyond the readings' error.
 */
#ifndef FXT_MERGE_CLOCK_H
#define FXT_MERGE_CLOCK_H

#include "fxt_merge.h"

/* Crystals drift under 100 ppm; NTP slews at most 500 ppm. */
#define MERGE_CLOCK_DRIFT_MAX_PPM 1000u
#define MERGE_CLOCK_ERROR_MAX_NS 1000000000ull

/* 0, or -ERANGE with *problem naming the reading. */
int merge_clock_check(const struct merge_host *h,
		      struct fxt_merge_problem *problem);

#endif /* FXT_MERGE_CLOCK_H */
