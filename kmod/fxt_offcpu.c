// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:offcpu: the stacks of blocked threads (include/fxt/ksample.h),
 * the same records as the BPF program's, from a probe on sched_switch.
 *
 * sched_switch runs in __schedule() before the switch: prev is still the
 * current thread, so its kernel stack (stack_trace_save(), with this
 * probe and the scheduler's frames on top, left to the manager) and its
 * user stack (fxt_stack_user()) are taken there when it blocks, and kept
 * with the time in a table of threads by tid. When that thread is
 * switched in again, on whatever CPU, its entry is taken out and written
 * into this CPU's ring with blocked_ns = now - then, if at least the
 * session's offcpu_min_ns. The entry's write is done before the thread
 * can run anywhere else (try_to_wake_up() waits until it is off its CPU).
 *
 * The table: FXT_OFFCPU_BUCKETS buckets of FXT_OFFCPU_WAYS entries, a tid
 * in the bucket of its hash; a bucket whose entries are all taken gives
 * up the one blocked longest, counted as a dropped kernel:offcpu record.
 * An entry holds a whole record's stacks, the user stack's copy with
 * them (FXT_KSAMPLE_STACK_MAX words): 5672 bytes, 22 MiB for the 4096
 * entries, allocated while kernel:offcpu is on (6.6 MiB when the copy
 * was 16 words).
 * Each bucket has its lock: only two threads of one bucket switching at
 * once on two CPUs contend, and a switch-in takes it only when it saw
 * its thread's entry. A thread that is dying or dead is not kept
 * (it never runs again); a stopped one is.
 */
#include <linux/hash.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>

#include <trace/events/sched.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>
#include <fxt/sched.h>

#include "fxt_sample.h"

/* 2^12 threads blocked at once, in buckets of 8. */
#define FXT_OFFCPU_BUCKET_BITS 9
#define FXT_OFFCPU_BUCKETS (1u << FXT_OFFCPU_BUCKET_BITS)
#define FXT_OFFCPU_WAYS 8u

struct fxt_offcpu_entry {
	pid_t tid;	/* 0: free */
	u32 cpu;	/* where it was switched out */
	u64 ts;		/* when */
	u32 nk;
	u32 nu;
	u32 ns;
	/* kernel PCs, user PCs, user sp, bp and stack words (ksample.h) */
	u64 pcs[FXT_KSAMPLE_MAX_WORDS - FXT_KSAMPLE_HEAD_WORDS];
};

struct fxt_offcpu_bucket {
	raw_spinlock_t lock;
	struct fxt_offcpu_entry entries[FXT_OFFCPU_WAYS];
};

static struct fxt_offcpu_bucket *fxt_offcpu_table;
static struct fxt_stack_buf __percpu *fxt_offcpu_bufs;

int fxt_offcpu_start(void)
{
	unsigned int i;

	fxt_offcpu_table = vzalloc(FXT_OFFCPU_BUCKETS *
				   sizeof(*fxt_offcpu_table));
	fxt_offcpu_bufs = alloc_percpu(struct fxt_stack_buf);
	if (!fxt_offcpu_table || !fxt_offcpu_bufs) {
		fxt_offcpu_stop();
		return -ENOMEM;
	}
	for (i = 0; i < FXT_OFFCPU_BUCKETS; i++)
		raw_spin_lock_init(&fxt_offcpu_table[i].lock);
	return 0;
}

void fxt_offcpu_stop(void)
{
	vfree(fxt_offcpu_table);
	fxt_offcpu_table = NULL;
	free_percpu(fxt_offcpu_bufs);
	fxt_offcpu_bufs = NULL;
}

static struct fxt_offcpu_bucket *fxt_offcpu_bucket_of(pid_t tid)
{
	return &fxt_offcpu_table[hash_32((u32)tid, FXT_OFFCPU_BUCKET_BITS)];
}

/*
 * Where tid's stacks go: its own entry, else a free one, else the oldest
 * (*evicted set). Under the bucket's lock.
 */
static struct fxt_offcpu_entry *
fxt_offcpu_place(struct fxt_offcpu_bucket *bk, pid_t tid, bool *evicted)
{
	struct fxt_offcpu_entry *free = NULL, *oldest = &bk->entries[0];
	unsigned int i;

	for (i = 0; i < FXT_OFFCPU_WAYS; i++) {
		struct fxt_offcpu_entry *e = &bk->entries[i];

		if (e->tid == tid)
			return e;
		if (!e->tid && !free)
			free = e;
		if (e->ts < oldest->ts)
			oldest = e;
	}
	*evicted = !free;
	return free ? free : oldest;
}

/* prev (current) blocks: its stacks and the time, for its switch-in. */
static void fxt_offcpu_save(struct fxt_session *s, struct task_struct *prev,
			    u64 now)
{
	struct fxt_stack_buf *b = this_cpu_ptr(fxt_offcpu_bufs);
	struct fxt_offcpu_bucket *bk = fxt_offcpu_bucket_of(prev->pid);
	u64 *pcs = &b->w[FXT_KSAMPLE_HEAD_WORDS];
	struct fxt_offcpu_entry *e;
	bool evicted = false;
	u32 nk, nu, ns;

	nk = fxt_stack_kernel(b, 0, pcs);
	nu = fxt_stack_user(NULL, pcs + nk);
	ns = nu ? fxt_stack_user_words(NULL, pcs + nk + nu) : 0;
	raw_spin_lock(&bk->lock);
	e = fxt_offcpu_place(bk, prev->pid, &evicted);
	WRITE_ONCE(e->tid, prev->pid);
	e->cpu = smp_processor_id();
	e->ts = now;
	e->nk = nk;
	e->nu = nu;
	e->ns = ns;
	memcpy(e->pcs, pcs,
	       (nk + nu + fxt_ksample_stack_tail(ns)) * sizeof(*pcs));
	raw_spin_unlock(&bk->lock);
	if (evicted)
		fxt_ring_count_drop(fxt_session_this_ring(s),
				    FXT_SCHED_EV_BIT_OFFCPU);
}

/* next runs again: the record of its block, if it was long enough. */
static void fxt_offcpu_resume(struct fxt_session *s, struct task_struct *next,
			      u64 now)
{
	struct fxt_stack_buf *b = this_cpu_ptr(fxt_offcpu_bufs);
	struct fxt_offcpu_bucket *bk = fxt_offcpu_bucket_of(next->pid);
	struct fxt_offcpu_entry *e = NULL;
	u64 blocked = 0, ts = 0;
	u32 nk = 0, nu = 0, ns = 0, cpu = 0;
	bool write = false;
	unsigned int i;

	/*
	 * Most threads switched in were preempted, not blocked: no entry,
	 * seen without the lock (next's own entry was written before it
	 * could be woken).
	 */
	for (i = 0; i < FXT_OFFCPU_WAYS && !e; i++)
		if (READ_ONCE(bk->entries[i].tid) == next->pid)
			e = &bk->entries[i];
	if (!e)
		return;
	raw_spin_lock(&bk->lock);
	if (e->tid == next->pid) {
		ts = e->ts;
		blocked = now > ts ? now - ts : 0;
		write = blocked >= READ_ONCE(s->offcpu_min_ns);
		nk = e->nk;
		nu = e->nu;
		ns = e->ns;
		cpu = e->cpu;
		if (write)
			memcpy(&b->w[FXT_KSAMPLE_HEAD_WORDS], e->pcs,
			       (nk + nu + fxt_ksample_stack_tail(ns)) *
				       sizeof(*e->pcs));
		WRITE_ONCE(e->tid, 0);
	}
	raw_spin_unlock(&bk->lock);
	if (!write)
		return;
	fxt_ksample_write_head(b->w, FXT_KSAMPLE_OFFCPU, ts, next->tgid,
			       next->pid, cpu, nk, nu, ns, blocked);
	fxt_ring_write(fxt_session_this_ring(s), FXT_SCHED_EV_BIT_OFFCPU, b->w,
		       fxt_ksample_words(nk, nu, ns));
}

void fxt_probe_offcpu(void *data, bool preempt, struct task_struct *prev,
		      struct task_struct *next, unsigned int prev_state)
{
	unsigned int state = fxt_sched_thread_state(prev_state, preempt);
	u64 now = ktime_get_boot_fast_ns();

	/* __schedule() holds the runqueue lock with interrupts disabled. */
	lockdep_assert_irqs_disabled();
	if (next->pid)
		fxt_offcpu_resume(data, next, now);
	if (prev->pid &&
	    (state == FXT_THREAD_BLOCKED || state == FXT_THREAD_SUSPENDED))
		fxt_offcpu_save(data, prev, now);
}

/* Registered through a void pointer: let the compiler check it. */
static inline void fxt_offcpu_check_probe_prototype(void)
{
	register_trace_sched_switch(fxt_probe_offcpu, NULL);
}
