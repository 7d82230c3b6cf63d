// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduler tracepoint probes. Each probe builds one record of
 * include/fxt/sched.h on the stack and appends it to this CPU's ring with
 * interrupts disabled: that makes the probe the ring's only writer and
 * keeps timestamps in ring order.
 *
 * Koids are Linux ids: a thread is its pid (tid), a process its tgid.
 * Names come from kernel object records: every task's at start, then on
 * fork, exec and rename. Exit needs no name record: a reused pid always
 * passes through fork first, which names it again. With FXT_SCHED_EV_PROC
 * the same fork and exec probes also write kernel:proc events. Each CPU's
 * idle task (pid 0) is its own thread, fxt_kirq_thread_koid().
 *
 * The wakeup-latency check (FXT_SCHED_IOC_LATENCY) keeps each woken
 * task's wakeup time in fxt_wake_slots (fxt_sched_wake_slot() in
 * include/fxt/sched.h, as the BPF program does).
 *
 * kernel:irq (include/fxt/kirq.h), kernel:syscall (fxt/ksyscall.h),
 * kernel:power (fxt/kpower.h), kernel:block (fxt/kblock.h) and
 * kernel:fault (fxt/kfault.h) are optional: a kernel without their
 * tracepoints reports them in fxt_probes_missing() and runs the other
 * categories.
 *
 * kernel:sample and kernel:offcpu (include/fxt/ksample.h) are in
 * fxt_sample.c and fxt_offcpu.c: a perf counter per CPU, and a second
 * probe on sched_switch.
 */
#include <linux/kernel.h>
#include <linux/binfmts.h>
#include <linux/interrupt.h>
#include <linux/percpu.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

#include <asm/syscall.h>
#include <trace/events/irq.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/task.h>
#include <linux/blk-mq.h>
#include <linux/random.h>
#include <trace/events/block.h>
#include <trace/events/power.h>
#ifdef CONFIG_X86
#include <asm/trace/exceptions.h>
#endif

#include <fxt/fxt.h>
#include <fxt/fxt_sched_uapi.h>
#include <fxt/kblock.h>
#include <fxt/kfault.h>
#include <fxt/kirq.h>
#include <fxt/kpower.h>
#include <fxt/kproc.h>
#include <fxt/ksyscall.h>
#include <fxt/sched.h>

#include "fxt_mem.h"
#include "fxt_probes.h"
#include "fxt_sample.h"

/*
 * Weight reported for RT and deadline tasks: the heaviest CFS weight
 * (nice -20), so they compare above every fair task.
 */
#define FXT_RT_WEIGHT 88761

static s32 fxt_task_weight(const struct task_struct *p)
{
	unsigned long weight;

	if (is_idle_task(p))
		return FXT_SCHED_IDLE_WEIGHT;
	if (p->prio < MAX_RT_PRIO)
		return FXT_RT_WEIGHT;
	/* scale_load_down() is private to kernel/sched. */
	weight = p->se.load.weight;
	if (IS_ENABLED(CONFIG_64BIT))
		weight >>= SCHED_FIXEDPOINT_SHIFT;
	return (s32)min_t(unsigned long, weight, S32_MAX);
}

static void fxt_append(struct fxt_session *s, unsigned int kind,
		       const u64 *words, u32 nwords)
{
	unsigned long flags;

	local_irq_save(flags);
	fxt_ring_write(fxt_session_this_ring(s), kind, words, nwords);
	local_irq_restore(flags);
}

/* The kernel object records naming a thread, a process (comm). */
static void fxt_write_thread_name(struct fxt_session *s,
				  const struct task_struct *t,
				  const char *comm)
{
	u64 w[FXT_SCHED_RECORD_MAX_WORDS] = { 0 };
	u32 len = strnlen(comm, FXT_SCHED_NAME_MAX);

	fxt_sched_write_thread_object(w, t->pid, t->tgid, len);
	memcpy(&w[2], comm, len);
	fxt_append(s, FXT_SCHED_EV_BIT_NAMES, w, fxt_sched_thread_words(len));
}

