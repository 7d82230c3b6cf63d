// SPDX-License-Identifier: GPL-2.0-only
/* One-pass trace summary: see trace_summary.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_saturate.h"
#include "trace_summary.h"

#define PROGRESS_EVERY 0xffffu	/* records between progress calls, minus 1 */
#define OPEN_SLICES_MAX 256u /* nesting deeper than this is not timed */
#define SLICE_TEXT_MAX 256u	/* longer names are cut */
#define DROPS_MAX 256u

static const char other_slices[] = "(other)";

/* ---- threads -------------------------------------------------------- */

static uint64_t thread_hash(const void *ctx, uint32_t i)
{
	const struct trace_summary *s = ctx;

	return hash_u64(s->threads[i].tid);
}

const struct summary_thread *
trace_summary_thread(const struct trace_summary *s, uint64_t tid)
{
	const struct hash_index *x = &s->thread_index;
	uint32_t slot, e;

	if (!x->slots)
		return NULL;
	for (slot = hash_index_first(x, hash_u64(tid)); (e = x->slots[slot]);
	     slot = hash_index_next(x, slot))
		if (s->threads[e - 1].tid == tid)
			return &s->threads[e - 1];
	return NULL;
}

/* The thread, added on first sight; NULL past the maximum or on ENOMEM. */
static struct summary_thread *get_thread(struct trace_summary *s, uint64_t tid,
					 uint64_t pid, int *err)
{
	struct summary_thread *t;
	uint32_t slot;

	t = (struct summary_thread *)trace_summary_thread(s, tid);
	if (t)
		goto found;
	if (s->nthreads == SUMMARY_THREADS_MAX) {
		s->threads_untracked++;
		return NULL;
	}
	if (hash_index_reserve(&s->thread_index, s->nthreads + 1, 1024,
			       thread_hash, s))
		goto nomem;
	if (s->nthreads == s->threads_cap) {
		uint32_t cap = s->threads_cap ? s->threads_cap * 2 : 256;
		void *p = realloc(s->threads, (size_t)cap * sizeof(*s->threads));

		if (!p)
			goto nomem;
		s->threads = p;
		s->threads_cap = cap;
	}
	t = &s->threads[s->nthreads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	slot = hash_index_free_slot(&s->thread_index, hash_u64(tid));
	s->thread_index.slots[slot] = ++s->nthreads;
found:
	if (pid && !t->pid)
		t->pid = pid;
	return t;
nomem:
	*err = -ENOMEM;
	return NULL;
}

/* ---- slices --------------------------------------------------------- */

/* Kept length of a name: at most SLICE_TEXT_MAX, cut at a code point. */
static size_t cut(const struct fxt_str *s)
{
	size_t len = SLICE_TEXT_MAX;

	if (s->len <= SLICE_TEXT_MAX)
		return s->len;
	while (len && ((unsigned char)s->data[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* Of the kept text: names alike in their first SLICE_TEXT_MAX bytes are one. */
static uint64_t slice_hash(const struct fxt_str *cat, const struct fxt_str *name)
{
	uint64_t h = hash_bytes(HASH_SEED, cat->data, cut(cat));

	h ^= (uint64_t)cut(cat) << 40;
	return hash_bytes(h, name->data, cut(name)) ^ cut(name);
}

static bool slice_is(const struct summary_slice *e, const struct fxt_str *cat,
		     const struct fxt_str *name)
{
	return e->category_len == cut(cat) && e->name_len == cut(name) &&
	       !memcmp(e->category, cat->data, e->category_len) &&
	       !memcmp(e->name, name->data, e->name_len);
}

static uint64_t slice_hash_of(const void *ctx, uint32_t i)
{
	const struct trace_summary *s = ctx;

	return s->slices[i].hash;
}

static int grow_slice_index(struct trace_summary *s, uint32_t count)
{
	return hash_index_reserve(&s->slice_index, count, 256, slice_hash_of,
				  s) ? -ENOMEM : 0;
}

static char *copy_text(const char *p, size_t len)
{
	char *c = malloc(len + 1);

	if (c) {
		memcpy(c, p, len);
		c[len] = '\0';
	}
	return c;
}

static int add_slice(struct trace_summary *s, const struct fxt_str *cat,
		     const struct fxt_str *name, uint64_t hash, uint32_t slot)
{
	struct summary_slice *e;

	if (s->nslices == s->slices_cap) {
		uint32_t cap = s->slices_cap ? s->slices_cap * 2 : 64;
		void *p = realloc(s->slices, (size_t)cap * sizeof(*s->slices));

		if (!p)
			return -ENOMEM;
		s->slices = p;
		s->slices_cap = cap;
	}
	e = &s->slices[s->nslices];
	memset(e, 0, sizeof(*e));
	e->hash = hash;
	e->category_len = (uint32_t)cut(cat);
	e->name_len = (uint32_t)cut(name);
	e->category = copy_text(cat->data, e->category_len);
	e->name = copy_text(name->data, e->name_len);
	if (!e->category || !e->name) {
		free(e->category);
		free(e->name);
		return -ENOMEM;
	}
	s->slice_index.slots[slot] = ++s->nslices;
	return 0;
}

/* The index of the slice (category, name); -ENOMEM. */
static int64_t find_slice(struct trace_summary *s, const struct fxt_str *cat,
			  const struct fxt_str *name)
{
	static const struct fxt_str other = { other_slices,
					      sizeof(other_slices) - 1 };
	const struct hash_index *x = &s->slice_index;
	uint32_t slot, e;
	uint64_t hash;

	for (;;) {
		hash = slice_hash(cat, name);
		for (slot = hash_index_first(x, hash); (e = x->slots[slot]);
		     slot = hash_index_next(x, slot))
			if (s->slices[e - 1].hash == hash &&
			    slice_is(&s->slices[e - 1], cat, name))
				return e - 1;
		/* Past the maximum, everything new goes to "(other)". */
		if (s->nslices < SUMMARY_SLICES_MAX || name == &other)
			break;
		s->slices_lumped++;
		cat = &other;
		name = &other;
	}
	if (!hash_index_fits(x, s->nslices + 1)) {
		if (grow_slice_index(s, s->nslices + 1))
			return -ENOMEM;
		slot = hash_index_free_slot(x, hash);
	}
	if (add_slice(s, cat, name, hash, slot))
		return -ENOMEM;
	return s->nslices - 1;
}

/*
 * A slice of t ended: its self time leaves out its children, its total
 * time counts a recursion once (slice_nesting.h).
 */
static int end_slice(struct trace_summary *s, struct summary_thread *t,
		     uint32_t slice, uint64_t start_ns, uint64_t end_ns)
{
	struct summary_slice *e = &s->slices[slice];
	uint64_t dur = end_ns > start_ns ? end_ns - start_ns : 0;
	struct slice_ended in;
	int err;

	err = slice_nesting_end(&t->nest, &s->budget, slice, s->nslices,
				start_ns, end_ns, &in);
	slice_watch_offer(&s->watch, e->category, e->category_len, e->name,
			  e->name_len, t->tid, t->pid,
			  start_ns, end_ns);
	e->count++;
	e->nested += in.same_n;
	e->total_ns = fxt_sat_add(e->total_ns,
				  dur > in.same_ns ? dur - in.same_ns : 0);
	e->self_ns = fxt_sat_add(
		e->self_ns, dur > in.children_ns ? dur - in.children_ns : 0);
	if (!e->max_tid || dur > e->max_end_ns - e->max_start_ns) {
		e->max_tid = t->tid;
		e->max_start_ns = start_ns;
		e->max_end_ns = start_ns + dur;
	}
	if (dur > e->max_ns)
		e->max_ns = dur;
	return err;
}

/*
 * An async span (a coroutine, a task: async begin to end of one id, on
 * any thread) is a slice too, of the thread that began it; the kernel's
 * (block requests) are not.
 */
static int on_async(struct trace_summary *s, const struct fxt_record *rec,
		    uint64_t ns)
{
	const struct fxt_str *cat = &rec->event.category;
	struct summary_slice *e;
	uint64_t key, start, dur;
	int64_t slice;

	if (cat->len >= 7 && !memcmp(cat->data, "kernel:", 7))
		return 0;
	slice = find_slice(s, cat, &rec->event.name);
	if (slice < 0)
		return (int)slice;
	key = async_spans_key(rec->event.thread.pid, rec->event.extra,
			      (uint32_t)slice);
	if (rec->event.type == FXT_EVENT_ASYNC_BEGIN)
		return async_spans_begin(&s->async, key, ns);
	if (!async_spans_end(&s->async, key, &start))
		return 0;
	e = &s->slices[slice];
	dur = ns > start ? ns - start : 0;
	e->count++;
	e->async++;
	e->total_ns = fxt_sat_add(e->total_ns, dur);
	e->self_ns = fxt_sat_add(e->self_ns, dur);
	if (dur > e->max_ns)
		e->max_ns = dur;
	return 0;
}

static int on_event(struct trace_summary *s, const struct fxt_record *rec,
		    uint64_t ns)
{
	const struct fxt_thread_id *th = &rec->event.thread;
	struct summary_thread *t;
	struct slice_closed begin;
	int64_t slice;
	int err = 0;

	switch (rec->event.type) {
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
	case FXT_EVENT_DURATION_COMPLETE:
		break;
	case FXT_EVENT_ASYNC_BEGIN:
	case FXT_EVENT_ASYNC_END:
		return process_tree_has(&s->tree, th->pid) ?
			       on_async(s, rec, ns) :
			       0;
	default:
		return 0;
	}
	if (!process_tree_has(&s->tree, th->pid))
		return 0;
	t = get_thread(s, th->tid, th->pid, &err);
	if (!t)
		return err;
	if (rec->event.type == FXT_EVENT_DURATION_END) {
		if (slice_match_end(&s->match, th->pid, th->tid, &begin))
			return end_slice(s, t, begin.tag, begin.ns, ns);
		return 0;
	}
	slice = find_slice(s, &rec->event.category, &rec->event.name);
	if (slice < 0)
		return (int)slice;
	if (rec->event.type == FXT_EVENT_DURATION_BEGIN)
		return slice_match_begin(&s->match, th->pid, th->tid, ns,
					 (uint32_t)slice, NULL, 0);
	return end_slice(s, t, (uint32_t)slice, ns,
			 fxt_ticks_to_ns(rec->provider, rec->event.extra));
}

/* ---- scheduling ----------------------------------------------------- */

static struct summary_cpu *get_cpu(struct trace_summary *s, unsigned int n)
{
	if (n >= s->ncpus) {
		unsigned int count = s->ncpus ? s->ncpus : 16;
		struct summary_cpu *p;

		while (count <= n)
			count *= 2;
		p = realloc(s->cpus, count * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + s->ncpus, 0, (count - s->ncpus) * sizeof(*p));
		s->cpus = p;
		s->ncpus = count;
	}
	return &s->cpus[n];
}

/* The stretch running on the CPU ends at ns. */
static int end_stretch(struct trace_summary *s, unsigned int n,
		       struct cpu_state *run, struct summary_cpu *cpu,
		       uint64_t ns)
{
	struct summary_thread *t;
	uint64_t dur;
	int err = 0;

	if (!run->running)
		return 0;
	run->running = false;
	dur = ns > run->start_ns ? ns - run->start_ns : 0;
	cpu->busy_ns = fxt_sat_add(cpu->busy_ns, dur);
	t = get_thread(s, run->tid, run->pid, &err);
	if (t) {
		t->cpu_ns = fxt_sat_add(t->cpu_ns, dur);
		t->on_cpu = false;
	}
	if (!err && s->opt.timeline)
		err = cpu_timeline_add(&s->timeline, n, run->tid, run->start_ns,
				       ns);
	return err;
}

static int switch_in(struct trace_summary *s, const struct cpu_state *run,
		     uint64_t ns)
{
	struct summary_thread *t;
	int err = 0;

	t = get_thread(s, run->tid, run->pid, &err);
	if (!t)
		return err;
	t->switches++;
	t->on_cpu = true;
	if (t->wake_pending && ns >= t->wake_ns) {
		t->wake_pending = false;
		err = latency_hist_add(&t->latency, &s->pool, ns - t->wake_ns);
	}
	return err;
}

static int wakeup(struct trace_summary *s, const struct fxt_record *rec,
		  uint64_t ns)
{
	const struct fxt_thread_id *woken = &rec->sched.woken;
	struct summary_thread *t;
	int err = 0;

	if (!woken->tid)
		return 0;
	t = get_thread(s, woken->tid, woken->pid, &err);
	if (!t || t->on_cpu || t->wake_pending)
		return err;
	t->wake_pending = true;
	t->wake_ns = ns;
	return 0;
}

static int on_sched(struct trace_summary *s, const struct fxt_record *rec,
		    uint64_t ns)
{
	unsigned int n = rec->sched.cpu;
	struct cpu_state *run = cpu_tracks_get(&s->running, n);
	struct summary_cpu *cpu = get_cpu(s, n);
	int err;

	if (!run || !cpu)
		return -ENOMEM;
	cpu->seen = true;
	if (ns > s->last_sched_ns)
		s->last_sched_ns = ns;
	switch (rec->sched.type) {
	case FXT_SCHED_CONTEXT_SWITCH:
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		err = end_stretch(s, n, run, cpu, ns);
		if (err)
			return err;
		cpu_state_switch_in(run, rec, ns);
		return run->running ? switch_in(s, run, ns) : 0;
	case FXT_SCHED_THREAD_WAKEUP:
		return wakeup(s, rec, ns);
	default:
		return 0;
	}
}

/* ---- names, drops, the driver --------------------------------------- */

static void on_kernel_object(struct trace_summary *s,
			     const struct fxt_record *rec)
{
	const struct fxt_str *name = &rec->kernel_object.name;
	uint64_t koid = rec->kernel_object.koid;

	if (!name->len)
		return;
	if (rec->kernel_object.obj_type == FXT_ZX_OBJ_PROCESS)
		name_cache_set(s->names, NAME_PROCESS, koid, 0, name->data,
			       name->len);
	else if (rec->kernel_object.obj_type == FXT_ZX_OBJ_THREAD)
		name_cache_set(s->names, NAME_THREAD, koid,
			       name_cache_thread_object_pid(rec), name->data,
			       name->len);
}

static int count_drop(struct trace_summary *s, uint32_t provider_id)
{
	size_t i;

	for (i = 0; i < s->ndrops; i++) {
		if (s->drops[i].provider_id == provider_id) {
			s->drops[i].buffer_overflows++;
			return 0;
		}
	}
	if (s->ndrops == DROPS_MAX)
		return 0;
	if (!s->drops) {
		s->drops = calloc(DROPS_MAX, sizeof(*s->drops));
		if (!s->drops)
			return -ENOMEM;
	}
	s->drops[s->ndrops].provider_id = provider_id;
	s->drops[s->ndrops].buffer_overflows = 1;
	s->ndrops++;
	return 0;
}

static void saw_time(struct trace_summary *s, uint64_t ns)
{
	if (!s->have_ts) {
		s->have_ts = true;
		s->first_ns = s->last_ns = ns;
	} else if (ns < s->first_ns) {
		s->first_ns = ns;
	} else if (ns > s->last_ns) {
		s->last_ns = ns;
	}
}

static int dispatch(struct trace_summary *s, const struct fxt_record *rec)
{
	uint64_t ns;
	int err = process_tree_record(&s->tree, rec);

	if (err)
		return err;

	switch (rec->type) {
	case FXT_RECORD_EVENT:
		ns = fxt_ticks_to_ns(rec->provider, rec->event.ts);
		saw_time(s, ns);
		if (rec->event.type == FXT_EVENT_DURATION_COMPLETE)
			saw_time(s, fxt_ticks_to_ns(rec->provider,
						    rec->event.extra));
		return on_event(s, rec, ns);
	case FXT_RECORD_SCHEDULING:
		ns = fxt_ticks_to_ns(rec->provider, rec->sched.ts);
		saw_time(s, ns);
		return on_sched(s, rec, ns);
	case FXT_RECORD_LOG:
		saw_time(s, fxt_ticks_to_ns(rec->provider, rec->log.ts));
		return 0;
	case FXT_RECORD_KERNEL_OBJECT:
		on_kernel_object(s, rec);
		return 0;
	case FXT_RECORD_THREAD:
		name_cache_set_pid(s->names, rec->thread.thread.tid,
				   rec->thread.thread.pid);
		return 0;
	case FXT_RECORD_METADATA:
		if (rec->metadata.type == FXT_METADATA_PROVIDER_EVENT &&
		    rec->metadata.event_id == FXT_PROVIDER_EVENT_BUFFER_OVERFLOW)
			return count_drop(s, rec->metadata.provider_id);
		return 0;
	default:
		return 0;
	}
}

int trace_summary_init(struct trace_summary *s,
		       const struct trace_summary_options *opt)
{
	/* the open begins share the budget of the ended slices' nesting */
	struct slice_match_bounds open = {
		.threads = SUMMARY_THREADS_MAX,
		.depth = OPEN_SLICES_MAX,
		.first = 4,
		.max_bytes = SUMMARY_STACK_BYTES,
		.used = &s->budget.used,
	};

	memset(s, 0, sizeof(*s));
	if (opt)
		s->opt = *opt;
	hist_pool_init(&s->pool, SUMMARY_HIST_BYTES);
	s->budget.max = SUMMARY_STACK_BYTES;
	slice_match_init(&s->match, &open);
	process_tree_init(&s->tree, opt ? &opt->process : NULL);
	memory_summary_init(&s->memory);
	if (s->opt.timeline)
		s->memory.timeline = &s->memory_timeline;
	s->names = name_cache_new();
	if (!s->names || grow_slice_index(s, 1))
		return -ENOMEM;
	stack_tables_init(&s->stacks);
	return slice_watch_init(&s->watch, s->opt.slice_name,
				s->opt.slice_category, s->opt.slice_top);
}

void trace_summary_done(struct trace_summary *s)
{
	uint32_t i;

	for (i = 0; i < s->nthreads; i++) {
		latency_hist_free(&s->threads[i].latency);
		slice_nesting_free(&s->threads[i].nest);
	}
	for (i = 0; i < s->nslices; i++) {
		free(s->slices[i].category);
		free(s->slices[i].name);
	}
	free(s->threads);
	hash_index_free(&s->thread_index);
	free(s->slices);
	hash_index_free(&s->slice_index);
	free(s->cpus);
	free(s->drops);
	hist_pool_free(&s->pool);
	cpu_tracks_free(&s->running);
	cpu_timeline_free(&s->timeline);
	memory_summary_free(&s->memory);
	memory_timeline_free(&s->memory_timeline);
	summary_merged_free(&s->merged);
	name_cache_free(s->names);
	process_tree_free(&s->tree);
	stack_profile_free(&s->profile);
	stack_tables_free(&s->stacks);
	slice_watch_free(&s->watch);
	async_spans_free(&s->async);
	slice_match_free(&s->match);
	slice_budget_free(&s->budget);
	memset(s, 0, sizeof(*s));
}

int trace_summary_read(struct trace_summary *s, struct fxt_reader *r)
{
	struct fxt_record rec;
	uint64_t n = 0;
	unsigned int i;
	int ret, err;

	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		err = dispatch(s, &rec);
		(void)fxt_host_clock_take(&s->host, &rec);
		if (!err)
			err = summary_merged_take(&s->merged, &rec);
		if (!err)
			err = memory_summary_record(&s->memory, &rec);
		if (!err && stack_tables_take(&s->stacks, &rec)) {
			s->stacks_seen = true;
			err = s->stacks.err;
		}
		if (err)
			return err;
		if (s->opt.progress && !(++n & PROGRESS_EVERY))
			s->opt.progress(s->opt.progress_ctx,
					fxt_reader_stats(r)->bytes);
	}
	if (ret < 0)
		return ret;
	for (i = 0; i < s->running.count && i < s->ncpus; i++) {
		err = end_stretch(s, i, &s->running.cpu[i], &s->cpus[i],
				  s->last_sched_ns);
		if (err)
			return err;
	}
	if (!s->stacks_seen)
		return 0;
	err = stack_tables_finish(&s->stacks);
	return err ? err : stack_profile_build(&s->profile, &s->stacks);
}

/* ---- results -------------------------------------------------------- */

static int by_cpu_time(const void *a, const void *b)
{
	const struct summary_thread *x = *(const struct summary_thread *const *)a;
	const struct summary_thread *y = *(const struct summary_thread *const *)b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns > y->cpu_ns ? -1 : 1;
	if (x->latency.count != y->latency.count)
		return x->latency.count > y->latency.count ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

bool trace_summary_keeps(const struct trace_summary *s,
			 const struct summary_thread *t)
{
	struct thread_names names;

	if (!process_tree_active(&s->tree))
		return true;
	trace_summary_names(s, t->tid, t->pid, &names);
	return process_tree_has(&s->tree, names.pid);
}

const struct summary_thread **
trace_summary_threads(const struct trace_summary *s, size_t *n)
{
	const struct summary_thread **v;
	uint32_t i;

	*n = 0;
	v = malloc((s->nthreads + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < s->nthreads; i++) {
		const struct summary_thread *t = &s->threads[i];

		if ((t->switches || t->cpu_ns || t->latency.count ||
		     t->wake_pending) && trace_summary_keeps(s, t))
			v[(*n)++] = t;
	}
	qsort(v, *n, sizeof(*v), by_cpu_time);
	return v;
}

static int by_total_time(const void *a, const void *b)
{
	const struct summary_slice *x = *(const struct summary_slice *const *)a;
	const struct summary_slice *y = *(const struct summary_slice *const *)b;
	int c;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	if (x->self_ns != y->self_ns)
		return x->self_ns > y->self_ns ? -1 : 1;
	c = strcmp(x->category, y->category);
	return c ? c : strcmp(x->name, y->name);
}

const struct summary_slice **
trace_summary_slices(const struct trace_summary *s, size_t *n)
{
	const struct summary_slice **v;
	uint32_t i;

	*n = 0;
	v = malloc((s->nslices + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < s->nslices; i++)
		if (s->slices[i].count)
			v[(*n)++] = &s->slices[i];
	qsort(v, *n, sizeof(*v), by_total_time);
	return v;
}

void trace_summary_names(const struct trace_summary *s, uint64_t tid,
			 uint64_t pid, struct thread_names *out)
{
	const struct name_entry *e = name_cache_find(s->names, NAME_THREAD, tid);
	const struct name_entry *p;

	memset(out, 0, sizeof(*out));
	out->name = "";
	out->process = "";
	if (e) {
		out->name = e->name;
		out->name_len = e->name_len;
		if (!pid)
			pid = e->pid;
	}
	out->pid = pid;
	p = pid ? name_cache_find(s->names, NAME_PROCESS, pid) : NULL;
	if (p) {
		out->process = p->name;
		out->process_len = p->name_len;
	}
}
