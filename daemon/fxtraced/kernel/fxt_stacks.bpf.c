// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stack walkers of kernel capture as BPF programs, an object of their
 * own beside fxt_sched.bpf.c: the loader loads it after the scheduling
 * programs, and a kernel that refuses it loses kernel:sample and
 * kernel:offcpu, never scheduling capture. They write the raw stack
 * records of include/fxt/ksample.h into the same per-CPU rings
 * (fxt_ring.bpf.h, the maps handed over by the loader).
 *
 * On-CPU: fxt_sample runs at each tick of a cpu-clock perf event the
 * loader opens on every CPU; it takes the interrupted thread's kernel
 * and user stacks (frame pointers for user code) and writes them to the
 * CPU's ring. The idle task is not sampled.
 *
 * Off-CPU: fxt_offcpu runs at each sched_switch while the blocking
 * thread is still current: its stacks are taken then (the user stack of
 * a task that is not current cannot be read) into a slot of a table
 * indexed by tid, and written at its next switch-in, with the time it
 * stayed blocked, if that is at least offcpu_min_ns. Two threads of one
 * slot lose a measurement (counted as a drop of kernel:offcpu).
 */
#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>
#include <fxt/ring.h>
#include <fxt/sched.h>

#include "fxt_ring.bpf.h"
#include "fxt_unwind.bpf.h"
#include "fxt_python.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct mm_struct {
	unsigned long start_stack;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	struct mm_struct *mm;
} __attribute__((preserve_access_index));

/*
 * Set by the loader for a test of a refused walker: the programs then
 * read memory through a random number, which the verifier refuses (0:
 * the branch is pruned, the constant known).
 */
const volatile __u32 refuse_for_test;

/* 0: user stacks by frame pointers alone (a benchmark's baseline). */
const volatile __u32 unwind_tables = 1;

/* kernel:offcpu: shorter blocks are not written (0: every block). */
const volatile __u64 offcpu_min_ns;

/* A power of two; set to 1 entry by the loader without kernel:offcpu. */
#define FXT_OFFCPU_SLOTS 2048u

/* A blocked thread's record, all but its blocked_ns. */
struct offcpu_slot {
	__u64 tag;	/* tid + 1 while it holds that thread's stacks; 0: free */
	__u64 rec[FXT_KSAMPLE_BPF_MAX_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct offcpu_slot));
	__uint(max_entries, FXT_OFFCPU_SLOTS);
} fxt_offcpu_slots SEC(".maps");

/*
 * Where records are put together, per CPU: the sampler runs in an
 * interrupt and sched_switch with interrupts off, one entry each.
 */
#define FXT_SCRATCH_SAMPLE 0u
#define FXT_SCRATCH_OFFCPU 1u

struct ksample_scratch {
	__u64 rec[FXT_KSAMPLE_BPF_MAX_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct ksample_scratch));
	__uint(max_entries, 2);
} fxt_sample_scratch SEC(".maps");

/* What refuse_for_test asks for: a read through a number, not a pointer. */
static __always_inline int refused_read(void)
{
	const __u64 *p = (const __u64 *)(long)bpf_get_prandom_u32();

	return (int)*p;
}

/* Counts a record of kind lost before it reached the ring. */
static __always_inline void sample_lost(unsigned int kind)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct fxt_ring_ctrl *ctrl = bpf_map_lookup_elem(&fxt_ring, &cpu);

	if (ctrl)
		count_drop(ctrl, kind);
}

/* The user sp and bp, in the registers saved at kernel entry. */
struct pt_regs___sp {
	unsigned long sp, bp;
} __attribute__((preserve_access_index));

/*
 * The current thread's user sp and bp, then FXT_KSAMPLE_STACK_LEAF words
 * at sp, into at (include/fxt/ksample.h: a leaf's frame, not a copy to
 * unwind): how many words, 0 when they cannot be read. The user
 * registers are those saved at kernel entry (task_pt_regs), in an
 * interrupt as at a switch-out.
 */
static __always_inline __u32 take_user_words(__u64 *at)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs___sp *regs = (void *)bpf_task_pt_regs(task);
	__u64 sp = BPF_CORE_READ(regs, sp);

	if (!sp || bpf_probe_read_user(at + 2, FXT_KSAMPLE_STACK_LEAF * 8,
				       (const void *)sp))
		return 0;
	at[0] = sp;
	at[1] = BPF_CORE_READ(regs, bp);
	return FXT_KSAMPLE_STACK_LEAF;
}

/*
 * The current thread's kernel PCs then user PCs after rec's head, then
 * the words at its user stack pointer; the kernel's counts in *nk, *nu
 * and *ns. The user PCs are a walk with the process's tables where the
 * manager gave them (then *ns is FXT_KSAMPLE_UNWOUND: no words), else
 * the kernel's frame-pointer walk; a Python thread's frames follow them
 * (fxt_python.bpf.h: counted in *nu, their count in *ns). ctx is the
 * program's own.
 */