static void fxt_write_process_name(struct fxt_session *s,
				   const struct task_struct *leader,
				   const char *comm)
{
	u64 w[FXT_SCHED_RECORD_MAX_WORDS] = { 0 };
	u32 len = strnlen(comm, FXT_SCHED_NAME_MAX);

	fxt_sched_write_process_object(w, leader->tgid, len);
	memcpy(&w[2], comm, len);
	fxt_append(s, FXT_SCHED_EV_BIT_NAMES, w, fxt_sched_process_words(len));
}

static void fxt_write_all_names(struct fxt_session *s)
{
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process(g) {
		fxt_write_process_name(s, g, g->comm);
		for_each_thread(g, t)
			fxt_write_thread_name(s, t, t->comm);
	}
	rcu_read_unlock();
}

static u64 fxt_wake_slots[FXT_SCHED_WAKE_SLOTS];

static u64 *fxt_wake_slot(pid_t tid)
{
	return &fxt_wake_slots[(u32)tid & (FXT_SCHED_WAKE_SLOTS - 1)];
}

void fxt_probes_set_latency(struct fxt_session *s, u64 threshold_ns)
{
	unsigned int i;

	if (threshold_ns && !s->latency_ns)
		for (i = 0; i < FXT_SCHED_WAKE_SLOTS; i++)
			WRITE_ONCE(fxt_wake_slots[i], 0);
	WRITE_ONCE(s->latency_ns, threshold_ns);
}

/* A task woken while still on its CPU does not wait for one. */
static bool fxt_task_on_cpu(const struct task_struct *p)
{
#ifdef CONFIG_SMP
	return READ_ONCE(p->on_cpu);
#else
	return p == current;
#endif
}

/* next waited since its wakeup: over the threshold, say so. Irqs off. */
static void fxt_check_latency(struct fxt_ring *ring,
			      const struct task_struct *next, u64 now,
			      u64 threshold_ns)
{
	u64 *slot = fxt_wake_slot(next->pid);
	u64 woken = READ_ONCE(*slot);
	u64 w[FXT_SCHED_LATENCY_WORDS];
	u64 wait;

	if (!fxt_sched_wake_slot_is(woken, next->pid))
		return;
	/* Used up: a switch in after a preemption is no wakeup's. */
	WRITE_ONCE(*slot, 0);
	wait = fxt_sched_wake_slot_wait(woken, now);
	if (wait < threshold_ns)
		return;
	fxt_sched_write_latency(w, now, next->tgid, next->pid, wait,
				now - wait);
	fxt_ring_write(ring, FXT_SCHED_EV_BIT_SWITCH, w,
		       FXT_SCHED_LATENCY_WORDS);
	WRITE_ONCE(ring->ctrl->latency_exceeded,
		   ring->ctrl->latency_exceeded + 1);
}

static void fxt_probe_switch(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next,
			     unsigned int prev_state)
{
	struct fxt_session *s = data;
	struct fxt_ring *ring = fxt_session_this_ring(s);
	u64 w[FXT_SCHED_SWITCH_WORDS];
	unsigned int cpu = smp_processor_id();
	u64 now = ktime_get_boot_fast_ns();
	u64 threshold_ns = READ_ONCE(s->latency_ns);

	/* __schedule() holds the runqueue lock with interrupts disabled. */
	lockdep_assert_irqs_disabled();
	fxt_sched_write_switch(w, now, cpu,
			       fxt_sched_thread_state(prev_state, preempt),
			       fxt_kirq_thread_koid(prev->pid, cpu),
			       fxt_kirq_thread_koid(next->pid, cpu),
			       fxt_task_weight(prev), fxt_task_weight(next));
	fxt_ring_write(ring, FXT_SCHED_EV_BIT_SWITCH, w,
		       FXT_SCHED_SWITCH_WORDS);
	if (threshold_ns && next->pid)
		fxt_check_latency(ring, next, now, threshold_ns);
}

