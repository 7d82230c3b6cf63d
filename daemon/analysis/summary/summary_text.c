// SPDX-License-Identifier: GPL-2.0-only
/* A trace summary as a text table: see summary_text.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "summary_host.h"
#include "stacks_text.h"
#include "summary_text.h"
#include "text_cells.h"
#include "text_out.h"
#include "utf8.h"

#define NAME_WIDTH 24

/* "512 B", "1.50 KiB", "300 MiB": three figures. */
static const char *fmt_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	unsigned int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, !u ? "%.0f %s" : v < 10 ? "%.2f %s" :
				 v < 100 ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

/* The last columns of a thread's row, THREAD and PROCESS, and its end. */
static void put_thread_names(FILE *out, const struct thread_names *names)
{
	summary_text_name(out, names->name, names->name_len, NAME_WIDTH, true);
	fprintf(out, " ");
	summary_text_name(out, names->process, names->process_len, NAME_WIDTH,
			  false);
	fprintf(out, "\n");
}

/* Under a list of n rows that shows top: how many it leaves out. */
static void put_more(FILE *out, size_t n, size_t top, const char *what)
{
	if (n > top)
		fprintf(out, "(%zu more %s; --top N shows more)\n", n - top,
			what);
}

static void print_drops(FILE *out, const struct trace_summary *s,
			const struct fxt_reader *r)
{
	size_t i, j, shown = 0;

	for (i = 0; i < s->ndrops; i++) {
		const struct fxt_provider *p = NULL;

		for (j = 0; j < fxt_reader_provider_count(r); j++)
			if (fxt_reader_provider(r, j)->id ==
			    s->drops[i].provider_id)
				p = fxt_reader_provider(r, j);
		fprintf(out, "%s provider %" PRIu32 " ",
			shown++ ? "," : " drops:", s->drops[i].provider_id);
		if (p)
			summary_text_name(out, p->name.data, p->name.len, 32,
					  false);
		fprintf(out, " buffer full %" PRIu64 "x",
			s->drops[i].buffer_overflows);
	}
	fprintf(out, shown ? " (records were lost)\n" : " drops: none\n");
}

/* Whose threads and slices the tables hold, and how to see the rest. */
static void print_scope(FILE *out, const struct trace_summary *s)
{
	char what[128];

	if (!process_tree_active(&s->tree))
		return;
	process_tree_describe(&s->tree, what, sizeof(what));
	fprintf(out, "Threads and slices of %s", what);
	if (s->tree.not_followed)
		fprintf(out, " (%" PRIu64 " forks past the limit not followed)",
			s->tree.not_followed);
	fprintf(out, "; --all for every process\n");
}

static void print_cpus(FILE *out, const struct trace_summary *s)
{
	uint64_t span = trace_summary_span_ns(s);
	char a[32];
	unsigned int i, n = 0;

	for (i = 0; i < s->ncpus; i++)
		n += s->cpus[i].seen;
	if (!n)
		return;
	fprintf(out, "\nCPU    BUSY       %%\n");
	for (i = 0; i < s->ncpus; i++) {
		if (!s->cpus[i].seen)
			continue;
		fprintf(out, "%3u  %9s  %5.1f%%\n", i,
			summary_text_ns(a, sizeof(a), s->cpus[i].busy_ns),
			span ? 100.0 * (double)s->cpus[i].busy_ns /
					(double)span :
			       0.0);
	}
}

static void print_thread(FILE *out, const struct trace_summary *s,
			 const struct summary_thread *t)
{
	char a[32], b[32], c[32], d[32], e[32];
	struct hist_percentiles pct;
	struct thread_names names;

	trace_summary_names(s, t->tid, t->pid, &names);
	latency_hist_percentiles(&t->latency, &s->pool, &pct);
	fprintf(out, "%9s %8" PRIu64 " %8" PRIu64,
		summary_text_ns(a, sizeof(a), t->cpu_ns), t->switches,
		t->latency.count);
	if (t->latency.count)
		fprintf(out, " %9s %9s %9s %9s",
			summary_text_ns(b, sizeof(b), pct.p50),
			summary_text_ns(c, sizeof(c), pct.p90),
			summary_text_ns(d, sizeof(d), pct.p99),
			summary_text_ns(e, sizeof(e), t->latency.max));
	else
		fprintf(out, " %9s %9s %9s %9s", "-", "-", "-", "-");
	fprintf(out, " %8" PRIu64 " %8" PRIu64 "  ", t->tid, names.pid);
	put_thread_names(out, &names);
}

static int print_threads(FILE *out, const struct trace_summary *s,
			 size_t top)
{
	const struct summary_thread **v;
	size_t i, n;

	v = trace_summary_threads(s, &n);
	if (!v)
		return -ENOMEM;
	if (n) {
		fprintf(out, "\nTHREADS by CPU time\n");
		fprintf(out, "%9s %8s %8s %9s %9s %9s %9s %8s %8s  %-*s %s\n",
			"CPU", "SWITCHES", "WAKEUPS", "WAIT p50", "p90", "p99",
			"max", "TID", "PID", NAME_WIDTH, "THREAD", "PROCESS");
	}
	for (i = 0; i < n && i < top; i++)
		print_thread(out, s, v[i]);
	put_more(out, n, top, "threads");
	free(v);
	return 0;
}

