/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:sample and kernel:offcpu (include/fxt/ksample.h): on-CPU samples
 * from a cpu-clock perf counter per CPU (fxt_sample.c) and the stacks of
 * blocked threads from sched_switch (fxt_offcpu.c), the same records as
 * the BPF program's.
 */
#ifndef FXT_SAMPLE_H
#define FXT_SAMPLE_H

#include <linux/types.h>

#include <fxt/ksample.h>

#include "fxt_session.h"

struct pt_regs;
struct task_struct;

/*
 * Kernel return addresses saved to find the interrupted leaf among: the
 * perf and hrtimer frames above it, then FXT_KSAMPLE_KERNEL_MAX.
 */
#define FXT_STACK_TRACE_MAX (FXT_KSAMPLE_KERNEL_MAX + 32u)

/*
 * One CPU's record being built, and the kernel stack's scratch: too big
 * for an interrupt's stack, used with interrupts off.
 */
struct fxt_stack_buf {
	u64 w[FXT_KSAMPLE_MAX_WORDS];
	unsigned long trace[FXT_STACK_TRACE_MAX];
};

/*
 * The current thread's kernel stack into pcs, leaf first, at most
 * FXT_KSAMPLE_KERNEL_MAX: from leaf (an interrupted kernel PC) on, the
 * frames above it dropped; from the caller's own frame when leaf is 0.
 */
u32 fxt_stack_kernel(struct fxt_stack_buf *b, unsigned long leaf, u64 *pcs);
/*
 * The current thread's user stack into pcs, leaf first, at most
 * FXT_KSAMPLE_USER_MAX, by frame pointers: from regs when they are user
 * mode, else from the registers it entered the kernel with. None for
 * kernel threads.
 */
u32 fxt_stack_user(struct pt_regs *regs, u64 *pcs);
/*
 * The current thread's user stack pointer into at[0], its frame pointer
 * register into at[1], and from at[2] up to FXT_KSAMPLE_STACK_MAX words
 * copied at the stack pointer, until a page that faults (the same
 * registers as fxt_stack_user()): how many words, 0 when none could be
 * read.
 */
u32 fxt_stack_user_words(struct pt_regs *regs, u64 *at);

/* With FXT_SCHED_EV_SAMPLE: a counter per online CPU; under s->lock. */
int fxt_sample_start(struct fxt_session *s);
/* Releases them; no sample is taken any more when it returns. */
void fxt_sample_stop(void);

/* With FXT_SCHED_EV_OFFCPU: the blocked threads' table. */
int fxt_offcpu_start(void);
/* Frees it; once no probe runs any more. */
void fxt_offcpu_stop(void);
/* On sched_switch, beside kernel:sched's probe. */
void fxt_probe_offcpu(void *data, bool preempt, struct task_struct *prev,
		      struct task_struct *next, unsigned int prev_state);

#endif /* FXT_SAMPLE_H */
