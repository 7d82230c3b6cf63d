// SPDX-License-Identifier: GPL-2.0-only
/* The HTML report: see report_html.h; the page is report_template.html. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text_out.h"
#include "report_html.h"
#include "report_flame.h"
#include "report_memory.h"
#include "report_template.h"
#include "summary_json.h"

#define BINS_PER_OCTAVE 4u

struct tid_set {
	uint64_t *tid;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool cpu_drawn(const struct trace_summary *s, unsigned int cpu)
{
	return cpu < s->ncpus && s->cpus[cpu].seen &&
	       cpu_timeline_row(&s->timeline, cpu);
}

/* The threads of the memory chart's stalls, at set->tid + n. */
static size_t collect_stall_tids(const struct trace_summary *s,
				 struct tid_set *set, size_t n)
{
	const struct memory_stall_cell *row;
	unsigned int k;
	size_t i;

	for (k = 0; k < MEMORY_TIMELINE_STALLS; k++) {
		row = memory_timeline_stall_row(&s->memory_timeline, k);
		for (i = 0; row && i < MEMORY_TIMELINE_COLUMNS; i++)
			if (row[i].marked)
				set->tid[n++] = row[i].tid;
	}
	return n;
}

/* Every thread the timeline and memory chart show, sorted, each once. */
static int collect_tids(const struct trace_summary *s, struct tid_set *set)
{
	const struct cpu_timeline *tl = &s->timeline;
	size_t i, n = 0, cap = (size_t)tl->ncpus * TIMELINE_COLUMNS +
			      MEMORY_TIMELINE_STALLS * MEMORY_TIMELINE_COLUMNS;
	unsigned int cpu;

	set->n = 0;
	set->tid = malloc(cap * sizeof(*set->tid));
	if (!set->tid)
		return -ENOMEM;
	for (cpu = 0; cpu < tl->ncpus; cpu++) {
		const struct timeline_cell *row = cpu_timeline_row(tl, cpu);

		if (!cpu_drawn(s, cpu))
			continue;
		for (i = 0; i < TIMELINE_COLUMNS; i++)
			if (row[i].busy_ns)
				set->tid[n++] = row[i].tid;
	}
	n = collect_stall_tids(s, set, n);
	qsort(set->tid, n, sizeof(*set->tid), cmp_u64);
	for (i = 0; i < n; i++)
		if (!set->n || set->tid[set->n - 1] != set->tid[i])
			set->tid[set->n++] = set->tid[i];
	return 0;
}

static size_t tid_index(const struct tid_set *set, uint64_t tid)
{
	const uint64_t *p = bsearch(&tid, set->tid, set->n, sizeof(tid),
				    cmp_u64);

	return p ? (size_t)(p - set->tid) : 0;
}

/*
 * Busy share of a cell in tens of percent: runs merge cells alike. A cell
 * can hold more than its width (stretches that overlap, out of order).
 */
static unsigned int busy_percent(const struct cpu_timeline *tl,
				 const struct timeline_cell *c)
{
	uint64_t pct;

	if (c->busy_ns >= tl->cell_ns)
		return 100;
	pct = (c->busy_ns * 10 + tl->cell_ns / 2) / tl->cell_ns * 10;
	return pct > 100 ? 100 : pct < 10 ? 10 : (unsigned int)pct;
}

static void put_run(struct text_out *w, bool *first, size_t col, size_t len,
		    size_t name, unsigned int pct)
{
	summary_json_next(w, first);
	text_put_char(w, '[');
	text_put_u64(w, col);
	text_put_char(w, ',');
	text_put_u64(w, len);
	text_put_char(w, ',');
	text_put_u64(w, name);
	text_put_char(w, ',');
	text_put_u64(w, pct);
	text_put_char(w, ']');
}

