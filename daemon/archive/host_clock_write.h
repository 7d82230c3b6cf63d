/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host and clock records (<fxt/host_clock.h>) written: instants of
 * the manager's provider, by the manager at each trace's start and stop
 * and by merge for the archive it makes. host_clock.h reads them back.
 */
#ifndef FXT_HOST_CLOCK_WRITE_H
#define FXT_HOST_CLOCK_WRITE_H

#include <stdint.h>

#include "fxt_writer.h"
#include "host_clock.h"

/* An instant of the category FXT_HOST_CLOCK_CATEGORY, on thread 0/0. */
int fxt_host_write_instant(struct fxt_writer *w, const char *name, uint64_t ts,
			   const struct fxt_arg_in *args, unsigned int nargs);

struct fxt_host_fields {
	struct fxt_writer_str machine_id, boot_id, hostname, kernel, trace_id;
};

/* The host record at ts. */
int fxt_host_write(struct fxt_writer *w, const struct fxt_host_fields *h,
		   uint64_t ts);

/* A clock record: at is FXT_CLOCK_AT_START or FXT_CLOCK_AT_STOP. */
int fxt_clock_write(struct fxt_writer *w, const char *at,
		    const struct fxt_clock_reading *c);

#endif /* FXT_HOST_CLOCK_WRITE_H */
