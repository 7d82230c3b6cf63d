/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:irq records as the kernel side writes them, one definition for
 * the kernel module and the BPF program: a duration begin at the handler's
 * entry and a duration end at its exit, on the thread the interrupt
 * stopped (pid = tgid, tid = pid, inline). Begin/end pairs, not complete
 * events: each record is stamped when it is written, so a CPU's ring stays
 * in time order (a complete event written at exit would carry a start time
 * older than the wakeups its handler wrote before it) and the kernel keeps
 * no start times. A nested interrupt's pair lies inside its host's.
 *
 * Also here: the koid of each CPU's idle task. Every idle task is pid 0;
 * as one thread they would pile the slices of all CPUs onto one track, so
 * CPU n's idle task is FXT_KIRQ_IDLE_KOID_BASE + n, named "swapper/n" by the
 * manager. Context switches and interrupts on an idle CPU use it.
 *
 * The category and fixed names are indexed strings that the manager writes
 * (FXT_KIRQ_STRING_TABLE at FXT_KIRQ_STR_BASE); a hardirq's name is inline:
 * "irq/<n> <handler name>", the handler's name cut at
 * FXT_KIRQ_HANDLER_NAME_MAX bytes. No record holds a kernel pointer.
 */
#ifndef FXT_KIRQ_H
#define FXT_KIRQ_H

#include "fxt.h"

/* Above any Linux pid (PID_MAX_LIMIT is 4194304). */
#define FXT_KIRQ_IDLE_KOID_BASE 0x40000000ull

static inline __u64 fxt_kirq_thread_koid(__u32 tid, __u32 cpu)
{
	return tid ? tid : FXT_KIRQ_IDLE_KOID_BASE + cpu;
}

/*
 * Indexed strings of kernel:irq and kernel:syscall, after the sched table
 * (include/fxt/sched.h) with room for it to grow.
 */
#define FXT_KIRQ_STR_BASE 256u
enum fxt_kirq_string {
	FXT_KIRQ_STR_CAT_IRQ = FXT_KIRQ_STR_BASE,
	FXT_KIRQ_STR_IRQ,
	FXT_KIRQ_STR_VEC,
	FXT_KIRQ_STR_CAT_SYSCALL,
	FXT_KIRQ_STR_NUMBER,
	FXT_KIRQ_STR_RET,
	FXT_KIRQ_STR_SOFTIRQ,	/* a vector this table does not name */
	FXT_KIRQ_STR_SOFTIRQ_0,	/* + vector, as include/linux/interrupt.h */
	FXT_KIRQ_STR_SYSCALL = FXT_KIRQ_STR_SOFTIRQ_0 + 10, /* unnamed number */
	FXT_KIRQ_STR_END,
};
#define FXT_KIRQ_SOFTIRQS 10u

/* Index i holds the string of index FXT_KIRQ_STR_BASE + i. */
#define FXT_KIRQ_STRING_TABLE                                              \
	{ "kernel:irq", "irq", "vec", "kernel:syscall", "number", "ret",    \
	  "softirq", "softirq/hi", "softirq/timer", "softirq/net_tx",       \
	  "softirq/net_rx", "softirq/block", "softirq/irq_poll",            \
	  "softirq/tasklet", "softirq/sched", "softirq/hrtimer",            \
	  "softirq/rcu", "syscall" }

/* "irq/" + up to 10 digits + " " */
#define FXT_KIRQ_PREFIX_MAX 15u
#define FXT_KIRQ_HANDLER_NAME_MAX 16u
#define FXT_KIRQ_NAME_MAX (FXT_KIRQ_PREFIX_MAX + FXT_KIRQ_HANDLER_NAME_MAX)
/* Header, timestamp, pid, tid: the words before an event's name or args. */
#define FXT_KIRQ_EVENT_WORDS 4u
#define FXT_KIRQ_SOFTIRQ_WORDS 5u
#define FXT_KIRQ_HARDIRQ_MAX_WORDS \
	(FXT_KIRQ_EVENT_WORDS + (FXT_KIRQ_NAME_MAX + 7) / 8 + 1)

/*
 * Writes "irq/<irq> " at name (FXT_KIRQ_PREFIX_MAX bytes of room) and
 * returns its length; the caller appends the handler's name.
 */
static inline __u32 fxt_kirq_name_prefix(char *name, __u32 irq)
{
	char digits[10];
	__u32 n = 0, len = 4, i;

	name[0] = 'i';
	name[1] = 'r';
	name[2] = 'q';
	name[3] = '/';
	for (i = 0; i < 10; i++) {
		digits[n++] = (char)('0' + irq % 10);
		irq /= 10;
		if (!irq)
			break;
	}
	for (i = 0; i < 10; i++) {
		if (i >= n)
			break;
		name[len++] = digits[n - 1 - i];
	}
	name[len++] = ' ';
	return len;
}

static inline __u32 fxt_kirq_hardirq_words(__u32 name_len)
{
	return FXT_KIRQ_EVENT_WORDS + fxt_words(name_len) + 1;
}

/*
 * Hardirq begin (type FXT_EVENT_DURATION_BEGIN) or end: writes all but the
 * name's bytes, which the caller has at w + FXT_KIRQ_EVENT_WORDS, padded
 * with zeros to a whole word.
 */
static inline void fxt_kirq_write_hardirq(__u64 *w, unsigned int type,
					  __u64 ts, __u64 pid, __u64 tid,
					  __u32 irq, __u32 name_len)
{
	__u32 words = fxt_kirq_hardirq_words(name_len);

	w[0] = fxt_event_header(words, type, 1, 0, FXT_KIRQ_STR_CAT_IRQ,
				fxt_string_ref_inline((__u16)name_len));
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
	w[words - 1] = fxt_arg_header(FXT_ARG_INT32, 1, FXT_KIRQ_STR_IRQ, irq);
}

/* Softirq begin or end: FXT_KIRQ_SOFTIRQ_WORDS words at w. */
static inline void fxt_kirq_write_softirq(__u64 *w, unsigned int type,
					  __u64 ts, __u64 pid, __u64 tid,
					  __u32 vec)
{
	__u16 name = vec < FXT_KIRQ_SOFTIRQS ?
			     (__u16)(FXT_KIRQ_STR_SOFTIRQ_0 + vec) :
			     (__u16)FXT_KIRQ_STR_SOFTIRQ;

	w[0] = fxt_event_header(FXT_KIRQ_SOFTIRQ_WORDS, type, 1, 0,
				FXT_KIRQ_STR_CAT_IRQ, name);
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
	w[4] = fxt_arg_header(FXT_ARG_INT32, 1, FXT_KIRQ_STR_VEC, vec);
}

/*
 * A CPU's interrupt nesting, so that an end is written exactly when its
 * begin was: a begin lost to a full ring (or, in BPF, to an interrupted
 * writer) loses its end too, and an interrupt entered before the trace
 * started writes no end. The writer updates it on its own CPU only.
 */
struct fxt_kirq_nest {
	__u32 depth;
	__u32 written;	/* bit d: the begin at depth d was written */
};

static inline void fxt_kirq_nest_enter(struct fxt_kirq_nest *n, int written)
{
	__u32 bit = 1u << (n->depth & 31);

	n->written = written ? n->written | bit : n->written & ~bit;
	n->depth++;
}

/* Whether the end of the innermost level is to be written. */
static inline int fxt_kirq_nest_exit(struct fxt_kirq_nest *n)
{
	if (!n->depth)
		return 0;
	n->depth--;
	return (n->written >> (n->depth & 31)) & 1;
}

#endif /* FXT_KIRQ_H */
