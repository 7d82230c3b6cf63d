// SPDX-License-Identifier: GPL-2.0-only
/*
 * The summary's "memory" object (memory_summary.h), as summary_json.h
 * describes it.
 */
#include <errno.h>
#include <stdlib.h>

#include "memory_summary.h"
#include "summary_json.h"
#include "summary_json_fields.h"

static void put_process(struct text_out *w, const struct trace_summary *s,
			const struct memory_process *p, bool html_safe)
{
	struct thread_names names;

	trace_summary_names(s, p->pid, p->pid, &names);
	text_put_lit(w, "\n{\"pid\":");
	text_put_u64(w, p->pid);
	text_put_lit(w, ",\"process\":");
	summary_json_string(w, names.process, names.process_len, html_safe);
	text_put_lit(w, ",\"peak_rss\":");
	text_put_u64(w, p->peak_rss);
	text_put_lit(w, ",\"peak_swap\":");
	text_put_u64(w, p->peak_swap);
	text_put_char(w, '}');
}

static void put_stalled(struct text_out *w, const struct trace_summary *s,
			const struct memory_thread *t, bool html_safe)
{
	struct thread_names names;
	unsigned int i;

	summary_json_thread_head(w, s, t->tid, t->pid, &names, html_safe);
	text_put_lit(w, ",\"stall_ns\":");
	text_put_u64(w, memory_thread_stall_ns(t));
	for (i = 0; i < MEMORY_STALLS; i++) {
		text_put_lit(w, ",\"");
		text_put_str(w, memory_stall_name(i));
		text_put_lit(w, "\":{\"count\":");
		text_put_u64(w, t->stalls[i]);
		text_put_lit(w, ",\"total_ns\":");
		text_put_u64(w, t->stall_ns[i]);
		text_put_char(w, '}');
	}
	text_put_char(w, '}');
}

static void put_oom(struct text_out *w, const struct memory_oom *o,
		    bool html_safe)
{
	text_put_lit(w, "\n{\"ts_ns\":");
	text_put_u64(w, o->ts_ns);
	text_put_lit(w, ",\"pid\":");
	text_put_u64(w, o->pid);
	text_put_lit(w, ",\"name\":");
	summary_json_string(w, o->name, o->name_len, html_safe);
	text_put_lit(w, ",\"rss\":");
	text_put_u64(w, o->rss);
	text_put_char(w, '}');
}

int summary_json_memory(struct text_out *w, const struct trace_summary *s,
			const struct summary_json_options *opt)
{
	const struct memory_summary *m = &s->memory;
	const struct memory_process **procs;
	const struct memory_thread **stalled;
	size_t i, nprocs, nstalled;

	procs = memory_summary_processes(m, &nprocs);
	stalled = memory_summary_stalled(m, &nstalled);
	if ((m->processes.n && !procs) || (m->threads.n && !stalled)) {
		free(procs);
		free(stalled);
		return -ENOMEM;
	}
	if (opt->top && nprocs > opt->top)
		nprocs = opt->top;
	if (opt->top && nstalled > opt->top)
		nstalled = opt->top;
	text_put_lit(w, "{\"processes\":[");
	for (i = 0; i < nprocs; i++) {
		if (i)
			text_put_char(w, ',');
		put_process(w, s, procs[i], opt->html_safe);
	}
	text_put_lit(w, "],\n\"stalls\":[");
	for (i = 0; i < nstalled; i++) {
		if (i)
			text_put_char(w, ',');
		put_stalled(w, s, stalled[i], opt->html_safe);
	}
	text_put_lit(w, "],\n\"oom_kills\":[");
	for (i = 0; i < m->nooms; i++) {
		if (i)
			text_put_char(w, ',');
		put_oom(w, &m->ooms[i], opt->html_safe);
	}
	text_put_lit(w, "]}");
	free(procs);
	free(stalled);
	return 0;
}
