// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:mem probes (include/fxt/kmem.h), the same records as the BPF
 * program's (daemon/fxtraced/kernel/fxt_mem.bpf.h) by the same rules:
 *
 * - RSS: rss_stat writes a process's counter when fxt_kmem_rss_due()
 *   says it moved enough; the last thread of a process to exit writes
 *   each counter's latest value. The state is a table of processes by
 *   tgid (a few slots looked at from each hash): a process whose slot
 *   another took writes its next change as a first one, as an evicted
 *   entry of the BPF program's LRU map does.
 * - Stalls: direct and memory-cgroup reclaim begin and end on the stalled
 *   thread; an end is written only when its begin was (struct
 *   fxt_kmem_stalls, in a table of threads by tid).
 * - OOM kills: oom:mark_victim, where it passes the victim's task.
 *
 * Compaction stalls are the BPF backend's alone: their order is in
 * struct compact_control, private to mm/.
 *
 * Both tables are allocated at start and freed after the probes are
 * gone; one lock guards them (RSS changes are batched per task by the
 * kernel, stalls are slow paths: it is not contended).
 */
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include <trace/events/kmem.h>
#include <trace/events/oom.h>
#include <trace/events/sched.h>
#include <trace/events/vmscan.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/kmem.h>
#include <fxt/sched.h>

#include "fxt_mem.h"

/* 2^12 processes and threads, as the BPF program's maps hold. */
#define FXT_MEM_TABLE_BITS 12
#define FXT_MEM_TABLE_SLOTS (1u << FXT_MEM_TABLE_BITS)
/* Slots looked at from an id's hash before its own is taken over. */
#define FXT_MEM_PROBES 8u

struct fxt_mem_process {
	pid_t tgid;	/* 0: a free slot */
	u32 written;	/* bit m: last[m] was written */
	u32 seen;	/* bit m: now[m] was seen */
	u64 last[FXT_KMEM_RSS_COUNTERS];
	u64 now[FXT_KMEM_RSS_COUNTERS];
};

struct fxt_mem_thread {
	pid_t tid;	/* 0: a free slot */
	struct fxt_kmem_stalls stalls;
};

static DEFINE_RAW_SPINLOCK(fxt_mem_lock);
static struct fxt_mem_process *fxt_mem_processes;
static struct fxt_mem_thread *fxt_mem_threads;

int fxt_mem_start(void)
{
	fxt_mem_processes = vzalloc(FXT_MEM_TABLE_SLOTS *
				    sizeof(*fxt_mem_processes));
	fxt_mem_threads = vzalloc(FXT_MEM_TABLE_SLOTS *
				  sizeof(*fxt_mem_threads));
	if (fxt_mem_processes && fxt_mem_threads)
		return 0;
	fxt_mem_stop();
	return -ENOMEM;
}

void fxt_mem_stop(void)
{
	vfree(fxt_mem_processes);
	vfree(fxt_mem_threads);
	fxt_mem_processes = NULL;
	fxt_mem_threads = NULL;
}

static void fxt_mem_append(struct fxt_session *s, const u64 *w, u32 nwords,
			   bool *written)
{
	bool ok = fxt_ring_write(fxt_session_this_ring(s),
				 FXT_SCHED_EV_BIT_MEM, w, nwords);

	if (written)
		*written = ok;
}

/*
 * Where id is in a table: the first of FXT_MEM_PROBES slots from its hash
 * that holds it, else the first free one, else NULL (the hash's slot is
 * the one to take over). Under the lock.
 */
static u32 fxt_mem_find(const pid_t *ids, size_t stride, pid_t id,
			bool *found)
{
	u32 home = hash_32((u32)id, FXT_MEM_TABLE_BITS), i, free = U32_MAX;

	for (i = 0; i < FXT_MEM_PROBES; i++) {
		u32 slot = (home + i) & (FXT_MEM_TABLE_SLOTS - 1);
		pid_t at = *(const pid_t *)((const char *)ids + slot * stride);

		if (at == id) {
			*found = true;
			return slot;
		}
		if (!at && free == U32_MAX)
			free = slot;
	}
	*found = false;
	return free == U32_MAX ? home : free;
}

/* The process's slot, taken over if another had it; under the lock. */
static struct fxt_mem_process *fxt_mem_process_of(pid_t tgid, bool take)
{
	bool found;
	u32 slot = fxt_mem_find(&fxt_mem_processes[0].tgid,
				sizeof(*fxt_mem_processes), tgid, &found);
	struct fxt_mem_process *p = &fxt_mem_processes[slot];