static __always_inline void take_stacks(void *ctx, __u64 *rec, __u32 *nk,
					__u32 *nu, __u32 *ns)
{
	struct task_struct *task = bpf_get_current_task_btf();
	const struct fxt_unwind_process *proc = NULL;
	__u64 start_stack = 0;
	__u32 k, u, py;
	long kb, ub;

	kb = bpf_get_stack(ctx, rec + FXT_KSAMPLE_HEAD_WORDS,
			   FXT_KSAMPLE_KERNEL_MAX * 8, 0);
	k = kb > 0 ? (__u32)kb / 8 : 0;
	if (k > FXT_KSAMPLE_KERNEL_MAX)
		k = FXT_KSAMPLE_KERNEL_MAX;
	*nk = k;
	if (task->mm)
		start_stack = BPF_CORE_READ(task, mm, start_stack);
	if (unwind_tables && task->mm)
		proc = unwind_process(task->tgid, start_stack);
	if (proc) {
		u = unwind_user(proc, task->tgid, rec,
				FXT_KSAMPLE_HEAD_WORDS + k);
	} else {
		ub = bpf_get_stack(ctx, rec + FXT_KSAMPLE_HEAD_WORDS + k,
				   FXT_KSAMPLE_USER_MAX * 8, BPF_F_USER_STACK);
		u = ub > 0 ? (__u32)ub / 8 : 0;
	}
	if (u > FXT_KSAMPLE_USER_MAX)
		u = FXT_KSAMPLE_USER_MAX;
	py = 0;
	if (unwind_tables && u && task->mm)
		py = python_frames(task->tgid, task->pid, start_stack, rec,
				   FXT_KSAMPLE_HEAD_WORDS + k, u,
				   FXT_KSAMPLE_USER_MAX - u < FXT_PY_FRAMES_MAX ?
					   FXT_KSAMPLE_USER_MAX - u :
					   FXT_PY_FRAMES_MAX);
	if (py > FXT_KSAMPLE_USER_MAX - u)
		py = 0;	/* not written so: the record's bound holds */
	*nu = u + py;
	if (*nu > FXT_KSAMPLE_USER_MAX)	/* for the verifier */
		*nu = FXT_KSAMPLE_USER_MAX;
	if (proc)
		*ns = FXT_KSAMPLE_UNWOUND;
	else
		*ns = u ? take_user_words(rec + FXT_KSAMPLE_HEAD_WORDS + k +
					  *nu) : 0;
	*ns |= py << FXT_KSAMPLE_PY_SHIFT;
}

/* The record's words with ns as take_stacks() gives it. */
static __always_inline __u32 ksample_words(__u32 nk, __u32 nu, __u32 ns)
{
	return fxt_ksample_words(nk, nu, ns & FXT_KSAMPLE_UNWOUND ? 0 :
					 ns & FXT_KSAMPLE_WORDS_MASK);
}

static __always_inline bool ring_write_long(const __u64 *rec, __u32 words,
					    unsigned int kind)
{
	return ring_append(rec, words, kind, true);
}

SEC("perf_event")
int fxt_sample(struct bpf_perf_event_data *ctx)
{
	__u64 now = bpf_ktime_get_boot_ns();
	__u64 id = bpf_get_current_pid_tgid();
	__u32 key = FXT_SCRATCH_SAMPLE, nk, nu, ns;
	__u64 *rec;

	if (refuse_for_test)
		return refused_read();
	if (!(__u32)id)
		return 0;	/* idle */
	rec = bpf_map_lookup_elem(&fxt_sample_scratch, &key);
	if (!rec) {
		sample_lost(FXT_SCHED_EV_BIT_SAMPLE);
		return 0;
	}
	take_stacks(ctx, rec, &nk, &nu, &ns);
	fxt_ksample_write_head(rec, FXT_KSAMPLE_ONCPU, now, id >> 32,
			       (__u32)id, bpf_get_smp_processor_id(), nk, nu,
			       ns, ctx->sample_period);
	ring_write_long(rec, ksample_words(nk, nu, ns),
			FXT_SCHED_EV_BIT_SAMPLE);
	return 0;
}

static __always_inline struct offcpu_slot *offcpu_slot(__u32 tid)
{
	__u32 key = tid & (FXT_OFFCPU_SLOTS - 1);

	return bpf_map_lookup_elem(&fxt_offcpu_slots, &key);
}

/*
 * prev blocks (sched_switch, prev is current): its stacks into its slot.
 * The tag is cleared while the words change, and the timestamp, unique
 * to this block, written before any other word: a reader of the slot
 * sees it change if any word did (offcpu_resume()).
 */
