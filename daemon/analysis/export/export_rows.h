/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An archive's records as rows of the exported tables (export_schema.h),
 * in RowBinary: each event table's rows wait in a buffer of their own
 * until the caller sends them (export_rows_full() says when one holds a
 * chunk's worth). Duration begins and ends are paired per thread
 * (slice_match.h) into slices, as tracectl summary pairs them; every
 * timestamp is mapped onto REALTIME through the archive's clock records.
 * A row's host is the archive's hostname, or in a merged archive the
 * input it came from (export_hosts.h).
 */
#ifndef FXT_EXPORT_ROWS_H
#define FXT_EXPORT_ROWS_H

#include <stdint.h>

#include "export_hosts.h"
#include "export_schema.h"
#include "fxt_reader.h"
#include "host_clock.h"
#include "rowbinary.h"
#include "slice_match.h"
#include "stack_tables.h"

#define EXPORT_SLICE_THREADS 65536u
#define EXPORT_SLICE_BYTES (32u << 20)

struct export_rows {
	const struct fxt_host_clock *hc;
	size_t host_len;
	const struct export_hosts *hosts; /* NULL: not a merge */
	struct rowbinary rows[EXPORT_EVENT_TABLES];
	uint64_t count[EXPORT_EVENT_TABLES];
	/* duration records that made no slice: an end closing nothing */
	uint64_t unmatched_ends;
	/*
	 * Open begins by (pid, tid): the tag is the category's length, the
	 * bytes category then name. At most EXPORT_SLICE_THREADS threads
	 * and EXPORT_SLICE_BYTES for entries and names.
	 */
	struct slice_match begins;
	/* the stack records, collected until the archive's end (the
	 * symbols may come last): export_samples.h makes their rows */
	struct stack_tables samples;
};

/*
 * hc (with a host and a checked trace id) and hosts (NULL when the
 * archive is no merge) must outlive x.
 */
void export_rows_init(struct export_rows *x, const struct fxt_host_clock *hc,
		      const struct export_hosts *hosts);
void export_rows_done(struct export_rows *x);

/* The record's row, if it makes one: 0, or -ENOMEM. */
int export_rows_record(struct export_rows *x, const struct fxt_record *rec);

/*
 * Appends host, trace_id and ts, the head of every event row of t: the
 * host that of the row's pid (export_hosts_by_pid()), h when not NULL.
 */
struct rowbinary *export_rows_head(struct export_rows *x, enum export_table t,
				   uint64_t ts, uint64_t pid,
				   const struct export_host *h);

/* Duration records that made no slice, once the archive is read. */
uint64_t export_rows_left_out(const struct export_rows *x);

#endif /* FXT_EXPORT_ROWS_H */