/* sched_waking and sched_wakeup_new. May run with interrupts enabled. */
static void fxt_probe_wakeup(void *data, struct task_struct *p)
{
	struct fxt_session *s = data;
	u64 w[FXT_SCHED_WAKEUP_WORDS];
	unsigned long flags;
	u64 now;

	local_irq_save(flags);
	now = ktime_get_boot_fast_ns();
	fxt_sched_write_wakeup(w, now, task_cpu(p), p->pid, fxt_task_weight(p),
			       current->pid);
	fxt_ring_write(fxt_session_this_ring(s), FXT_SCHED_EV_BIT_WAKEUP, w,
		       FXT_SCHED_WAKEUP_WORDS);
	local_irq_restore(flags);
	if (READ_ONCE(s->latency_ns) && p->pid && !fxt_task_on_cpu(p))
		WRITE_ONCE(*fxt_wake_slot(p->pid),
			   fxt_sched_wake_slot(p->pid, now));
}

static void fxt_probe_fork(void *data, struct task_struct *parent,
			   struct task_struct *child)
{
	struct fxt_session *s = data;
	u64 w[FXT_KPROC_FORK_WORDS];

	if (s->events & FXT_SCHED_EV_NAMES) {
		if (thread_group_leader(child))
			fxt_write_process_name(s, child, child->comm);
		fxt_write_thread_name(s, child, child->comm);
	}
	if (!(s->events & FXT_SCHED_EV_PROC))
		return;
	fxt_kproc_write_fork(w, ktime_get_boot_fast_ns(), parent->tgid,
			     parent->pid, child->pid);
	fxt_append(s, FXT_SCHED_EV_BIT_PROC, w, FXT_KPROC_FORK_WORDS);
}

static void fxt_write_exec(struct fxt_session *s, const struct task_struct *p,
			   const char *filename)
{
	u64 w[FXT_SCHED_RECORD_MAX_WORDS] = { 0 };
	u32 len = strnlen(filename, FXT_KPROC_FILENAME_MAX);

	fxt_kproc_write_exec(w, ktime_get_boot_fast_ns(), p->tgid, p->pid, len);
	memcpy(&w[FXT_KPROC_EVENT_WORDS + 1], filename, len);
	fxt_append(s, FXT_SCHED_EV_BIT_PROC, w, fxt_kproc_exec_words(len));
}

static void fxt_probe_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	struct fxt_session *s = data;

	if (s->events & FXT_SCHED_EV_NAMES) {
		if (thread_group_leader(p))
			fxt_write_process_name(s, p, p->comm);
		fxt_write_thread_name(s, p, p->comm);
	}
	if (s->events & FXT_SCHED_EV_PROC)
		fxt_write_exec(s, p, bprm->filename);
}

/* do_exit() has set p->exit_code by now. */
static void fxt_probe_exit(void *data, struct task_struct *p)
{
	u64 w[FXT_KPROC_EXIT_WORDS];

	fxt_kproc_write_exit(w, ktime_get_boot_fast_ns(), p->tgid, p->pid,
			     p->exit_code);
	fxt_append(data, FXT_SCHED_EV_BIT_PROC, w, FXT_KPROC_EXIT_WORDS);
}

/* Runs before the new name is copied into task->comm. */
static void fxt_probe_rename(void *data, struct task_struct *task,
			     const char *comm)
{
	if (thread_group_leader(task))
		fxt_write_process_name(data, task, comm);
	fxt_write_thread_name(data, task, comm);
}

static DEFINE_PER_CPU(struct fxt_kirq_nest, fxt_irq_nest);

/*
 * The interrupted thread, as kernel:irq and kernel:syscall name it: the
 * idle task of this CPU is its own thread. Interrupts are disabled.
 */
static void fxt_current_ids(u64 *pid, u64 *tid)
{
	*pid = current->tgid;
	*tid = fxt_kirq_thread_koid(current->pid, smp_processor_id());
}

/* Writes a begin, or the end whose begin was written; interrupts off. */
static void fxt_irq_write(struct fxt_session *s, const u64 *w, u32 nwords,
			  bool begin)
{
	struct fxt_kirq_nest *nest = this_cpu_ptr(&fxt_irq_nest);
	bool written;

	if (!begin && !fxt_kirq_nest_exit(nest))
		return;
	written = fxt_ring_write(fxt_session_this_ring(s), FXT_SCHED_EV_BIT_IRQ,
				 w, nwords);
	if (begin)
		fxt_kirq_nest_enter(nest, written);
}

