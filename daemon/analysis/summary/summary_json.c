// SPDX-License-Identifier: GPL-2.0-only
/* A trace summary as JSON: see summary_json.h. */
#include <errno.h>
#include <stdlib.h>

#include "summary_host.h"
#include "stacks_json.h"
#include "summary_json.h"

void summary_json_provider_key(struct text_out *w,
			       const struct fxt_provider *p, uint32_t id,
			       bool html_safe)
{
	char buf[32];

	if (p && p->name.len) {
		summary_json_string(w, p->name.data, p->name.len, html_safe);
		return;
	}
	memcpy(buf, "provider ", 9);
	summary_json_string(w, buf, 9 + text_format_u64(buf + 9, id), false);
}

static const struct fxt_provider *provider_by_id(const struct fxt_reader *r,
						 uint32_t id)
{
	size_t i, n = fxt_reader_provider_count(r);

	for (i = 0; i < n; i++)
		if (fxt_reader_provider(r, i)->id == id)
			return fxt_reader_provider(r, i);
	return NULL;
}

static bool same_name(const struct fxt_provider *a, const struct fxt_provider *b)
{
	return a->name.len == b->name.len &&
	       !memcmp(a->name.data, b->name.data, a->name.len) &&
	       (a->name.len || a->id == b->id);
}

/*
 * Providers sharing a name share a key (JSON keys are unique): each name
 * is written once, at its first provider, with the sum of them all.
 */
static void put_drops(struct text_out *w, const struct trace_summary *s,
		      const struct fxt_reader *r, bool html_safe)
{
	size_t i, j, k, n = fxt_reader_provider_count(r);
	bool first = true;

	text_put_char(w, '{');
	for (i = 0; i < n; i++) {
		const struct fxt_provider *p = fxt_reader_provider(r, i);
		uint64_t drops = 0;

		for (j = 0; j < i; j++)
			if (same_name(fxt_reader_provider(r, j), p))
				break;
		if (j < i)
			continue;
		for (j = i; j < n; j++) {
			if (!same_name(fxt_reader_provider(r, j), p))
				continue;
			for (k = 0; k < s->ndrops; k++)
				if (s->drops[k].provider_id ==
				    fxt_reader_provider(r, j)->id)
					drops += s->drops[k].buffer_overflows;
		}
		if (!first)
			text_put_char(w, ',');
		first = false;
		summary_json_provider_key(w, p, p->id, html_safe);
		text_put_char(w, ':');
		text_put_u64(w, drops);
	}
	/* Overflow records of providers that never had a section. */
	for (k = 0; k < s->ndrops; k++) {
		if (provider_by_id(r, s->drops[k].provider_id))
			continue;
		if (!first)
			text_put_char(w, ',');
		first = false;
		summary_json_provider_key(w, NULL, s->drops[k].provider_id,
					  html_safe);
		text_put_char(w, ':');
		text_put_u64(w, s->drops[k].buffer_overflows);
	}
	text_put_char(w, '}');
}

static void put_cpus(struct text_out *w, const struct trace_summary *s)
{
	bool first = true;
	unsigned int i;

	text_put_char(w, '[');
	for (i = 0; i < s->ncpus; i++) {
		if (!s->cpus[i].seen)
			continue;
		if (!first)
			text_put_char(w, ',');
		first = false;
		text_put_lit(w, "\n{\"cpu\":");
		text_put_u64(w, i);
		text_put_lit(w, ",\"busy_ns\":");
		text_put_u64(w, s->cpus[i].busy_ns);
		text_put_char(w, '}');
	}
	text_put_char(w, ']');
}

void summary_json_latency(struct text_out *w, const struct latency_hist *h,
			  const struct hist_pool *pool)
{
	struct hist_percentiles pct;

	latency_hist_percentiles(h, pool, &pct);
	text_put_lit(w, "\"count\":");
	text_put_u64(w, h->count);
	text_put_lit(w, ",\"p50\":");
	text_put_u64(w, pct.p50);
	text_put_lit(w, ",\"p90\":");
	text_put_u64(w, pct.p90);
	text_put_lit(w, ",\"p99\":");
	text_put_u64(w, pct.p99);
	text_put_lit(w, ",\"max\":");
	text_put_u64(w, h->max);
}

