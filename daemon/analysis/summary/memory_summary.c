// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/kdev.h>
#include <fxt/kmem.h>

#include "memory_summary.h"

#define TABLE_INITIAL 64u

/* The names the kernel side writes, from the one table in <fxt/kdev.h>. */
static const char *const kdev_strings[FXT_KDEV_STR_COUNT] =
	FXT_KDEV_STRING_TABLE;
#define KDEV_STRING(index) (kdev_strings[(index) - FXT_KDEV_STR_BASE])
/* A "mem.rss" counter's argument k: the kernel's MM_* index k. */
#define RSS_NAME(k) KDEV_STRING(FXT_KDEV_STR_RSS_FILE + (k))
#define RSS_FILE 0u
#define RSS_ANON (FXT_KDEV_STR_RSS_ANON - FXT_KDEV_STR_RSS_FILE)
#define RSS_SWAP (FXT_KDEV_STR_RSS_SWAP - FXT_KDEV_STR_RSS_FILE)
#define RSS_SHMEM (FXT_KDEV_STR_RSS_SHMEM - FXT_KDEV_STR_RSS_FILE)

const char *memory_stall_name(enum memory_stall stall)
{
	return stall < MEMORY_STALLS ?
		       KDEV_STRING(FXT_KDEV_STR_DIRECT_RECLAIM + stall) : "";
}

const char *memory_system_name(enum memory_system k)
{
	static const unsigned int names[MEMORY_SYSTEM_SERIES] = {
		[MEMORY_AVAILABLE] = FXT_KDEV_STR_AVAILABLE,
		[MEMORY_CACHED] = FXT_KDEV_STR_CACHED,
		[MEMORY_DIRTY] = FXT_KDEV_STR_DIRTY,
		[MEMORY_SWAP_USED] = FXT_KDEV_STR_SWAP_USED,
	};

	return k < MEMORY_SYSTEM_SERIES ? KDEV_STRING(names[k]) : "";
}

static void table_init(struct memory_table *t, size_t item_size)
{
	memset(t, 0, sizeof(*t));
	t->item_size = item_size;
}

static void table_free(struct memory_table *t)
{
	free(t->items);
	hash_index_free(&t->index);
}

static void *table_item(const struct memory_table *t, uint32_t i)
{
	return (char *)t->items + (size_t)i * t->item_size;
}

/* Every item starts with its uint64_t key. */
static uint64_t item_hash(const void *ctx, uint32_t i)
{
	return hash_u64(*(const uint64_t *)table_item(ctx, i));
}

/* The index twice the items' room; -ENOMEM leaves the table as it was. */
static int table_grow(struct memory_table *t)
{
	uint32_t cap = t->cap ? t->cap * 2 : TABLE_INITIAL;
	void *items = realloc(t->items, (size_t)cap * t->item_size);

	if (!items)
		return -ENOMEM;
	t->items = items;
	if (hash_index_reserve(&t->index, cap, cap * 2, item_hash, t))
		return -ENOMEM;
	t->cap = cap;
	return 0;
}

/*
 * The item of key, added zeroed if new; NULL when the table is at
 * MEMORY_SUMMARY_TABLE_MAX (counted) or on ENOMEM (*err).
 */
static void *table_get(struct memory_table *t, uint64_t key, int *err)
{
	struct hash_index *x = &t->index;
	uint32_t j, e;
	void *item;

	for (j = x->slots ? hash_index_first(x, hash_u64(key)) : 0;
	     x->slots && (e = x->slots[j]); j = hash_index_next(x, j)) {
		item = table_item(t, e - 1);
		if (*(uint64_t *)item == key)
			return item;
	}
	if (t->n >= MEMORY_SUMMARY_TABLE_MAX) {
		t->untracked++;
		return NULL;
	}
	if (t->n == t->cap) {
		*err = table_grow(t);
		if (*err)
			return NULL;
		j = hash_index_free_slot(x, hash_u64(key));
	}
	item = table_item(t, t->n);
	memset(item, 0, t->item_size);
	*(uint64_t *)item = key;
	x->slots[j] = ++t->n;
	return item;
}