static void fxt_write_hardirq(struct fxt_session *s, int irq,
			      const struct irqaction *action, bool begin)
{
	u64 w[FXT_KIRQ_HARDIRQ_MAX_WORDS] = { 0 };
	char *name = (char *)&w[FXT_KIRQ_EVENT_WORDS];
	unsigned long flags;
	u32 len = fxt_kirq_name_prefix(name, irq);
	u64 pid, tid;

	if (action->name) {
		u32 n = strnlen(action->name, FXT_KIRQ_HANDLER_NAME_MAX);

		memcpy(name + len, action->name, n);
		len += n;
	}
	local_irq_save(flags);
	fxt_current_ids(&pid, &tid);
	fxt_kirq_write_hardirq(w, begin ? FXT_EVENT_DURATION_BEGIN :
					  FXT_EVENT_DURATION_END,
			       ktime_get_boot_fast_ns(), pid, tid, irq, len);
	fxt_irq_write(s, w, fxt_kirq_hardirq_words(len), begin);
	local_irq_restore(flags);
}

static void fxt_probe_irq_entry(void *data, int irq, struct irqaction *action)
{
	fxt_write_hardirq(data, irq, action, true);
}

static void fxt_probe_irq_exit(void *data, int irq, struct irqaction *action,
			       int ret)
{
	fxt_write_hardirq(data, irq, action, false);
}

/* Softirqs run with interrupts enabled. */
static void fxt_write_softirq(struct fxt_session *s, unsigned int vec,
			      bool begin)
{
	u64 w[FXT_KIRQ_SOFTIRQ_WORDS];
	unsigned long flags;
	u64 pid, tid;

	local_irq_save(flags);
	fxt_current_ids(&pid, &tid);
	fxt_kirq_write_softirq(w, begin ? FXT_EVENT_DURATION_BEGIN :
					  FXT_EVENT_DURATION_END,
			       ktime_get_boot_fast_ns(), pid, tid, vec);
	fxt_irq_write(s, w, FXT_KIRQ_SOFTIRQ_WORDS, begin);
	local_irq_restore(flags);
}

static void fxt_probe_softirq_entry(void *data, unsigned int vec_nr)
{
	fxt_write_softirq(data, vec_nr, true);
}

static void fxt_probe_softirq_exit(void *data, unsigned int vec_nr)
{
	fxt_write_softirq(data, vec_nr, false);
}

static void fxt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct fxt_session *s = data;
	u64 w[FXT_KSYSCALL_ENTER_WORDS];

	if (!fxt_ksyscall_wanted(s->syscall_pids, current->tgid))
		return;
	fxt_ksyscall_write_enter(w, ktime_get_boot_fast_ns(), current->tgid,
				 current->pid, id);
	fxt_append(s, FXT_SCHED_EV_BIT_SYSCALL, w, FXT_KSYSCALL_ENTER_WORDS);
}

static void fxt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct fxt_session *s = data;
	u64 w[FXT_KSYSCALL_EXIT_WORDS];

	if (!fxt_ksyscall_wanted(s->syscall_pids, current->tgid))
		return;
	fxt_ksyscall_write_exit(w, ktime_get_boot_fast_ns(), current->tgid,
				current->pid, syscall_get_nr(current, regs),
				ret);
	fxt_append(s, FXT_SCHED_EV_BIT_SYSCALL, w, FXT_KSYSCALL_EXIT_WORDS);
}

/* kernel:power: the CPU is the counter id, not the CPU that writes. */
static void fxt_probe_cpu_idle(void *data, unsigned int state,
			       unsigned int cpu_id)
{
	u64 w[FXT_KPOWER_COUNTER_WORDS];

	fxt_kpower_write_idle(w, ktime_get_boot_fast_ns(), cpu_id, state);
	fxt_append(data, FXT_SCHED_EV_BIT_POWER, w, FXT_KPOWER_COUNTER_WORDS);
}

