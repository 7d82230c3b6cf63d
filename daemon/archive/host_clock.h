/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host and clock records of an archive (<fxt/host_clock.h>): which
 * host it came from, and the line that maps its clock (CLOCK_BOOTTIME)
 * to wall time (CLOCK_REALTIME) and back.
 *
 * Archives are hostile: a record with a missing or mistyped reading is
 * not taken; a string field holds printable ASCII only and fits its
 * array, anything else leaves it empty; the mapping saturates.
 */
#ifndef FXT_HOST_CLOCK_READER_H
#define FXT_HOST_CLOCK_READER_H

#include <stdbool.h>
#include <stdint.h>

#include <fxt/host_clock.h>

#include "fxt_reader.h"

struct fxt_clock_reading {
	uint64_t boottime, monotonic, realtime, error_ns;
};

struct fxt_host_clock {
	bool has_host;
	char machine_id[FXT_HOST_MACHINE_ID_LEN + 1];
	char boot_id[FXT_HOST_BOOT_ID_LEN + 1];
	char hostname[FXT_HOST_NAME_MAX + 1];
	char kernel[FXT_HOST_NAME_MAX + 1];
	char trace_id[FXT_HOST_TRACE_ID_LEN + 1];
	bool has_start, has_stop;
	struct fxt_clock_reading start, stop;
};

/* An input of a merge, as its "merge" record says. */
struct fxt_merge_input {
	char host[FXT_MERGE_HOST_LEN_MAX + 1];
	char trace_id[FXT_HOST_TRACE_ID_LEN + 1];
};

/* An input's CPUs in a merge, as its "merge_cpus" record says. */
struct fxt_merge_cpus {
	char host[FXT_MERGE_HOST_LEN_MAX + 1];
	uint64_t cpu_base, cpus;
};

/*
 * 1 if rec (a record of the reader) was a host or clock record of the
 * manager's provider (taken into hc), 0 if not. The first host record
 * and the first start reading are kept, and the last stop reading.
 */
int fxt_host_clock_take(struct fxt_host_clock *hc,
			const struct fxt_record *rec);
/*
 * 1 if rec was a "merge" record of the manager's provider (taken into
 * in, its fields checked as the host record's), 0 if not.
 */
int fxt_host_merge_take(struct fxt_merge_input *in,
			const struct fxt_record *rec);
/*
 * 1 if rec was a "merge_cpus" record of the manager's provider (taken
 * into c; 0 CPUs when a number is missing), 0 if not.
 */
int fxt_host_merge_cpus_take(struct fxt_merge_cpus *c,
			     const struct fxt_record *rec);
/*
 * Reads the whole archive at path into hc (zeroed first): 0, -ENODATA if
 * it has no host or clock record, -EBADMSG if it is not FXT, or -errno.
 */
int fxt_host_clock_scan(const char *path, struct fxt_host_clock *hc);
/*
 * fxt_host_clock_scan() that also hands every record to also(ctx, rec)
 * (when not NULL), which returns 0 or a -errno that ends the scan.
 */
int fxt_host_clock_scan_with(const char *path, struct fxt_host_clock *hc,
			     int (*also)(void *ctx,
					 const struct fxt_record *rec),
			     void *ctx);

/*
 * ns of the archive's trace clock (BOOTTIME) to ns of REALTIME and back:
 * on the line through the start and stop readings (the drift over the
 * trace), by the start reading's offset alone when there is no stop (or
 * the stop is not after the start), by the stop's when there is no
 * start; unchanged without any reading. Rounded to the nearest ns,
 * saturating at 0 and UINT64_MAX: a reading maps exactly to its pair.
 */
uint64_t fxt_host_clock_to_realtime(const struct fxt_host_clock *hc,
				    uint64_t boottime_ns);
uint64_t fxt_host_clock_from_realtime(const struct fxt_host_clock *hc,
				      uint64_t realtime_ns);

/*
 * The drift of REALTIME against BOOTTIME between the readings, in parts
 * per million (positive: REALTIME ran faster); false when there are not
 * two usable readings.
 */
bool fxt_host_clock_drift_ppm(const struct fxt_host_clock *hc, double *ppm);

#endif /* FXT_HOST_CLOCK_READER_H */
