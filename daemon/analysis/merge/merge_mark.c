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

/* Where the section's records are: the first input's first reading. */
static uint64_t mark_ts(const struct fxt_host_clock *hc)
{
	return hc->has_start ? hc->start.boottime :
	       hc->has_stop  ? hc->stop.boottime :
			       0;
}

int merge_out_mark(struct merge_out *o, const struct merge_host *hosts,
		   size_t n, const char *trace_id)
{
	const struct fxt_host_clock *hc = &hosts[0].hc;
	uint64_t ts = mark_ts(hc);
	uint32_t id = o->next_provider++;
	size_t i;
	int ret;

	o->mark_provider = id;
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

static int write_cpus(struct fxt_writer *w, const struct merge_host *h,
		      uint64_t ts)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr(FXT_MERGE_ARG_HOST),
				fxt_wstr(h->name)),
		fxt_warg_uint64(fxt_wstr(FXT_MERGE_ARG_CPU_BASE), h->cpu_base),
		fxt_warg_uint64(fxt_wstr(FXT_MERGE_ARG_CPUS),
				h->has_cpus ? (uint64_t)h->cpu_max + 1 : 0),
	};

	return fxt_host_write_instant(w, FXT_MERGE_CPUS_NAME, ts, args, 3);
}

int merge_out_cpus(struct merge_out *o, const struct merge_host *hosts,
		   size_t n)
{
	uint64_t ts = mark_ts(&hosts[0].hc);
	size_t i;
	int ret;

	ret = fxt_write_provider_section(&o->w, o->mark_provider);
	if (!ret)
		ret = fxt_write_init(&o->w, NS_PER_SECOND);
	for (i = 0; !ret && i < n; i++)
		ret = write_cpus(&o->w, &hosts[i], ts);
	return ret;
}