	if (found)
		return p;
	if (!take)
		return NULL;
	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
	return p;
}

/* Writes counter m of p; under the lock, interrupts off. */
static void fxt_mem_write_rss(struct fxt_session *s,
			      struct fxt_mem_process *p, pid_t tid,
			      unsigned int m, u64 bytes)
{
	u64 w[FXT_KMEM_RSS_WORDS];
	bool written;

	fxt_kmem_write_rss(w, ktime_get_boot_fast_ns(), p->tgid, tid, m,
			   bytes);
	fxt_mem_append(s, w, FXT_KMEM_RSS_WORDS, &written);
	if (!written)
		return;
	p->last[m] = bytes;
	p->written |= 1u << m;
}

static u64 fxt_mem_counter_bytes(struct mm_struct *mm, unsigned int m)
{
	return fxt_kmem_pages_bytes((s64)get_mm_counter(mm, m), PAGE_SHIFT);
}

/*
 * The process an mm is of: the current thread's, or its owner's when
 * another thread changes it (none once the process let it go).
 */
static struct task_struct *fxt_mem_task(struct mm_struct *mm)
{
	if (current->mm == mm)
		return current;
#ifdef CONFIG_MEMCG
	return rcu_dereference(mm->owner);
#else
	return NULL;
#endif
}

static void fxt_mem_rss_changed(struct fxt_session *s, struct mm_struct *mm,
				int member)
{
	struct fxt_mem_process *p;
	struct task_struct *t;
	unsigned long flags;
	unsigned int m;
	u64 bytes;

	if (member < 0 || member >= FXT_KMEM_RSS_COUNTERS)
		return;
	m = member;
	bytes = fxt_mem_counter_bytes(mm, m);
	rcu_read_lock();
	t = fxt_mem_task(mm);
	if (!t) {
		rcu_read_unlock();
		return;
	}
	raw_spin_lock_irqsave(&fxt_mem_lock, flags);
	p = fxt_mem_process_of(t->tgid, true);
	p->now[m] = bytes;
	p->seen |= 1u << m;
	if (fxt_kmem_rss_due((p->written >> m) & 1, p->last[m], bytes))
		fxt_mem_write_rss(s, p, t->pid, m, bytes);
	raw_spin_unlock_irqrestore(&fxt_mem_lock, flags);
	rcu_read_unlock();
}

#ifdef FXT_RSS_STAT_HAS_COUNT
void fxt_probe_rss_stat(void *data, struct mm_struct *mm, int member,
			long count)
#else
void fxt_probe_rss_stat(void *data, struct mm_struct *mm, int member)
#endif
{
	fxt_mem_rss_changed(data, mm, member);
}

/* The thread's stall state, taken over if another had it; under the lock. */
static struct fxt_mem_thread *fxt_mem_thread_of(pid_t tid, bool take)
{
	bool found;
	u32 slot = fxt_mem_find(&fxt_mem_threads[0].tid,
				sizeof(*fxt_mem_threads), tid, &found);
	struct fxt_mem_thread *t = &fxt_mem_threads[slot];

	if (found)
		return t;
	if (!take)
		return NULL;
	t->tid = tid;
	t->stalls.begun = 0;
	return t;
}

/* A thread leaves; the last of its process writes the counters. */
void fxt_probe_mem_exit(void *data, struct task_struct *task)
{
	struct fxt_mem_process *p;
	struct fxt_mem_thread *t;
	unsigned long flags;
	unsigned int m;

	raw_spin_lock_irqsave(&fxt_mem_lock, flags);
	/* A stall it was in ends with it: its tid's next owner has none. */
	t = fxt_mem_thread_of(task->pid, false);
	if (t)
		t->tid = 0;
	p = atomic_read(&task->signal->live) ? NULL :
						  fxt_mem_process_of(task->tgid, false);
	if (p) {
		for (m = 0; m < FXT_KMEM_RSS_COUNTERS; m++)
			if (((p->seen >> m) & 1) &&
			    (!((p->written >> m) & 1) ||
			     p->now[m] != p->last[m]))
				fxt_mem_write_rss(data, p, task->pid, m,
						  p->now[m]);
		p->tgid = 0;
	}
	raw_spin_unlock_irqrestore(&fxt_mem_lock, flags);
}