static int print_slices(FILE *out, const struct trace_summary *s,
			size_t top)
{
	const struct summary_slice **v;
	char a[32], b[32], c[32];
	size_t i, n;

	v = trace_summary_slices(s, &n);
	if (!v)
		return -ENOMEM;
	if (n)
		fprintf(out, "\nSLICES by total time\n%9s %9s %9s %9s  %s\n",
			"TOTAL", "SELF", "COUNT", "MAX", "CATEGORY / NAME");
	for (i = 0; i < n && i < top; i++) {
		fprintf(out, "%9s %9s %9" PRIu64 " %9s  ",
			summary_text_ns(a, sizeof(a), v[i]->total_ns),
			summary_text_ns(b, sizeof(b), v[i]->self_ns),
			v[i]->count,
			summary_text_ns(c, sizeof(c), v[i]->max_ns));
		summary_text_name(out, v[i]->category, v[i]->category_len, 16,
				  false);
		fprintf(out, " / ");
		summary_text_name(out, v[i]->name, v[i]->name_len,
				  SUMMARY_TEXT_NAME_MAX, false);
		fprintf(out, "\n");
	}
	put_more(out, n, top, "slices");
	free(v);
	return 0;
}

static void print_memory_processes(FILE *out, const struct trace_summary *s,
				   size_t top)
{
	const struct memory_process **v;
	struct thread_names names;
	char a[32], b[32];
	size_t i, n;

	v = memory_summary_processes(&s->memory, &n);
	if (n)
		fprintf(out, "\nMEMORY: peak RSS by process\n%10s %10s %8s  %s\n",
			"PEAK RSS", "PEAK SWAP", "PID", "PROCESS");
	for (i = 0; i < n && i < top; i++) {
		trace_summary_names(s, v[i]->pid, v[i]->pid, &names);
		fprintf(out, "%10s %10s %8" PRIu64 "  ",
			fmt_bytes(a, sizeof(a), v[i]->peak_rss),
			fmt_bytes(b, sizeof(b), v[i]->peak_swap), v[i]->pid);
		summary_text_name(out, names.process, names.process_len,
				  NAME_WIDTH, false);
		fprintf(out, "\n");
	}
	put_more(out, n, top, "processes");
	free(v);
}

static void print_memory_stall(FILE *out, const struct trace_summary *s,
			       const struct memory_thread *t)
{
	char a[32], b[32], c[32], d[32];
	struct thread_names names;

	trace_summary_names(s, t->tid, t->pid, &names);
	fprintf(out, "%9s %9s %9s %9s %8" PRIu64 " %8" PRIu64 "  ",
		summary_text_ns(a, sizeof(a), memory_thread_stall_ns(t)),
		summary_text_ns(b, sizeof(b),
				t->stall_ns[MEMORY_STALL_DIRECT_RECLAIM]),
		summary_text_ns(c, sizeof(c),
				t->stall_ns[MEMORY_STALL_MEMCG_RECLAIM]),
		summary_text_ns(d, sizeof(d),
				t->stall_ns[MEMORY_STALL_COMPACTION]),
		t->tid, names.pid);
	put_thread_names(out, &names);
}

static void print_memory_stalls(FILE *out, const struct trace_summary *s,
				size_t top)
{
	const struct memory_thread **v;
	size_t i, n;

	v = memory_summary_stalled(&s->memory, &n);
	if (n)
		fprintf(out, "\nMEMORY: reclaim and compaction stalls by thread\n"
			"%9s %9s %9s %9s %8s %8s  %-*s %s\n", "STALLED",
			"DIRECT", "MEMCG", "COMPACT", "TID", "PID", NAME_WIDTH,
			"THREAD", "PROCESS");
	for (i = 0; i < n && i < top; i++)
		print_memory_stall(out, s, v[i]);
	put_more(out, n, top, "threads");
	free(v);
}

/* kernel:mem (include/fxt/kmem.h): nothing when the trace has none. */
static void print_memory(FILE *out, const struct trace_summary *s,
			 size_t top)
{
	const struct memory_summary *m = &s->memory;
	char a[32];
	uint32_t i;

	if (!m->records)
		return;
	print_memory_processes(out, s, top);
	print_memory_stalls(out, s, top);
	if (m->nooms)
		fprintf(out, "\nMEMORY: OOM kills\n%10s %8s  %s\n", "RSS",
			"PID", "NAME");
	for (i = 0; i < m->nooms; i++) {
		fprintf(out, "%10s %8" PRIu64 "  ",
			fmt_bytes(a, sizeof(a), m->ooms[i].rss),
			m->ooms[i].pid);
		summary_text_name(out, m->ooms[i].name, m->ooms[i].name_len,
				  NAME_WIDTH, false);
		fprintf(out, "\n");
	}
	if (m->ooms_lost)
		fprintf(out, "(%" PRIu64 " more OOM kills)\n", m->ooms_lost);
}

int summary_text_write(FILE *out, const struct trace_summary *s,
		       const struct fxt_reader *r,
		       const struct summary_text_options *opt)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(r);
	size_t top = opt->top ? opt->top : SUMMARY_TEXT_TOP_DEFAULT;
	char span[32];
	int ret;

	fprintf(out, "%s: %s traced, %" PRIu64 " records;", opt->input,
		summary_text_ns(span, sizeof(span), trace_summary_span_ns(s)),
		rs->records);
	print_drops(out, s, r);
	summary_host_text(out, &s->host);
	summary_merged_text(out, &s->merged);
	print_scope(out, s);
	print_cpus(out, s);
	ret = print_threads(out, s, top);
	if (!ret)
		ret = print_slices(out, s, top);
	if (!ret)
		print_memory(out, s, top);
	if (!ret)
		ret = stacks_text_write(out, s, opt->top);
	return ret;
}