static void put_lane(struct text_out *w, const struct trace_summary *s,
		     const struct tid_set *set, unsigned int cpu)
{
	const struct cpu_timeline *tl = &s->timeline;
	const struct timeline_cell *row = cpu_timeline_row(tl, cpu);
	size_t i, start = 0, name = 0;
	unsigned int pct = 0;
	bool open = false, first = true;

	text_put_lit(w, "\n{\"cpu\":");
	text_put_u64(w, cpu);
	text_put_lit(w, ",\"runs\":[");
	for (i = 0; i <= TIMELINE_COLUMNS; i++) {
		const struct timeline_cell *c = i < TIMELINE_COLUMNS ? &row[i] :
								       NULL;
		bool busy = c && c->busy_ns;
		size_t n = busy ? tid_index(set, c->tid) : 0;
		unsigned int p = busy ? busy_percent(tl, c) : 0;

		if (open && (!busy || n != name || p != pct)) {
			put_run(w, &first, start, i - start, name, pct);
			open = false;
		}
		if (busy && !open) {
			open = true;
			start = i;
			name = n;
			pct = p;
		}
	}
	text_put_lit(w, "]}");
}

static void put_timeline(struct text_out *w, const struct trace_summary *s,
			 const struct tid_set *set)
{
	const struct cpu_timeline *tl = &s->timeline;
	bool first = true;
	unsigned int cpu;

	text_put_lit(w, ",\n\"timeline\":{\"cell_ns\":");
	text_put_u64(w, tl->started ? tl->cell_ns : 1);
	text_put_lit(w, ",\"t0_ns\":");
	text_put_u64(w, tl->started ? tl->t0_ns : 0);
	text_put_lit(w, ",\"columns\":");
	text_put_u64(w, TIMELINE_COLUMNS);
	text_put_lit(w, ",\"length_ns\":");
	text_put_u64(w, tl->started && s->last_sched_ns > tl->t0_ns ?
				s->last_sched_ns - tl->t0_ns : 0);
	text_put_lit(w, ",\"cpus\":[");
	for (cpu = 0; cpu < tl->ncpus; cpu++) {
		if (!cpu_drawn(s, cpu))
			continue;
		summary_json_next(w, &first);
		put_lane(w, s, set, cpu);
	}
	text_put_lit(w, "]}");
}

static void put_names(struct text_out *w, const struct trace_summary *s,
		      const struct tid_set *set)
{
	size_t i;

	text_put_lit(w, ",\n\"names\":[");
	for (i = 0; i < set->n; i++) {
		const struct summary_thread *t =
			trace_summary_thread(s, set->tid[i]);
		struct thread_names names;

		trace_summary_names(s, set->tid[i], t ? t->pid : 0, &names);
		if (i)
			text_put_char(w, ',');
		text_put_lit(w, "\n[");
		text_put_u64(w, set->tid[i]);
		text_put_char(w, ',');
		text_put_u64(w, names.pid);
		text_put_char(w, ',');
		summary_json_string(w, names.name, names.name_len, true);
		text_put_char(w, ',');
		summary_json_string(w, names.process, names.process_len, true);
		text_put_char(w, ']');
	}
	text_put_char(w, ']');
}

/*
 * Display bins: a quarter of a power of two each (values under 4 have
 * their own); the histogram's finer buckets are summed into them.
 */
static unsigned int display_bin(uint64_t v)
{
	unsigned int octave;

	if (v < 4)
		return (unsigned int)v;
	octave = 63u - (unsigned int)__builtin_clzll(v);
	return octave * BINS_PER_OCTAVE + ((unsigned int)(v >> (octave - 2)) & 3);
}

/* UINT64_MAX for the bin past the last: 2^64 has no uint64_t. */
static uint64_t display_bin_low(unsigned int bin)
{
	unsigned int octave = bin / BINS_PER_OCTAVE;

	if (bin < 4)
		return bin;
	if (octave > 63)
		return UINT64_MAX;
	return (1ull << octave) + ((uint64_t)(bin % 4) << (octave - 2));
}

static uint64_t display_bin_high(unsigned int bin)
{
	return bin < 3 ? bin + 1 : display_bin_low(bin < 4 ? 8 : bin + 1);
}

/*
 * The wakeup latencies of the threads the summary keeps to (the page's
 * scope, as its threads table): into h, its pages in pool.
 */