static void fxt_probe_cpu_frequency(void *data, unsigned int khz,
				    unsigned int cpu_id)
{
	u64 w[FXT_KPOWER_COUNTER_WORDS];

	fxt_kpower_write_frequency(w, ktime_get_boot_fast_ns(), cpu_id, khz);
	fxt_append(data, FXT_SCHED_EV_BIT_POWER, w, FXT_KPOWER_COUNTER_WORDS);
}

/* kernel:block: the request's keyed hash, never its address. */
static u64 fxt_block_id(const struct fxt_session *s, const struct request *rq)
{
	return fxt_kblock_siphash((u64)(unsigned long)rq, s->block_key[0],
				  s->block_key[1]);
}

static void fxt_probe_block_issue(void *data, struct request *rq)
{
	struct gendisk *disk = rq->q->disk;
	u64 w[FXT_KBLOCK_BEGIN_WORDS];

	fxt_kblock_write_begin(w, ktime_get_boot_fast_ns(), rq->cmd_flags,
			       disk ? disk->major : 0,
			       disk ? disk->first_minor : 0, blk_rq_pos(rq),
			       blk_rq_bytes(rq), fxt_block_id(data, rq));
	fxt_append(data, FXT_SCHED_EV_BIT_BLOCK, w, FXT_KBLOCK_BEGIN_WORDS);
}

/* Every completion ends the slice, a partial one too (fxt/kblock.h). */
static void fxt_probe_block_complete(void *data, struct request *rq,
				     blk_status_t status,
				     unsigned int nr_bytes)
{
	u64 w[FXT_KBLOCK_END_WORDS];

	fxt_kblock_write_end(w, ktime_get_boot_fast_ns(), rq->cmd_flags,
			     (__force u32)status, fxt_block_id(data, rq));
	fxt_append(data, FXT_SCHED_EV_BIT_BLOCK, w, FXT_KBLOCK_END_WORDS);
}

/* kernel:fault: on the faulting thread, whose fault this CPU handles. */
static void fxt_probe_page_fault_user(void *data, unsigned long address,
				      struct pt_regs *regs,
				      unsigned long error_code)
{
	u64 w[FXT_KFAULT_WORDS];

	fxt_kfault_write(w, ktime_get_boot_fast_ns(), current->tgid,
			 current->pid, address, (u32)error_code);
	fxt_append(data, FXT_SCHED_EV_BIT_FAULT, w, FXT_KFAULT_WORDS);
}

/*
 * The probes are registered through void pointers: let the compiler check
 * their prototypes against this kernel's tracepoints. Never called, so
 * the unexported tracepoint symbols are never referenced.
 */
static inline void fxt_check_probe_prototypes(void)
{
	register_trace_sched_switch(fxt_probe_switch, NULL);
	register_trace_sched_waking(fxt_probe_wakeup, NULL);
	register_trace_sched_wakeup_new(fxt_probe_wakeup, NULL);
	register_trace_sched_process_fork(fxt_probe_fork, NULL);
	register_trace_sched_process_exec(fxt_probe_exec, NULL);
	register_trace_task_rename(fxt_probe_rename, NULL);
	register_trace_sched_process_exit(fxt_probe_exit, NULL);
	register_trace_irq_handler_entry(fxt_probe_irq_entry, NULL);
	register_trace_irq_handler_exit(fxt_probe_irq_exit, NULL);
	register_trace_softirq_entry(fxt_probe_softirq_entry, NULL);
	register_trace_softirq_exit(fxt_probe_softirq_exit, NULL);
	register_trace_sys_enter(fxt_probe_sys_enter, NULL);
	register_trace_sys_exit(fxt_probe_sys_exit, NULL);
	register_trace_cpu_idle(fxt_probe_cpu_idle, NULL);
	register_trace_cpu_frequency(fxt_probe_cpu_frequency, NULL);
	register_trace_block_rq_issue(fxt_probe_block_issue, NULL);
	register_trace_block_rq_complete(fxt_probe_block_complete, NULL);
#ifdef CONFIG_X86
	register_trace_page_fault_user(fxt_probe_page_fault_user, NULL);
#endif
}