static void put_thread(struct text_out *w, const struct trace_summary *s,
		       const struct summary_thread *t, bool html_safe)
{
	struct thread_names names;

	summary_json_thread_head(w, s, t->tid, t->pid, &names, html_safe);
	text_put_lit(w, ",\"process\":");
	summary_json_string(w, names.process, names.process_len, html_safe);
	text_put_lit(w, ",\"cpu_ns\":");
	text_put_u64(w, t->cpu_ns);
	text_put_lit(w, ",\"switches\":");
	text_put_u64(w, t->switches);
	text_put_lit(w, ",\"wakeup_latency_ns\":{");
	summary_json_latency(w, &t->latency, &s->pool);
	text_put_lit(w, "}}");
}

static void put_slice(struct text_out *w, const struct summary_slice *e,
		      bool html_safe)
{
	text_put_lit(w, "\n{\"category\":");
	summary_json_string(w, e->category, e->category_len, html_safe);
	text_put_lit(w, ",\"name\":");
	summary_json_string(w, e->name, e->name_len, html_safe);
	text_put_lit(w, ",\"count\":");
	text_put_u64(w, e->count);
	text_put_lit(w, ",\"nested\":");
	text_put_u64(w, e->nested);
	text_put_lit(w, ",\"async\":");
	text_put_u64(w, e->async);
	text_put_lit(w, ",\"total_ns\":");
	text_put_u64(w, e->total_ns);
	text_put_lit(w, ",\"self_ns\":");
	text_put_u64(w, e->self_ns);
	text_put_lit(w, ",\"max_ns\":");
	text_put_u64(w, e->max_ns);
	text_put_char(w, '}');
}

/*
 * "scope": whose threads and slices follow, in words; "command_pid": the
 * process an archive of tracectl record marks as the command.
 */
static void put_scope(struct text_out *w, const struct trace_summary *s,
		      bool html_safe)
{
	char what[128];

	process_tree_describe(&s->tree, what, sizeof(what));
	text_put_lit(w, ",\n\"scope\":");
	summary_json_string(w, what, strlen(what), html_safe);
	if (s->tree.command_pid) {
		text_put_lit(w, ",\"command_pid\":");
		text_put_u64(w, s->tree.command_pid);
	}
}

int summary_json_write(struct text_out *w, const struct trace_summary *s,
		       const struct fxt_reader *r,
		       const struct summary_json_options *opt)
{
	const struct summary_thread **threads;
	const struct summary_slice **slices;
	size_t i, nthreads, nslices;

	threads = trace_summary_threads(s, &nthreads);
	slices = trace_summary_slices(s, &nslices);
	if (!threads || !slices) {
		free(threads);
		free(slices);
		return -ENOMEM;
	}
	if (opt->top && nthreads > opt->top)
		nthreads = opt->top;
	if (opt->top && nslices > opt->top)
		nslices = opt->top;
	text_put_lit(w, "{\"span_ns\":");
	text_put_u64(w, trace_summary_span_ns(s));
	put_scope(w, s, opt->html_safe);
	summary_host_json(w, &s->host, opt->html_safe);
	summary_merged_json(w, &s->merged, opt->html_safe);
	text_put_lit(w, ",\n\"drops\":");
	put_drops(w, s, r, opt->html_safe);
	text_put_lit(w, ",\n\"cpus\":");
	put_cpus(w, s);
	text_put_lit(w, ",\n\"threads\":[");
	for (i = 0; i < nthreads; i++) {
		if (i)
			text_put_char(w, ',');
		put_thread(w, s, threads[i], opt->html_safe);
	}
	text_put_lit(w, "],\n\"slices\":[");
	for (i = 0; i < nslices; i++) {
		if (i)
			text_put_char(w, ',');
		put_slice(w, slices[i], opt->html_safe);
	}
	text_put_lit(w, "],\n\"memory\":");
	free(threads);
	free(slices);
	if (summary_json_memory(w, s, opt) ||
	    stacks_json_write(w, s, opt->top, opt->html_safe))
		return -ENOMEM;
	text_put_char(w, '}');
	return 0;
}