static int scoped_latency(const struct trace_summary *s, struct latency_hist *h,
			  struct hist_pool *pool)
{
	const struct summary_thread **threads;
	size_t i, n;
	int err = 0;

	hist_pool_init(pool,
		       (size_t)HIST_PAGES * HIST_SUB_COUNT * sizeof(uint32_t));
	threads = trace_summary_threads(s, &n);
	if (!threads)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++)
		err = latency_hist_merge(h, pool, &threads[i]->latency,
					 &s->pool);
	free(threads);
	return err;
}

static int put_latency(struct text_out *w, const struct trace_summary *s)
{
	struct latency_hist scoped = { 0 }, *h = &scoped;
	struct hist_pool pool;
	unsigned int b, bin = 0;
	uint64_t count = 0;
	bool first = true;
	int err = scoped_latency(s, h, &pool);

	text_put_lit(w, ",\n\"latency\":{");
	summary_json_latency(w, h, &pool);
	text_put_lit(w, ",\"bins\":[");
	for (b = 0; b <= HIST_BUCKETS; b++) {
		uint32_t n = b < HIST_BUCKETS ?
				     latency_hist_bucket_count(h, &pool, b) :
				     0;
		unsigned int d = b < HIST_BUCKETS ?
					 display_bin(hist_bucket_low(b)) :
					 ~0u;

		if (d != bin && count) {
			summary_json_next(w, &first);
			text_put_char(w, '[');
			text_put_u64(w, display_bin_low(bin));
			text_put_char(w, ',');
			text_put_u64(w, display_bin_high(bin));
			text_put_char(w, ',');
			text_put_u64(w, count);
			text_put_char(w, ']');
			count = 0;
		}
		if (n) {
			bin = d;
			count += n;
		}
	}
	text_put_lit(w, "]}");
	latency_hist_free(h);
	hist_pool_free(&pool);
	return err;
}

static void put_raw(struct text_out *w, const char *text, size_t len)
{
	while (len) {
		size_t n = len < TEXT_OUT_MAX_PIECE ? len :
							 TEXT_OUT_MAX_PIECE;

		text_put_mem(w, text, n);
		text += n;
		len -= n;
	}
}

int report_html_write(int fd, const struct trace_summary *s,
		      const struct fxt_reader *r, const char *title,
		      const struct report_more *more)
{
	struct summary_json_options opt = { .top = REPORT_TOP,
					    .html_safe = true };
	const struct summary_thread **threads;
	const struct summary_slice **slices;
	struct tid_set set;
	struct text_out w;
	size_t nthreads, nslices;
	int ret, wret;

	ret = text_out_init(&w, fd, 1u << 20);
	if (ret)
		return ret;
	threads = trace_summary_threads(s, &nthreads);
	slices = trace_summary_slices(s, &nslices);
	ret = threads && slices ? collect_tids(s, &set) : -ENOMEM;
	free(threads);
	free(slices);
	if (ret) {
		text_out_finish(&w);
		return ret;
	}
	put_raw(&w, report_page_head, sizeof(report_page_head) - 1);
	text_put_lit(&w, "{\"title\":");
	summary_json_string(&w, title, strlen(title), true);
	text_put_lit(&w, ",\"records\":");
	text_put_u64(&w, fxt_reader_stats(r)->records);
	text_put_lit(&w, ",\"thread_count\":");
	text_put_u64(&w, nthreads);
	text_put_lit(&w, ",\"slice_count\":");
	text_put_u64(&w, nslices);
	text_put_lit(&w, ",\n\"summary\":");
	ret = summary_json_write(&w, s, r, &opt);
	put_timeline(&w, s, &set);
	put_names(&w, s, &set);
	if (!ret)
		ret = put_latency(&w, s);
	if (!ret)
		ret = report_memory_write(&w, s);
	if (!ret)
		ret = report_flame_write(&w, s);
	if (!ret && more)
		ret = more->write(&w, more->ctx);
	text_put_char(&w, '}');
	put_raw(&w, report_page_tail, sizeof(report_page_tail) - 1);
	free(set.tid);
	wret = text_out_finish(&w);
	return ret ? ret : wret;
}
