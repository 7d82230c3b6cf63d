// SPDX-License-Identifier: GPL-2.0-only
/* The merged archive's own records: see merge_mark.h. */
#include <string.h>

#include "host_clock_write.h"
#include "merge_mark.h"

#define NS_PER_SECOND 1000000000ull

/* The first input's identity, the merge's trace id. */
static int write_host(struct fxt_writer *w, const struct fxt_host_clock *hc,
		      const char *trace_id, uint64_t ts)
{
	const struct fxt_host_fields f = {
		.machine_id = fxt_wstr(hc->machine_id),
		.boot_id = fxt_wstr(hc->boot_id),
		.hostname = fxt_wstr(hc->hostname),
		.kernel = fxt_wstr(hc->kernel),
		.trace_id = fxt_wstr(trace_id),
	};

	return fxt_host_write(w, &f, ts);
}

static int write_input(struct fxt_writer *w, const struct merge_host *h,
		       uint64_t ts)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr(FXT_MERGE_ARG_HOST),
				fxt_wstr(h->name)),
		fxt_warg_string(fxt_wstr(FXT_MERGE_ARG_TRACE_ID),
				fxt_wstr(h->hc.trace_id)),
	};

	return fxt_host_write_instant(w, FXT_MERGE_NAME, ts, args, 2);
}

int merge_out_mark(struct merge_out *o, const struct merge_host *hosts,
		   size_t n, const char *trace_id)
{
	const struct fxt_host_clock *hc = &hosts[0].hc;
	uint64_t ts = hc->has_start ? hc->start.boottime :
		      hc->has_stop  ? hc->stop.boottime :
				      0;
	uint32_t id = o->next_provider++;
	size_t i;
	int ret;

	ret = fxt_write_provider_info(&o->w, id, FXT_HOST_CLOCK_PROVIDER,
				      strlen(FXT_HOST_CLOCK_PROVIDER)) ?:
	      fxt_write_provider_section(&o->w, id) ?:
	      fxt_write_init(&o->w, NS_PER_SECOND) ?:
	      write_host(&o->w, hc, trace_id ? trace_id : "", ts);
	if (!ret && hc->has_start)
		ret = fxt_clock_write(&o->w, FXT_CLOCK_AT_START, &hc->start);
	if (!ret && hc->has_stop)
		ret = fxt_clock_write(&o->w, FXT_CLOCK_AT_STOP, &hc->stop);
	for (i = 0; !ret && i < n; i++)
		ret = write_input(&o->w, &hosts[i], ts);
	return ret;
}