void memory_summary_init(struct memory_summary *m)
{
	memset(m, 0, sizeof(*m));
	table_init(&m->processes, sizeof(struct memory_process));
	table_init(&m->threads, sizeof(struct memory_thread));
}

void memory_summary_free(struct memory_summary *m)
{
	table_free(&m->processes);
	table_free(&m->threads);
	free(m->ooms);
	memset(m, 0, sizeof(*m));
}

static bool arg_uint(const struct fxt_arg *a, uint64_t *v)
{
	switch (a->type) {
	case FXT_ARG_UINT32:
		*v = a->value.u32;
		return true;
	case FXT_ARG_UINT64:
		*v = a->value.u64;
		return true;
	case FXT_ARG_INT32:
		*v = a->value.i32 < 0 ? 0 : (uint64_t)a->value.i32;
		return true;
	case FXT_ARG_INT64:
		*v = a->value.i64 < 0 ? 0 : (uint64_t)a->value.i64;
		return true;
	default:
		return false;
	}
}

static int take_rss(struct memory_summary *m, const struct fxt_record *rec)
{
	struct memory_process *p;
	unsigned int i, k;
	uint64_t v, rss;
	int err = 0;

	p = table_get(&m->processes, rec->event.thread.pid, &err);
	if (!p)
		return err;
	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS; i++)
		for (k = 0; k < FXT_KMEM_RSS_COUNTERS; k++)
			if (fxt_str_is(rec->args[i].name, RSS_NAME(k)) &&
			    arg_uint(&rec->args[i], &v))
				p->rss[k] = v;
	rss = fxt_sat_add(fxt_sat_add(p->rss[RSS_FILE], p->rss[RSS_ANON]),
			  p->rss[RSS_SHMEM]);
	if (rss > p->peak_rss)
		p->peak_rss = rss;
	if (p->rss[RSS_SWAP] > p->peak_swap)
		p->peak_swap = p->rss[RSS_SWAP];
	if (!m->timeline)
		return 0;
	return memory_timeline_rss(m->timeline, p->pid,
				   fxt_ticks_to_ns(rec->provider, rec->event.ts),
				   rss, p->peak_rss);
}

/* "meminfo" on the kernel process: for the timeline only. */
static int take_meminfo(struct memory_summary *m, const struct fxt_record *rec)
{
	uint64_t ns = fxt_ticks_to_ns(rec->provider, rec->event.ts), v;
	unsigned int i, k;
	int err = 0;

	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS && !err; i++)
		for (k = 0; k < MEMORY_SYSTEM_SERIES; k++)
			if (fxt_str_is(rec->args[i].name, memory_system_name(k)) &&
			    arg_uint(&rec->args[i], &v))
				err = memory_timeline_system(m->timeline, k,
							     ns, v);
	return err;
}

static int take_stall(struct memory_summary *m, const struct fxt_record *rec,
		      unsigned int stall)
{
	uint64_t ns = fxt_ticks_to_ns(rec->provider, rec->event.ts);
	uint32_t bit = 1u << stall;
	struct memory_thread *t;
	int err = 0;

	t = table_get(&m->threads, rec->event.thread.tid, &err);
	if (!t)
		return err;
	t->pid = rec->event.thread.pid;
	if (rec->event.type == FXT_EVENT_DURATION_BEGIN) {
		t->begin_ns[stall] = ns;
		t->open |= bit;
	} else if (t->open & bit) {
		t->open &= ~bit;
		t->stalls[stall]++;
		if (ns > t->begin_ns[stall])
			t->stall_ns[stall] = fxt_sat_add(t->stall_ns[stall],
							 ns - t->begin_ns[stall]);
		if (m->timeline)
			return memory_timeline_stall(m->timeline, stall, t->tid,
						     t->pid, t->begin_ns[stall],
						     ns);
	}
	return 0;
}