static void fxt_mem_stall_begin(struct fxt_session *s, unsigned int stall,
				int order)
{
	u64 w[FXT_KMEM_STALL_BEGIN_WORDS];
	struct fxt_mem_thread *t;
	unsigned long flags;
	bool written;

	raw_spin_lock_irqsave(&fxt_mem_lock, flags);
	t = fxt_mem_thread_of(current->pid, true);
	fxt_kmem_write_stall_begin(w, stall, ktime_get_boot_fast_ns(),
				   current->tgid, current->pid, order);
	fxt_mem_append(s, w, FXT_KMEM_STALL_BEGIN_WORDS, &written);
	fxt_kmem_stall_enter(&t->stalls, stall, written);
	raw_spin_unlock_irqrestore(&fxt_mem_lock, flags);
}

static void fxt_mem_stall_end(struct fxt_session *s, unsigned int stall,
			      u64 result)
{
	u64 w[FXT_KMEM_RECLAIM_END_WORDS];
	struct fxt_mem_thread *t;
	unsigned long flags;

	raw_spin_lock_irqsave(&fxt_mem_lock, flags);
	t = fxt_mem_thread_of(current->pid, false);
	if (t && fxt_kmem_stall_exit(&t->stalls, stall)) {
		fxt_kmem_write_stall_end(w, stall, ktime_get_boot_fast_ns(),
					 current->tgid, current->pid, result);
		fxt_mem_append(s, w, fxt_kmem_stall_end_words(stall), NULL);
	}
	raw_spin_unlock_irqrestore(&fxt_mem_lock, flags);
}

void fxt_probe_direct_reclaim_begin(void *data, int order, gfp_t gfp_flags)
{
	fxt_mem_stall_begin(data, FXT_KMEM_STALL_DIRECT_RECLAIM, order);
}

void fxt_probe_direct_reclaim_end(void *data, unsigned long nr_reclaimed)
{
	fxt_mem_stall_end(data, FXT_KMEM_STALL_DIRECT_RECLAIM, nr_reclaimed);
}

void fxt_probe_memcg_reclaim_begin(void *data, int order, gfp_t gfp_flags)
{
	fxt_mem_stall_begin(data, FXT_KMEM_STALL_MEMCG_RECLAIM, order);
}

void fxt_probe_memcg_reclaim_end(void *data, unsigned long nr_reclaimed)
{
	fxt_mem_stall_end(data, FXT_KMEM_STALL_MEMCG_RECLAIM, nr_reclaimed);
}

#ifdef FXT_HAVE_MARK_VICTIM_TASK
/* __oom_kill_process() holds the victim's task lock: its mm stays. */
void fxt_probe_mark_victim(void *data, struct task_struct *task, uid_t uid)
{
	u64 w[FXT_KMEM_OOM_MAX_WORDS] = { 0 };
	u32 len = strnlen(task->comm, FXT_SCHED_NAME_MAX);
	struct mm_struct *mm = task->mm;
	unsigned long flags;
	u64 rss = 0;

	memcpy(&w[FXT_KMEM_OOM_NAME_WORD], task->comm, len);
	if (mm)
		rss = fxt_mem_counter_bytes(mm, MM_FILEPAGES) +
		      fxt_mem_counter_bytes(mm, MM_ANONPAGES) +
		      fxt_mem_counter_bytes(mm, MM_SHMEMPAGES);
	local_irq_save(flags);
	fxt_kmem_write_oom(w, ktime_get_boot_fast_ns(), task->tgid, task->pid,
			   len, rss);
	fxt_mem_append(data, w, fxt_kmem_oom_words(len), NULL);
	local_irq_restore(flags);
}
#endif

/*
 * The probes are registered through void pointers: let the compiler check
 * their prototypes against this kernel's tracepoints (never called).
 */
static inline void fxt_mem_check_probe_prototypes(void)
{
	register_trace_rss_stat(fxt_probe_rss_stat, NULL);
	register_trace_sched_process_exit(fxt_probe_mem_exit, NULL);
	register_trace_mm_vmscan_direct_reclaim_begin(
		fxt_probe_direct_reclaim_begin, NULL);
	register_trace_mm_vmscan_direct_reclaim_end(
		fxt_probe_direct_reclaim_end, NULL);
#ifdef CONFIG_MEMCG
	register_trace_mm_vmscan_memcg_reclaim_begin(
		fxt_probe_memcg_reclaim_begin, NULL);
	register_trace_mm_vmscan_memcg_reclaim_end(
		fxt_probe_memcg_reclaim_end, NULL);
#endif
#ifdef FXT_HAVE_MARK_VICTIM_TASK
	register_trace_mark_victim(fxt_probe_mark_victim, NULL);
#endif
}
