// SPDX-License-Identifier: GPL-2.0-only
#include "host_clock_write.h"

int fxt_host_write_instant(struct fxt_writer *w, const char *name, uint64_t ts,
			   const struct fxt_arg_in *args, unsigned int nargs)
{
	const struct fxt_writer_event ev = {
		.ts = ts,
		.thread = fxt_wthread(0, 0),
		.category = fxt_wstr(FXT_HOST_CLOCK_CATEGORY),
		.name = fxt_wstr(name),
		.args = args,
		.nargs = nargs,
	};

	return fxt_write_instant(w, &ev, FXT_SCOPE_THREAD);
}

int fxt_host_write(struct fxt_writer *w, const struct fxt_host_fields *h,
		   uint64_t ts)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_MACHINE_ID),
				h->machine_id),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_BOOT_ID), h->boot_id),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_HOSTNAME), h->hostname),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_KERNEL), h->kernel),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_TRACE_ID), h->trace_id),
	};

	return fxt_host_write_instant(w, FXT_HOST_NAME, ts, args, 5);
}

int fxt_clock_write(struct fxt_writer *w, const char *at,
		    const struct fxt_clock_reading *c)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_BOOTTIME), c->boottime),
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_MONOTONIC),
				c->monotonic),
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_REALTIME), c->realtime),
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_ERROR_NS), c->error_ns),
		fxt_warg_string(fxt_wstr(FXT_CLOCK_ARG_AT), fxt_wstr(at)),
	};

	return fxt_host_write_instant(w, FXT_CLOCK_NAME, c->boottime, args, 5);
}