struct fxt_tracepoint {
	const char *name;
	void *probe;
	u32 events;		/* FXT_SCHED_EV_* that need it */
	bool required;
	/* One part of its category: missing, the others run without it. */
	bool part;
	struct tracepoint *tp;
	bool registered;
};

/* Name probes first: the name dump at start runs between the two groups. */
static struct fxt_tracepoint fxt_tracepoints[] = {
	{ "sched_process_fork", fxt_probe_fork,
	  FXT_SCHED_EV_NAMES | FXT_SCHED_EV_PROC, true },
	{ "sched_process_exec", fxt_probe_exec,
	  FXT_SCHED_EV_NAMES | FXT_SCHED_EV_PROC, true },
	{ "task_rename", fxt_probe_rename, FXT_SCHED_EV_NAMES, false },
	{ "sched_switch", fxt_probe_switch, FXT_SCHED_EV_SWITCH, true },
	/*
	 * sched_waking runs in the waker's context; sched_wakeup of a wakeup
	 * queued to an idle or remote CPU runs there, in an interrupt, where
	 * current is not the waker.
	 */
	{ "sched_waking", fxt_probe_wakeup, FXT_SCHED_EV_WAKEUP, true },
	{ "sched_wakeup_new", fxt_probe_wakeup, FXT_SCHED_EV_WAKEUP, true },
	{ "sched_process_exit", fxt_probe_exit, FXT_SCHED_EV_PROC, true },
	/*
	 * Each exit before its entry: a begin written while its end's probe
	 * is not yet registered would stay open, and the thread's next end
	 * (the start ioctl's own return) would close it.
	 */
	{ "irq_handler_exit", fxt_probe_irq_exit, FXT_SCHED_EV_IRQ, false },
	{ "irq_handler_entry", fxt_probe_irq_entry, FXT_SCHED_EV_IRQ, false },
	{ "softirq_exit", fxt_probe_softirq_exit, FXT_SCHED_EV_IRQ, false },
	{ "softirq_entry", fxt_probe_softirq_entry, FXT_SCHED_EV_IRQ, false },
	{ "sys_exit", fxt_probe_sys_exit, FXT_SCHED_EV_SYSCALL, false },
	{ "sys_enter", fxt_probe_sys_enter, FXT_SCHED_EV_SYSCALL, false },
	/* Completion first: no request seen to start loses its end to the gap. */
	{ "block_rq_complete", fxt_probe_block_complete, FXT_SCHED_EV_BLOCK,
	  false },
	{ "block_rq_issue", fxt_probe_block_issue, FXT_SCHED_EV_BLOCK, false },
	{ "cpu_idle", fxt_probe_cpu_idle, FXT_SCHED_EV_POWER, false },
	{ "cpu_frequency", fxt_probe_cpu_frequency, FXT_SCHED_EV_POWER, false },
	{ "page_fault_user", fxt_probe_page_fault_user, FXT_SCHED_EV_FAULT,
	  false },
	/* kernel:mem (fxt_mem.c); stall ends before begins, as above. */
	{ "rss_stat", fxt_probe_rss_stat, FXT_SCHED_EV_MEM, false },
	{ "sched_process_exit", fxt_probe_mem_exit, FXT_SCHED_EV_MEM, false },
	{ "mm_vmscan_direct_reclaim_end", fxt_probe_direct_reclaim_end,
	  FXT_SCHED_EV_MEM, false },
	{ "mm_vmscan_direct_reclaim_begin", fxt_probe_direct_reclaim_begin,
	  FXT_SCHED_EV_MEM, false },
	{ "mm_vmscan_memcg_reclaim_end", fxt_probe_memcg_reclaim_end,
	  FXT_SCHED_EV_MEM, false, true },
	{ "mm_vmscan_memcg_reclaim_begin", fxt_probe_memcg_reclaim_begin,
	  FXT_SCHED_EV_MEM, false, true },
#ifdef FXT_HAVE_MARK_VICTIM_TASK
	{ "mark_victim", fxt_probe_mark_victim, FXT_SCHED_EV_MEM, false, true },
#endif
	/* kernel:offcpu (fxt_offcpu.c); kernel:sample has no tracepoint. */
	{ "sched_switch", fxt_probe_offcpu, FXT_SCHED_EV_OFFCPU, false },
};

