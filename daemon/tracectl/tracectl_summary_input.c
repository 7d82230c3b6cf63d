// SPDX-License-Identifier: GPL-2.0-only
/* The archive read into a trace summary: see tracectl_summary_input.h. */
#include <errno.h>
#include <inttypes.h>

#include "stack_losses.h"
#include "tracectl_summary_input.h"

/* What the summary's bounds left out. */
static void report_summary(struct tracectl_input *in,
			   const struct trace_summary *s)
{
	char losses[STACK_LOSSES_TEXT_MAX];
	uint64_t unbucketed = 0;
	uint32_t i;

	if (s->threads_untracked)
		tracectl_input_note(in, "more than %u threads; the others are "
					"left out", SUMMARY_THREADS_MAX);
	if (s->slices_lumped)
		tracectl_input_note(in, "more than %u slice names; the others "
					"are summed as \"(other)\"",
				    SUMMARY_SLICES_MAX);
	for (i = 0; i < s->nthreads; i++)
		unbucketed += s->threads[i].latency.unbucketed;
	if (unbucketed)
		tracectl_input_note(in,
				    "%" PRIu64 " wakeup latencies past the "
				    "histogram memory are left out of the "
				    "percentiles",
				    unbucketed);
	if (stack_losses_text(losses, &s->stacks.stats, &s->profile.stats))
		tracectl_input_note(in, "%s", losses);
}

int tracectl_summary_read(struct tracectl_input *in, struct trace_summary *s,
			  const struct trace_summary_options *opt)
{
	struct trace_summary_options o = *opt;
	int ret;

	o.progress = tracectl_input_progress;
	o.progress_ctx = in;
	ret = trace_summary_init(s, &o);
	if (ret)
		return ret;
	ret = trace_summary_read(s, in->reader);
	tracectl_input_done(in);
	if (ret == -ENOMEM)
		return ret;
	if (ret < 0) {
		tracectl_input_failed(in, ret);
		return ret;
	}
	if (tracectl_input_not_fxt(in))
		return -EINVAL;
	tracectl_input_report(in);
	report_summary(in, s);
	return 0;
}
