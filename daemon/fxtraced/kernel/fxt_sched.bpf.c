// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling capture as BPF programs: the same FXT words the fxt_sched
 * module writes (include/fxt/sched.h), into the per-CPU rings of
 * include/fxt/ring.h: one BPF_F_MMAPABLE array map, one element per
 * possible CPU, laid out at FXT_RING_BPF_*_OFFSET. CO-RE: only the
 * task_struct fields used here are declared, and relocated against the
 * running kernel's BTF.
 *
 * Needs Linux >= 5.18: tp_btf/sched_switch with its prev_state argument
 * (the state the scheduler acted on, not a later re-read of the task).
 */
#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/kblock.h>
#include <fxt/kfault.h>
#include <fxt/kirq.h>
#include <fxt/kpower.h>
#include <fxt/kproc.h>
#include <fxt/ksyscall.h>
#include <fxt/ring.h>
#include <fxt/sched.h>

#include "fxt_ring.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct load_weight {
	unsigned long weight;
} __attribute__((preserve_access_index));

struct sched_entity {
	struct load_weight load;
} __attribute__((preserve_access_index));

struct thread_info {
	unsigned int cpu;
} __attribute__((preserve_access_index));

struct mm_struct;
struct signal_struct;

struct task_struct {
	struct thread_info thread_info;
	struct mm_struct *mm;
	struct signal_struct *signal;
	int on_cpu;
	unsigned int flags;
	int prio;
	int pid;
	int tgid;
	char comm[16];
	int exit_code;
	struct sched_entity se;
} __attribute__((preserve_access_index));

struct linux_binprm {
	const char *filename;
} __attribute__((preserve_access_index));

/* kernel:block: what block_rq_issue/complete report of a request. */
struct gendisk {
	int major;
	int first_minor;
} __attribute__((preserve_access_index));

