/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:mem programs of fxt_sched.bpf.c (include/fxt/kmem.h), in a file
 * of their own: included by it once, after the ring writer. CO-RE: RSS
 * counters are per-CPU counters since Linux 6.2 and atomic before, both
 * read as get_mm_counter() does.
 */
#ifndef FXT_MEM_BPF_H
#define FXT_MEM_BPF_H

#include <fxt/kmem.h>

/* kernel:mem: RSS counters, per-CPU since 6.2, atomic before. */
struct percpu_counter {
	__s64 count;
} __attribute__((preserve_access_index));

struct mm_struct {
	struct task_struct *owner;	/* CONFIG_MEMCG */
} __attribute__((preserve_access_index));

struct mm_struct___percpu {
	struct percpu_counter rss_stat[FXT_KMEM_RSS_COUNTERS];
} __attribute__((preserve_access_index));

struct mm_rss_stat___atomic {
	struct {
		long counter;
	} count[FXT_KMEM_RSS_COUNTERS];
} __attribute__((preserve_access_index));

struct mm_struct___atomic {
	struct mm_rss_stat___atomic rss_stat;
} __attribute__((preserve_access_index));

struct signal_struct {
	struct {
		int counter;
	} live;
} __attribute__((preserve_access_index));

struct compact_control {
	int order;
} __attribute__((preserve_access_index));

/* kernel:mem: RSS counters are in pages of this size. */
const volatile __u32 page_shift = 12;
/*
 * kernel:mem: each process's RSS counters, the last written and the
 * latest seen (written at its exit), by tgid; an LRU map, so that the
 * processes of a long trace never fill it (one evicted writes its next
 * change as a first one).
 */
struct rss_state {
	__u64 last[FXT_KMEM_RSS_COUNTERS];
	__u64 now[FXT_KMEM_RSS_COUNTERS];
	__u32 written;	/* bit m: last[m] was written */
	__u32 seen;	/* bit m: now[m] was seen */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct rss_state));
	__uint(max_entries, 8192);
} fxt_rss SEC(".maps");

/* Each thread's stalls whose begin was written (include/fxt/kmem.h). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct fxt_kmem_stalls));
	__uint(max_entries, 4096);
} fxt_stalls SEC(".maps");

/* The pages of one counter, as get_mm_counter() reads them. */
static __always_inline __s64 mm_counter(const struct mm_struct *mm,
					unsigned int member)
{
	const struct mm_struct___percpu *pc = (const void *)mm;
	const struct mm_struct___atomic *at = (const void *)mm;

	/*
	 * Read, not loaded: before 6.2 the verifier does not walk the
	 * atomic_long_t typedef of a BTF pointer's field ("Type
	 * 'atomic_long_t' is not a struct").
	 */
	if (bpf_core_type_exists(struct mm_rss_stat___atomic)) {
		switch (member) {
		case 0:
			return BPF_CORE_READ(at, rss_stat.count[0].counter);
		case 1:
			return BPF_CORE_READ(at, rss_stat.count[1].counter);
		case 2:
			return BPF_CORE_READ(at, rss_stat.count[2].counter);
		default:
			return BPF_CORE_READ(at, rss_stat.count[3].counter);
		}
	}
	switch (member) {
	case 0:
		return pc->rss_stat[0].count;
	case 1:
		return pc->rss_stat[1].count;
	case 2:
		return pc->rss_stat[2].count;
	default:
		return pc->rss_stat[3].count;
	}
}

static __always_inline __u64 mm_bytes(const struct mm_struct *mm,
				      unsigned int member)
{
	return fxt_kmem_pages_bytes(mm_counter(mm, member), page_shift);
}

/*
 * The process an mm is of: the current thread's, or its owner's when
 * another thread changes it (none once the process let it go: its
 * teardown is not its RSS).
 */
static __always_inline const struct task_struct *
mm_task(const struct mm_struct *mm)
{
	const struct task_struct *cur = bpf_get_current_task_btf();

	if ((unsigned long)cur->mm == (unsigned long)mm)
		return cur;
	if (bpf_core_field_exists(mm->owner))
		return mm->owner;
	return NULL;
}

static __always_inline struct rss_state *rss_state(__u32 tgid)
{
	struct rss_state *st = bpf_map_lookup_elem(&fxt_rss, &tgid);
	struct rss_state zero = {};

	if (st)
		return st;
	bpf_map_update_elem(&fxt_rss, &tgid, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&fxt_rss, &tgid);
}

static __always_inline void write_rss(struct rss_state *st, __u64 ts,
				      __u32 tgid, __u32 tid,
				      unsigned int member, __u64 bytes)
{
	__u64 rec[FXT_KMEM_RSS_WORDS];

	fxt_kmem_write_rss(rec, ts, tgid, tid, member, bytes);
	if (!ring_write(rec, FXT_KMEM_RSS_WORDS, FXT_SCHED_EV_BIT_MEM))
		return;
	st->last[member & (FXT_KMEM_RSS_COUNTERS - 1)] = bytes;
	st->written |= 1u << member;
}

