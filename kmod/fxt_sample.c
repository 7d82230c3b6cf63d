// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:sample: on-CPU samples (include/fxt/ksample.h), the same records
 * as the BPF program's, from a cpu-clock perf counter per CPU made by the
 * module itself: its overflow handler runs in the hrtimer's hard
 * interrupt every NSEC_PER_SEC / sample_hz of the CPU's time and writes
 * the interrupted thread's stacks into this CPU's ring. Interrupts are off
 * there, as in every probe: the ring keeps one writer at a time.
 *
 * Stacks, as the kernel's perf callchains have them:
 * - kernel: stack_trace_save() from the handler, the frames above the
 *   interrupted PC (perf's, the hrtimer's, the interrupt entry) left out;
 *   none when the sample hit user mode;
 * - user: a frame-pointer walk from the registers the thread entered the
 *   kernel with (perf_callchain_user()'s: the kernel does not export its
 *   own), each frame read with copy_from_user_nofault(), which never
 *   sleeps nor faults a page in: a frame not in memory ends the stack.
 *   Code built without frame pointers ends it early too.
 * The idle task is never sampled; CPUs that come online while tracing are
 * not sampled.
 */
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>

#include "fxt_sample.h"

u32 fxt_stack_kernel(struct fxt_stack_buf *b, unsigned long leaf, u64 *pcs)
{
	unsigned int n = stack_trace_save(b->trace, FXT_STACK_TRACE_MAX, 0);
	unsigned int at = 0, i, k;

	if (leaf) {
		while (at < n && b->trace[at] != leaf)
			at++;
		/* The unwinder lost its way: the interrupted PC at least. */
		if (at == n) {
			pcs[0] = leaf;
			return 1;
		}
	}
	k = min(n - at, FXT_KSAMPLE_KERNEL_MAX);
	for (i = 0; i < k; i++)
		pcs[i] = b->trace[at + i];
	return k;
}

/* A frame of code built with frame pointers: the caller's, then ours. */
struct fxt_user_frame {
	unsigned long next;
	unsigned long ret;
};

/* regs when user mode, else those current entered the kernel with. */
static struct pt_regs *fxt_user_regs(struct pt_regs *regs)
{
	return regs && user_mode(regs) ? regs : task_pt_regs(current);
}

u32 fxt_stack_user(struct pt_regs *regs, u64 *pcs)
{
	struct fxt_user_frame frame;
	unsigned long fp;
	u32 n = 0;

	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	regs = fxt_user_regs(regs);
	pcs[n++] = instruction_pointer(regs);
#ifdef CONFIG_X86_64
	/* 32-bit frames are another layout: their leaf only. */
	if (!user_64bit_mode(regs))
		return n;
#endif
	fp = frame_pointer(regs);
	/* Callers' frames are above: each fp higher, or the walk ends. */
	while (n < FXT_KSAMPLE_USER_MAX) {
		if (!fp || (fp & (sizeof(unsigned long) - 1)))
			break;
		if (copy_from_user_nofault(&frame, (const void __user *)fp,
					   sizeof(frame)))
			break;
		if (!frame.ret)
			break;
		pcs[n++] = frame.ret;
		if (frame.next <= fp)
			break;
		fp = frame.next;
	}
	return n;
}

/*
 * Up to FXT_KSAMPLE_STACK_MAX words from sp up into words, a page at a
 * time: the stack's top is often less than a copy above sp, and the
 * pages below it hold the frames the manager unwinds. The first page
 * that faults (the top, or a page not present: a nofault copy brings
 * none in) ends the copy. How many words were copied.
 */
static u32 fxt_copy_user_stack(unsigned long sp, u64 *words)
{
	unsigned long end = sp + FXT_KSAMPLE_STACK_MAX * sizeof(*words);
	unsigned long at = sp, chunk;

	while (at < end) {
		chunk = min(end, (at & PAGE_MASK) + PAGE_SIZE) - at;
		if (copy_from_user_nofault(&words[(at - sp) / sizeof(*words)],
					   (const void __user *)at, chunk))
			break;
		at += chunk;
	}
	return (at - sp) / sizeof(*words);
}

u32 fxt_stack_user_words(struct pt_regs *regs, u64 *at)
{
	unsigned long sp;
	u32 n;

	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	regs = fxt_user_regs(regs);
#ifdef CONFIG_X86_64
	if (!user_64bit_mode(regs))
		return 0;
#endif
	sp = user_stack_pointer(regs);
	/* Whole words, page by page: an unaligned sp is no stack anyway. */
	if (sp & (sizeof(*at) - 1))
		return 0;
	n = fxt_copy_user_stack(sp, &at[2]);
	if (!n)
		return 0;
	at[0] = sp;
	at[1] = frame_pointer(regs);
	return n;
}

static struct perf_event **fxt_sample_events;
static struct fxt_stack_buf __percpu *fxt_sample_bufs;

/* The hrtimer's hard interrupt; regs are the interrupted ones. */
static void fxt_sample_overflow(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	struct fxt_session *s = event->overflow_handler_context;
	u64 now = ktime_get_boot_fast_ns();
	struct fxt_stack_buf *b;
	u32 nk = 0, nu, ns;
	u64 *pcs;

	if (is_idle_task(current))
		return;
	b = this_cpu_ptr(fxt_sample_bufs);
	pcs = &b->w[FXT_KSAMPLE_HEAD_WORDS];
	if (!user_mode(regs))
		nk = fxt_stack_kernel(b, instruction_pointer(regs), pcs);
	nu = fxt_stack_user(regs, pcs + nk);
	ns = nu ? fxt_stack_user_words(regs, pcs + nk + nu) : 0;
	fxt_ksample_write_head(b->w, FXT_KSAMPLE_ONCPU, now, current->tgid,
			       current->pid, smp_processor_id(), nk, nu, ns,
			       s->sample_period_ns);
	fxt_ring_write(fxt_session_this_ring(s), FXT_SCHED_EV_BIT_SAMPLE, b->w,
		       fxt_ksample_words(nk, nu, ns));
}

static struct perf_event *fxt_sample_counter(struct fxt_session *s,
					     unsigned int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_period = s->sample_period_ns,
		.pinned = 1,
		.exclude_idle = 1,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL,
						fxt_sample_overflow, s);
}

int fxt_sample_start(struct fxt_session *s)
{
	unsigned int cpu;
	int err = 0;

	fxt_sample_events = kcalloc(nr_cpu_ids, sizeof(*fxt_sample_events),
				    GFP_KERNEL);
	fxt_sample_bufs = alloc_percpu(struct fxt_stack_buf);
	if (!fxt_sample_events || !fxt_sample_bufs) {
		fxt_sample_stop();
		return -ENOMEM;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct perf_event *e = fxt_sample_counter(s, cpu);

		if (IS_ERR(e)) {
			err = PTR_ERR(e);
			break;
		}
		fxt_sample_events[cpu] = e;
	}
	cpus_read_unlock();
	if (err) {
		pr_warn("fxt_sched: no cpu-clock counter on CPU %u: %d\n", cpu,
			err);
		fxt_sample_stop();
	}
	return err;
}

void fxt_sample_stop(void)
{
	unsigned int cpu;

	if (fxt_sample_events) {
		/* Each waits for its hrtimer's handler to return. */
		for_each_possible_cpu(cpu)
			if (fxt_sample_events[cpu])
				perf_event_release_kernel(fxt_sample_events[cpu]);
		kfree(fxt_sample_events);
		fxt_sample_events = NULL;
	}
	free_percpu(fxt_sample_bufs);
	fxt_sample_bufs = NULL;
}