static __always_inline void offcpu_block(void *ctx,
					 const struct task_struct *prev,
					 __u32 cpu, __u64 now)
{
	__u32 tid = prev->pid, nk, nu, ns;
	struct offcpu_slot *slot;

	if (!tid)
		return;
	slot = offcpu_slot(tid);
	if (!slot)
		return;
	if (READ_ONCE(slot->tag))
		sample_lost(FXT_SCHED_EV_BIT_OFFCPU);	/* not resumed yet */
	__sync_lock_test_and_set(&slot->tag, 0);
	WRITE_ONCE(slot->rec[FXT_KSAMPLE_TS_WORD], now);
	barrier();
	take_stacks(ctx, slot->rec, &nk, &nu, &ns);
	fxt_ksample_write_head(slot->rec, FXT_KSAMPLE_OFFCPU, now, prev->tgid,
			       tid, cpu, nk, nu, ns, 0);
	__sync_lock_test_and_set(&slot->tag, (__u64)tid + 1);
}

/*
 * next runs again: its record, if its slot still holds its stacks and
 * it stayed blocked long enough. The words are copied, then the tag and
 * timestamp read again: another thread blocking into the slot meanwhile
 * changes them.
 */
static __always_inline void offcpu_resume(const struct task_struct *next,
					  __u64 now)
{
	__u32 tid = next->pid, key = FXT_SCRATCH_OFFCPU, words, i;
	struct offcpu_slot *slot;
	__u64 tag, out, *rec;

	if (!tid)
		return;
	slot = offcpu_slot(tid);
	tag = slot ? READ_ONCE(slot->tag) : 0;
	if (tag != (__u64)tid + 1)
		return;
	__sync_val_compare_and_swap(&slot->tag, tag, 0);
	out = READ_ONCE(slot->rec[FXT_KSAMPLE_TS_WORD]);
	if (now < out || now - out < offcpu_min_ns)
		return;
	rec = bpf_map_lookup_elem(&fxt_sample_scratch, &key);
	if (!rec)
		return;
	words = (__u32)FXT_GET(READ_ONCE(slot->rec[0]), FXT_LARGE_SIZE);
#pragma clang loop unroll(disable)
	for (i = 0; i < FXT_KSAMPLE_BPF_MAX_WORDS && i < words; i++)
		rec[i] = slot->rec[i];
	barrier();
	if (READ_ONCE(slot->tag) != 0 ||
	    READ_ONCE(slot->rec[FXT_KSAMPLE_TS_WORD]) != out ||
	    words < FXT_KSAMPLE_HEAD_WORDS || words > FXT_KSAMPLE_BPF_MAX_WORDS) {
		sample_lost(FXT_SCHED_EV_BIT_OFFCPU);
		return;
	}
	rec[9] = now - out;	/* blocked_ns */
	ring_write_long(rec, words, FXT_SCHED_EV_BIT_OFFCPU);
}

/*
 * prev was running: a block of its own that its off-CPU slot still holds
 * ended at a switch-in no sched_switch reported (some kernels fire none
 * for some switches: the idle task's, a virtual machine agent's). Its end
 * is unknown, so nothing can be written for it; it is let go, not
 * counted as a drop, as the module's table lets it go.
 */
static __always_inline void offcpu_forget_unseen(const struct task_struct *prev)
{
	__u64 tag = (__u64)prev->pid + 1;
	struct offcpu_slot *slot;

	if (!prev->pid)
		return;
	slot = offcpu_slot(prev->pid);
	if (slot && READ_ONCE(slot->tag) == tag)
		__sync_val_compare_and_swap(&slot->tag, tag, 0);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(fxt_offcpu, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	unsigned int state = fxt_sched_thread_state(prev_state, preempt);
	__u64 now = bpf_ktime_get_boot_ns();

	if (refuse_for_test)
		return refused_read();
	offcpu_forget_unseen(prev);
	if (state == FXT_THREAD_BLOCKED || state == FXT_THREAD_SUSPENDED)
		offcpu_block(ctx, prev, bpf_get_smp_processor_id(), now);
	offcpu_resume(next, now);
	return 0;
}

/*
 * A process's tables are of the program it runs: gone at its exec (the
 * manager writes the new program's when it is walked again) and at its
 * leader's exit (a pid reused must not find them).
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(fxt_unwind_exec, struct task_struct *p)
{
	__u32 tgid = p->tgid;

	bpf_map_delete_elem(&fxt_unwind_procs, &tgid);
	bpf_map_delete_elem(&fxt_py_procs, &tgid);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(fxt_unwind_exit, struct task_struct *p)
{
	__u32 tgid = p->tgid;

	if (p->pid == p->tgid) {
		bpf_map_delete_elem(&fxt_unwind_procs, &tgid);
		bpf_map_delete_elem(&fxt_py_procs, &tgid);
	}
	return 0;
}