SEC("tp_btf/rss_stat")
int BPF_PROG(fxt_rss_stat, struct mm_struct *mm, int member)
{
	__u64 ts = event_time();
	const struct task_struct *t;
	struct rss_state *st;
	unsigned int m;
	__u64 bytes;

	if (member < 0 || member >= FXT_KMEM_RSS_COUNTERS)
		return 0;
	m = (unsigned int)member & (FXT_KMEM_RSS_COUNTERS - 1);
	t = mm_task(mm);
	if (!t)
		return 0;
	st = rss_state(t->tgid);
	if (!st)
		return 0;
	bytes = mm_bytes(mm, m);
	st->now[m] = bytes;
	st->seen |= 1u << m;
	if (fxt_kmem_rss_due((st->written >> m) & 1, st->last[m], bytes))
		write_rss(st, ts, t->tgid, t->pid, m, bytes);
	return 0;
}

/*
 * A thread leaves; the last of its process writes the counters' last
 * values.
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(fxt_rss_exit, struct task_struct *p)
{
	__u64 ts = event_time();
	__u32 tgid = p->tgid, tid = p->pid;
	struct rss_state *st;
	unsigned int m;

	/* A stall it was in ends with it: its tid's next owner has none. */
	bpf_map_delete_elem(&fxt_stalls, &tid);
	if (p->signal->live.counter)
		return 0;
	st = bpf_map_lookup_elem(&fxt_rss, &tgid);
	if (!st)
		return 0;
#pragma unroll
	for (m = 0; m < FXT_KMEM_RSS_COUNTERS; m++)
		if (((st->seen >> m) & 1) &&
		    (!((st->written >> m) & 1) || st->now[m] != st->last[m]))
			write_rss(st, ts, tgid, p->pid, m, st->now[m]);
	bpf_map_delete_elem(&fxt_rss, &tgid);
	return 0;
}

static __always_inline void stall_begin(unsigned int stall, int order)
{
	__u64 rec[FXT_KMEM_STALL_BEGIN_WORDS];
	__u64 ts = event_time();
	__u64 id = bpf_get_current_pid_tgid();
	struct fxt_kmem_stalls zero = {}, *t;
	__u32 tid = (__u32)id;

	/* Where its end will look first: a begin it could not find has none. */
	t = bpf_map_lookup_elem(&fxt_stalls, &tid);
	if (!t) {
		bpf_map_update_elem(&fxt_stalls, &tid, &zero, BPF_NOEXIST);
		t = bpf_map_lookup_elem(&fxt_stalls, &tid);
		if (!t)
			return;
	}
	fxt_kmem_write_stall_begin(rec, stall, ts, id >> 32, tid, order);
	fxt_kmem_stall_enter(t, stall,
			     ring_write(rec, FXT_KMEM_STALL_BEGIN_WORDS,
					FXT_SCHED_EV_BIT_MEM));
}

static __always_inline void stall_end(unsigned int stall, __u64 result)
{
	__u64 rec[FXT_KMEM_RECLAIM_END_WORDS];
	__u64 ts = event_time();
	__u64 id = bpf_get_current_pid_tgid();
	struct fxt_kmem_stalls *t;
	__u32 tid = (__u32)id;

	t = bpf_map_lookup_elem(&fxt_stalls, &tid);
	if (!t || !fxt_kmem_stall_exit(t, stall))
		return;
	fxt_kmem_write_stall_end(rec, stall, ts, id >> 32, tid, result);
	ring_write(rec, fxt_kmem_stall_end_words(stall), FXT_SCHED_EV_BIT_MEM);
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(fxt_direct_reclaim_begin, int order)
{
	stall_begin(FXT_KMEM_STALL_DIRECT_RECLAIM, order);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(fxt_direct_reclaim_end, unsigned long nr_reclaimed)
{
	stall_end(FXT_KMEM_STALL_DIRECT_RECLAIM, nr_reclaimed);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(fxt_memcg_reclaim_begin, int order)
{
	stall_begin(FXT_KMEM_STALL_MEMCG_RECLAIM, order);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(fxt_memcg_reclaim_end, unsigned long nr_reclaimed)
{
	stall_end(FXT_KMEM_STALL_MEMCG_RECLAIM, nr_reclaimed);
	return 0;
}

SEC("tp_btf/mm_compaction_begin")
int BPF_PROG(fxt_compaction_begin, struct compact_control *cc)
{
	stall_begin(FXT_KMEM_STALL_COMPACTION, cc->order);
	return 0;
}

SEC("tp_btf/mm_compaction_end")
int BPF_PROG(fxt_compaction_end, struct compact_control *cc,
	     unsigned long zone_start, unsigned long zone_end, bool sync,
	     int status)
{
	stall_end(FXT_KMEM_STALL_COMPACTION, (__u32)status);
	return 0;
}

/* Since 6.1.y and 6.8: the victim's task (before: its pid alone). */
SEC("tp_btf/mark_victim")
int BPF_PROG(fxt_mark_victim, struct task_struct *task)
{
	__u64 rec[FXT_KMEM_OOM_MAX_WORDS] = {};
	__u64 ts = event_time();
	const struct mm_struct *mm = task->mm;
	__u64 rss = 0;
	__u32 len;

	len = read_name(&rec[FXT_KMEM_OOM_NAME_WORD], task->comm);
	if (mm)
		rss = mm_bytes(mm, 0) + mm_bytes(mm, 1) + mm_bytes(mm, 3);
	fxt_kmem_write_oom(rec, ts, task->tgid, task->pid, len, rss);
	ring_write(rec, fxt_kmem_oom_words(len), FXT_SCHED_EV_BIT_MEM);
	return 0;
}

#endif /* FXT_MEM_BPF_H */