/* Optional events with a tracepoint this kernel lacks: none of them runs. */
static u32 fxt_missing;

static void fxt_find_tracepoint(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fxt_tracepoints); i++)
		if (!strcmp(tp->name, fxt_tracepoints[i].name))
			fxt_tracepoints[i].tp = tp;
}

int fxt_probes_init(void)
{
	size_t i;

	for_each_kernel_tracepoint(fxt_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(fxt_tracepoints); i++) {
		if (fxt_tracepoints[i].tp)
			continue;
		if (fxt_tracepoints[i].required) {
			pr_err("fxt_sched: tracepoint %s not found\n",
			       fxt_tracepoints[i].name);
			return -ENOENT;
		}
		pr_info("fxt_sched: tracepoint %s not found\n",
			fxt_tracepoints[i].name);
		if (!fxt_tracepoints[i].part)
			fxt_missing |= fxt_tracepoints[i].events;
	}
	return 0;
}

u32 fxt_probes_missing(void)
{
	return fxt_missing;
}

static int fxt_register(struct fxt_session *s, u32 events)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(fxt_tracepoints); i++) {
		struct fxt_tracepoint *t = &fxt_tracepoints[i];

		if (!(t->events & events & s->events & ~fxt_missing) ||
		    t->registered || !t->tp)
			continue;
		err = tracepoint_probe_register(t->tp, t->probe, s);
		if (err)
			return err;
		t->registered = true;
	}
	return 0;
}

/*
 * Every CPU's ring at once: the probes are unregistered one by one, with
 * grace periods between them, and a softirq or a system call that ends in
 * between must not have its end written after another end was lost (an
 * interrupt's exit probe outliving its entry probe pops the wrong level).
 */
static void fxt_rings_close(struct fxt_session *s, bool closed)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (s->rings[cpu].area)
			fxt_ring_close(&s->rings[cpu], closed);
}

int fxt_probes_start(struct fxt_session *s)
{
	unsigned int cpu;
	int err;

	/* No probe runs: the last session's interrupts may have been open. */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&fxt_irq_nest, cpu), 0,
		       sizeof(struct fxt_kirq_nest));
	fxt_rings_close(s, false);

	get_random_bytes(s->block_key, sizeof(s->block_key));
	if (s->events & FXT_SCHED_EV_MEM) {
		err = fxt_mem_start();
		if (err)
			return err;
	}
	if (s->events & FXT_SCHED_EV_OFFCPU) {
		err = fxt_offcpu_start();
		if (err) {
			fxt_mem_stop();
			return err;
		}
	}
	err = fxt_register(s, FXT_SCHED_EV_NAMES);
	if (!err && (s->events & FXT_SCHED_EV_NAMES))
		fxt_write_all_names(s);
	if (!err)
		err = fxt_register(s, FXT_SCHED_EV_SWITCH |
					      FXT_SCHED_EV_WAKEUP |
					      FXT_SCHED_EV_PROC |
					      FXT_SCHED_EV_IRQ |
					      FXT_SCHED_EV_SYSCALL |
					      FXT_SCHED_EV_DEV |
					      FXT_SCHED_EV_MEM |
					      FXT_SCHED_EV_OFFCPU);
	if (!err && (s->events & FXT_SCHED_EV_SAMPLE))
		err = fxt_sample_start(s);
	if (err)
		fxt_probes_stop(s);
	return err;
}

void fxt_probes_stop(struct fxt_session *s)
{
	size_t i;

	fxt_rings_close(s, true);
	fxt_sample_stop();
	for (i = 0; i < ARRAY_SIZE(fxt_tracepoints); i++) {
		struct fxt_tracepoint *t = &fxt_tracepoints[i];

		if (!t->registered)
			continue;
		WARN_ON(tracepoint_probe_unregister(t->tp, t->probe, s));
		t->registered = false;
	}
	tracepoint_synchronize_unregister();
	fxt_mem_stop();
	fxt_offcpu_stop();
}