struct request_queue {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

struct request {
	struct request_queue *q;
	unsigned int cmd_flags;
	__u64 __sector;
	unsigned int __data_len;
} __attribute__((preserve_access_index));

struct irqaction {
	const char *name;
} __attribute__((preserve_access_index));

/* The system call number at sys_exit, where the architecture keeps it. */
struct pt_regs___x86 {
	unsigned long orig_ax;
} __attribute__((preserve_access_index));

struct pt_regs___arm64 {
	int syscallno;
} __attribute__((preserve_access_index));

/* Before 5.16 (and where thread_info is not in the task) cpu was here. */
struct task_struct___cpu {
	unsigned int cpu;
} __attribute__((preserve_access_index));

#define PF_IDLE 0x00000002u
#define MAX_RT_PRIO 100
/* As the module: RT and deadline tasks weigh as much as nice -20. */
#define FXT_RT_WEIGHT 88761
#define SCHED_FIXEDPOINT_SHIFT 10	/* 64-bit kernels */

/*
 * Set by the loader before load; the verifier sees them as constants
 * (ring_bytes and ring_mode: fxt_ring.bpf.h). FXT_SCHED_EV_*, as the
 * module's; the loader leaves unused programs out.
 */
const volatile __u32 events = FXT_SCHED_EV_ALL;
/* kernel:block ids: a SipHash key the loader draws at random. */
const volatile __u64 block_key[2];
/* kernel:syscall: only these tgids; none (0): every process. */
const volatile __u32 syscall_pids[FXT_KSYSCALL_PIDS_MAX];

/*
 * The wakeup-latency trigger's threshold: 0 (off) until the manager arms
 * it, through the skeleton's mapping of .bss, while capture runs.
 */
__u64 latency_ns;

/*
 * Armed: woken tasks' wakeup times until they get a CPU, slots by tid
 * (fxt_sched_wake_slot()); the loader zeroes them before it arms.
 */
__u64 wake_slots[FXT_SCHED_WAKE_SLOTS];

/* kernel:irq: each CPU's interrupt nesting (include/fxt/kirq.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct fxt_kirq_nest));
	__uint(max_entries, 1);
} fxt_irq_nest SEC(".maps");

/* The task's fair-scheduler weight (nice 0 = 1024), as the module says it. */
static __always_inline __s32 task_weight(const struct task_struct *t)
{
	unsigned long w;

	if (t->flags & PF_IDLE)
		return FXT_SCHED_IDLE_WEIGHT;
	if (t->prio < MAX_RT_PRIO)
		return FXT_RT_WEIGHT;
	w = t->se.load.weight >> SCHED_FIXEDPOINT_SHIFT;
	return w > 0x7fffffff ? 0x7fffffff : (__s32)w;
}

static __always_inline unsigned int task_cpu(const struct task_struct *t)
{
	if (bpf_core_field_exists(t->thread_info.cpu))
		return t->thread_info.cpu;
	return ((const struct task_struct___cpu *)t)->cpu;
}

/*
 * Armed: the incoming task waited since its wakeup; over the threshold,
 * a sched_latency instant on it and one more in the ring's count, which
 * the manager polls. The wakeup time is used up: a task preempted later
 * and switched in again is not measured from it again.
 */
static __always_inline void check_latency(const struct task_struct *next,
					  __u32 cpu, __u64 now)
{
	__u64 rec[FXT_SCHED_LATENCY_WORDS];
	__u32 tid = next->pid;
	struct fxt_ring_ctrl *ctrl;
	__u64 *slot, woken, wait;

	if (!tid)
		return;
	slot = &wake_slots[tid & (FXT_SCHED_WAKE_SLOTS - 1)];
	woken = READ_ONCE(*slot);
	if (!fxt_sched_wake_slot_is(woken, tid))
		return;
	WRITE_ONCE(*slot, 0);
	wait = fxt_sched_wake_slot_wait(woken, now);
	if (wait < latency_ns)
		return;
	fxt_sched_write_latency(rec, now, next->tgid, tid, wait, now - wait);
	ring_write(rec, FXT_SCHED_LATENCY_WORDS, FXT_SCHED_EV_BIT_SWITCH);
	ctrl = bpf_map_lookup_elem(&fxt_ring, &cpu);
	if (ctrl)
		__sync_fetch_and_add(&ctrl->latency_exceeded, 1);
}

/* Loaded for kernel:sched's switches (kernel:offcpu: fxt_stacks.bpf.c). */
SEC("tp_btf/sched_switch")
int BPF_PROG(fxt_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 rec[FXT_SCHED_SWITCH_WORDS];
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 now = bpf_ktime_get_boot_ns();
	unsigned int state = fxt_sched_thread_state(prev_state, preempt);

	fxt_sched_write_switch(rec, now, cpu, state,
			       fxt_kirq_thread_koid(prev->pid, cpu),
			       fxt_kirq_thread_koid(next->pid, cpu),
			       task_weight(prev), task_weight(next));
	ring_write(rec, FXT_SCHED_SWITCH_WORDS, FXT_SCHED_EV_BIT_SWITCH);
	if (READ_ONCE(latency_ns))
		check_latency(next, cpu, now);
	return 0;
}

static __always_inline void write_wakeup(const struct task_struct *p)
{
	__u64 rec[FXT_SCHED_WAKEUP_WORDS];
	__u64 now = bpf_ktime_get_boot_ns();
	__u32 tid = p->pid;

	fxt_sched_write_wakeup(rec, now, task_cpu(p), p->pid, task_weight(p),
			       (__u32)bpf_get_current_pid_tgid());
	ring_write(rec, FXT_SCHED_WAKEUP_WORDS, FXT_SCHED_EV_BIT_WAKEUP);
	/* A task woken while still on its CPU does not wait for one. */
	if (!READ_ONCE(latency_ns) || !tid ||
	    (bpf_core_field_exists(p->on_cpu) && p->on_cpu))
		return;
	WRITE_ONCE(wake_slots[tid & (FXT_SCHED_WAKE_SLOTS - 1)],
		   fxt_sched_wake_slot(tid, now));
}

/*
 * sched_waking, not sched_wakeup: it fires in the waker's context. A
 * wakeup queued to an idle or remote CPU (ttwu_queue_wakelist) reaches
 * sched_wakeup there, from an interrupt, where the current task is the
 * idle task or whoever runs: the waker would be named wrong.
 */
SEC("tp_btf/sched_waking")
int BPF_PROG(fxt_sched_waking, struct task_struct *p)
{
	write_wakeup(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(fxt_sched_wakeup_new, struct task_struct *p)
{
	write_wakeup(p);
	return 0;
}

/* Name bytes before the NUL, at most FXT_SCHED_NAME_MAX. */
static __always_inline __u32 read_name(__u64 *name, const char *src)
{
	long n = bpf_probe_read_kernel_str(name, 16, src);

	/* The mask is a no-op for n <= 16; it bounds the length for the verifier. */
	return n > 1 ? (__u32)(n - 1) & FXT_SCHED_NAME_MAX : 0;
}

static __always_inline void write_names(const struct task_struct *t,
					const char *comm)
{
	__u64 rec[FXT_SCHED_RECORD_MAX_WORDS] = {};
	__u64 name[2] = {};
	__u32 len = read_name(name, comm);
	__u32 tid = t->pid, tgid = t->tgid;

	if (tid == tgid) {
		fxt_sched_write_process_object(rec, tgid, len);
		rec[2] = name[0];
		rec[3] = name[1];
		ring_write(rec, fxt_sched_process_words(len),
			   FXT_SCHED_EV_BIT_NAMES);
	}
	/* The name first: the writer then places the argument after it. */
	rec[2] = name[0];
	rec[3] = name[1];
	fxt_sched_write_thread_object(rec, tid, tgid, len);
	ring_write(rec, fxt_sched_thread_words(len), FXT_SCHED_EV_BIT_NAMES);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(fxt_sched_fork, struct task_struct *parent,
	     struct task_struct *child)
{
	__u64 rec[FXT_KPROC_FORK_WORDS];

	if (events & FXT_SCHED_EV_NAMES)
		write_names(child, child->comm);
	if (!(events & FXT_SCHED_EV_PROC))
		return 0;
	fxt_kproc_write_fork(rec, bpf_ktime_get_boot_ns(), parent->tgid,
			     parent->pid, child->pid);
	ring_write(rec, FXT_KPROC_FORK_WORDS, FXT_SCHED_EV_BIT_PROC);
	return 0;
}

static __always_inline void write_exec(const struct task_struct *p,
				       const struct linux_binprm *bprm)
{
	__u64 rec[FXT_SCHED_RECORD_MAX_WORDS] = {};
	long n = bpf_probe_read_kernel_str(&rec[FXT_KPROC_EVENT_WORDS + 1],
					   FXT_KPROC_FILENAME_MAX + 1,
					   bprm->filename);
	/* The mask is a no-op for n <= 64; it bounds the length for the verifier. */
	__u32 len = n > 1 ? (__u32)(n - 1) & FXT_KPROC_FILENAME_MAX : 0;

	fxt_kproc_write_exec(rec, bpf_ktime_get_boot_ns(), p->tgid, p->pid,
			     len);
	ring_write(rec, fxt_kproc_exec_words(len), FXT_SCHED_EV_BIT_PROC);
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(fxt_sched_exec, struct task_struct *p, int old_pid,
	     struct linux_binprm *bprm)
{
	if (events & FXT_SCHED_EV_NAMES)
		write_names(p, p->comm);
	if (events & FXT_SCHED_EV_PROC)
		write_exec(p, bprm);
	return 0;
}

/* do_exit() has set p->exit_code by now. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(fxt_sched_exit, struct task_struct *p)
{
	__u64 rec[FXT_KPROC_EXIT_WORDS];

	fxt_kproc_write_exit(rec, bpf_ktime_get_boot_ns(), p->tgid, p->pid,
			     p->exit_code);
	ring_write(rec, FXT_KPROC_EXIT_WORDS, FXT_SCHED_EV_BIT_PROC);
	return 0;
}

/* Fires before the new name is copied in: take it from the argument. */
SEC("tp_btf/task_rename")
int BPF_PROG(fxt_task_rename, struct task_struct *task, const char *comm)
{
	write_names(task, comm);
	return 0;
}

/*
 * kernel:power: a counter of CPU cpu_id, its idle state or its frequency
 * (value). The CPU is the counter id, not the CPU that writes.
 */
static __always_inline int write_power(bool frequency, __u32 cpu_id,
				       __u32 value)
{
	__u64 rec[FXT_KPOWER_COUNTER_WORDS];
	__u64 now = bpf_ktime_get_boot_ns();

	if (frequency)
		fxt_kpower_write_frequency(rec, now, cpu_id, value);
	else
		fxt_kpower_write_idle(rec, now, cpu_id, value);
	ring_write(rec, FXT_KPOWER_COUNTER_WORDS, FXT_SCHED_EV_BIT_POWER);
	return 0;
}

SEC("tp_btf/cpu_idle")
int BPF_PROG(fxt_cpu_idle, unsigned int state, unsigned int cpu_id)
{
	return write_power(false, cpu_id, state);
}

SEC("tp_btf/cpu_frequency")
int BPF_PROG(fxt_cpu_frequency, unsigned int khz, unsigned int cpu_id)
{
	return write_power(true, cpu_id, khz);
}

/*
 * kernel:block: the request's keyed hash, never its address. The
 * verifier allows no arithmetic on a typed pointer: hash a copy of the
 * program's first argument, the struct request pointer.
 */
static __always_inline __u64 block_id(const unsigned long long *ctx)
{
	__u64 rq = 0;

	bpf_probe_read_kernel(&rq, sizeof(rq), ctx);
	return fxt_kblock_siphash(rq, block_key[0], block_key[1]);
}

SEC("tp_btf/block_rq_issue")
int BPF_PROG(fxt_block_rq_issue, struct request *rq)
{
	__u64 rec[FXT_KBLOCK_BEGIN_WORDS];
	struct gendisk *disk = rq->q->disk;

	fxt_kblock_write_begin(rec, bpf_ktime_get_boot_ns(), rq->cmd_flags,
			       disk ? disk->major : 0,
			       disk ? disk->first_minor : 0, rq->__sector,
			       rq->__data_len, block_id(ctx));
	ring_write(rec, FXT_KBLOCK_BEGIN_WORDS, FXT_SCHED_EV_BIT_BLOCK);
	return 0;
}

/* Every completion ends the slice, a partial one too (include/fxt/kblock.h). */
SEC("tp_btf/block_rq_complete")
int BPF_PROG(fxt_block_rq_complete, struct request *rq, __u8 status,
	     unsigned int nr_bytes)
{
	__u64 rec[FXT_KBLOCK_END_WORDS];

	fxt_kblock_write_end(rec, bpf_ktime_get_boot_ns(), rq->cmd_flags,
			     status, block_id(ctx));
	ring_write(rec, FXT_KBLOCK_END_WORDS, FXT_SCHED_EV_BIT_BLOCK);
	return 0;
}

/* kernel:fault: on the faulting thread, whose fault this CPU handles. */
SEC("tp_btf/page_fault_user")
int BPF_PROG(fxt_page_fault_user, unsigned long address, void *regs,
	     unsigned long error_code)
{
	__u64 rec[FXT_KFAULT_WORDS];
	/* The time first: see event_time(). */
	__u64 ts = bpf_ktime_get_boot_ns();
	__u64 id = bpf_get_current_pid_tgid();

	fxt_kfault_write(rec, ts, id >> 32, (__u32)id, address,
			 (__u32)error_code);
	ring_write(rec, FXT_KFAULT_WORDS, FXT_SCHED_EV_BIT_FAULT);
	return 0;
}

/*
 * The event's time, read before anything else the program loads: the
 * clock read waits for the loads issued before it (a task field missing
 * the cache), the loads issued after it overlap with the rest.
 */
static __always_inline __u64 event_time(void)
{
	return bpf_ktime_get_boot_ns();
}

/* The interrupted thread; this CPU's idle task is a thread of its own. */
static __always_inline void current_ids(__u64 *pid, __u64 *tid)
{
	__u64 id = bpf_get_current_pid_tgid();

	*pid = id >> 32;
	*tid = fxt_kirq_thread_koid((__u32)id, bpf_get_smp_processor_id());
}

/* Writes a begin, or the end whose begin was written. */
static __always_inline void irq_write(const __u64 *rec, __u32 words,
				      bool begin)
{
	struct fxt_kirq_nest *nest;
	__u32 zero = 0;
	bool written;

	nest = bpf_map_lookup_elem(&fxt_irq_nest, &zero);
	if (!nest)
		return;
	if (!begin && !fxt_kirq_nest_exit(nest))
		return;
	written = ring_write(rec, words, FXT_SCHED_EV_BIT_IRQ);
	if (begin)
		fxt_kirq_nest_enter(nest, written);
}

static __always_inline void write_hardirq(int irq,
					  const struct irqaction *action,
					  bool begin)
{
	__u64 rec[FXT_KIRQ_HARDIRQ_MAX_WORDS] = {};
	char *name = (char *)&rec[FXT_KIRQ_EVENT_WORDS];
	__u32 len = fxt_kirq_name_prefix(name, irq) & FXT_KIRQ_PREFIX_MAX;
	long n = bpf_probe_read_kernel_str(name + len,
					   FXT_KIRQ_HANDLER_NAME_MAX + 1,
					   action->name);
	__u64 pid, tid;

	/* The mask is a no-op for n <= 17; it bounds the length for the verifier. */
	if (n > 1)
		len += (__u32)(n - 1) & (FXT_KIRQ_HANDLER_NAME_MAX * 2 - 1);
	current_ids(&pid, &tid);
	fxt_kirq_write_hardirq(rec, begin ? FXT_EVENT_DURATION_BEGIN :
					    FXT_EVENT_DURATION_END,
			       bpf_ktime_get_boot_ns(), pid, tid, irq, len);
	irq_write(rec, fxt_kirq_hardirq_words(len), begin);
}

/*
 * Each exit program before its entry: the skeleton attaches them in this
 * order, and a begin written while its end is not yet attached would stay
 * open until the thread's next end (the bpf() call's return) closed it.
 */
SEC("tp_btf/irq_handler_exit")
int BPF_PROG(fxt_irq_exit, int irq, struct irqaction *action, int ret)
{
	write_hardirq(irq, action, false);
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(fxt_irq_entry, int irq, struct irqaction *action)
{
	write_hardirq(irq, action, true);
	return 0;
}

static __always_inline void write_softirq(unsigned int vec, bool begin)
{
	__u64 rec[FXT_KIRQ_SOFTIRQ_WORDS];
	__u64 ts = event_time();
	__u64 pid, tid;

	current_ids(&pid, &tid);
	fxt_kirq_write_softirq(rec, begin ? FXT_EVENT_DURATION_BEGIN :
					    FXT_EVENT_DURATION_END,
			       ts, pid, tid, vec);
	irq_write(rec, FXT_KIRQ_SOFTIRQ_WORDS, begin);
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(fxt_softirq_exit, unsigned int vec_nr)
{
	write_softirq(vec_nr, false);
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(fxt_softirq_entry, unsigned int vec_nr)
{
	write_softirq(vec_nr, true);
	return 0;
}

/* fxt_ksyscall_wanted(), reading the volatile constants as such. */
static __always_inline bool syscall_wanted(__u64 id)
{
	__u32 tgid = id >> 32;
	int i;

	if (!syscall_pids[0])
		return true;
#pragma unroll
	for (i = 0; i < FXT_KSYSCALL_PIDS_MAX; i++)
		if (syscall_pids[i] && syscall_pids[i] == tgid)
			return true;
	return false;
}

/*
 * The time and the caller's ids of a system call to record; false for one
 * of a process not wanted, which then costs no clock read.
 */
static __always_inline bool syscall_event(__u64 *ts, __u64 *id)
{
	if (!syscall_pids[0]) {
		*ts = event_time();
		*id = bpf_get_current_pid_tgid();
		return true;
	}
	*id = bpf_get_current_pid_tgid();
	if (!syscall_wanted(*id))
		return false;
	*ts = event_time();
	return true;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(fxt_sys_enter, struct pt_regs *regs, long nr)
{
	__u64 rec[FXT_KSYSCALL_ENTER_WORDS];
	__u64 ts, id;

	if (!syscall_event(&ts, &id))
		return 0;
	fxt_ksyscall_write_enter(rec, ts, id >> 32, (__u32)id, nr);
	ring_write(rec, FXT_KSYSCALL_ENTER_WORDS, FXT_SCHED_EV_BIT_SYSCALL);
	return 0;
}

/* regs is a BTF pointer here: plain loads, no helper call. */
static __always_inline long syscall_nr(const void *regs)
{
	const struct pt_regs___x86 *x86 = regs;
	const struct pt_regs___arm64 *arm64 = regs;

	if (bpf_core_field_exists(x86->orig_ax))
		return (long)x86->orig_ax;
	if (bpf_core_field_exists(arm64->syscallno))
		return arm64->syscallno;
	return -1;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(fxt_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 rec[FXT_KSYSCALL_EXIT_WORDS];
	__u64 ts, id;

	if (!syscall_event(&ts, &id))
		return 0;
	fxt_ksyscall_write_exit(rec, ts, id >> 32, (__u32)id,
				syscall_nr(regs), ret);
	ring_write(rec, FXT_KSYSCALL_EXIT_WORDS, FXT_SCHED_EV_BIT_SYSCALL);
	return 0;
}

/* kernel:mem, after what it shares: ring_write(), event_time(), read_name(). */
#include "fxt_mem.bpf.h"