static int take_oom(struct memory_summary *m, const struct fxt_record *rec)
{
	const struct fxt_arg *a;
	struct memory_oom *o;

	if (m->nooms >= MEMORY_SUMMARY_OOM_MAX) {
		m->ooms_lost++;
		return 0;
	}
	if (!m->ooms) {
		m->ooms = calloc(MEMORY_SUMMARY_OOM_MAX, sizeof(*m->ooms));
		if (!m->ooms)
			return -ENOMEM;
	}
	o = &m->ooms[m->nooms++];
	o->ts_ns = fxt_ticks_to_ns(rec->provider, rec->event.ts);
	if (m->timeline)
		memory_timeline_mark(m->timeline, o->ts_ns);
	o->pid = rec->event.thread.pid;
	a = fxt_record_arg(rec, "pid", 3);
	if (a)
		(void)arg_uint(a, &o->pid);
	a = fxt_record_arg(rec, "rss", 3);
	if (a)
		(void)arg_uint(a, &o->rss);
	a = fxt_record_arg(rec, "name", 4);
	if (a && a->type == FXT_ARG_STRING) {
		o->name_len = a->value.str.len < MEMORY_SUMMARY_NAME_MAX ?
				      a->value.str.len :
				      MEMORY_SUMMARY_NAME_MAX;
		memcpy(o->name, a->value.str.data, o->name_len);
	}
	return 0;
}

int memory_summary_record(struct memory_summary *m,
			  const struct fxt_record *rec)
{
	unsigned int s;

	if (rec->type != FXT_RECORD_EVENT ||
	    !fxt_str_is(rec->event.category, "kernel:mem"))
		return 0;
	m->records++;
	switch (rec->event.type) {
	case FXT_EVENT_COUNTER:
		if (fxt_str_is(rec->event.name, "mem.rss"))
			return take_rss(m, rec);
		if (m->timeline && fxt_str_is(rec->event.name, "meminfo"))
			return take_meminfo(m, rec);
		return 0;
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		for (s = 0; s < MEMORY_STALLS; s++)
			if (fxt_str_is(rec->event.name, memory_stall_name(s)))
				return take_stall(m, rec, s);
		return 0;
	case FXT_EVENT_INSTANT:
		return fxt_str_is(rec->event.name, "oom_kill") ?
			       take_oom(m, rec) :
			       0;
	default:
		return 0;
	}
}

static int by_peak(const void *a, const void *b)
{
	const struct memory_process *x = *(const struct memory_process *const *)a;
	const struct memory_process *y = *(const struct memory_process *const *)b;

	if (x->peak_rss != y->peak_rss)
		return x->peak_rss > y->peak_rss ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

const struct memory_process **
memory_summary_processes(const struct memory_summary *m, size_t *n)
{
	const struct memory_process **v;
	uint32_t i;

	*n = 0;
	if (!m->processes.n)
		return NULL;
	v = malloc(m->processes.n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < m->processes.n; i++)
		v[i] = table_item(&m->processes, i);
	qsort(v, m->processes.n, sizeof(*v), by_peak);
	*n = m->processes.n;
	return v;
}

static int by_stall(const void *a, const void *b)
{
	const struct memory_thread *x = *(const struct memory_thread *const *)a;
	const struct memory_thread *y = *(const struct memory_thread *const *)b;
	uint64_t sx = memory_thread_stall_ns(x), sy = memory_thread_stall_ns(y);

	if (sx != sy)
		return sx > sy ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

const struct memory_thread **
memory_summary_stalled(const struct memory_summary *m, size_t *n)
{
	const struct memory_thread **v;
	const struct memory_thread *t;
	uint32_t i, k = 0;

	*n = 0;
	if (!m->threads.n)
		return NULL;
	v = malloc(m->threads.n * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < m->threads.n; i++) {
		t = table_item(&m->threads, i);
		if (t->stalls[0] || t->stalls[1] || t->stalls[2])
			v[k++] = t;
	}
	qsort(v, k, sizeof(*v), by_stall);
	*n = k;
	return v;
}
