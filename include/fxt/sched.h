/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Scheduling records as the kernel side writes them: one definition for
 * the kernel module and the BPF program, read back by the manager.
 *
 * Argument names are indexed strings of the kernel provider's section.
 * The kernel side never writes string records: the manager writes
 * FXT_SCHED_STRING_TABLE as string records 1..FXT_SCHED_STR_COUNT at the
 * start of the "kernel" provider section, before any record below.
 */
#ifndef FXT_SCHED_H
#define FXT_SCHED_H

#include "fxt.h"

enum fxt_sched_string {
	FXT_SCHED_STR_OUTGOING_WEIGHT = 1,
	FXT_SCHED_STR_INCOMING_WEIGHT = 2,
	FXT_SCHED_STR_WEIGHT = 3,
	FXT_SCHED_STR_WAKER = 4,
	FXT_SCHED_STR_PROCESS = 5,
	/* kernel:proc (include/fxt/kproc.h) */
	FXT_SCHED_STR_CAT_PROC = 6,
	FXT_SCHED_STR_FORK = 7,
	FXT_SCHED_STR_EXEC = 8,
	FXT_SCHED_STR_EXIT = 9,
	FXT_SCHED_STR_CHILD = 10,
	FXT_SCHED_STR_FILENAME = 11,
	FXT_SCHED_STR_CODE = 12,
	FXT_SCHED_STR_SIGNAL = 13,
	/* The wakeup-latency instant, fxt_sched_write_latency() */
	FXT_SCHED_STR_CAT_SCHED = 14,
	FXT_SCHED_STR_LATENCY = 15,
	FXT_SCHED_STR_LATENCY_NS = 16,
	FXT_SCHED_STR_WAKEUP_TS = 17,
	FXT_SCHED_STR_COUNT = 17,
};

/* Index i holds the string of FXT_SCHED_STR_* value i; 0 is the empty string. */
#define FXT_SCHED_STRING_TABLE                                          \
	{ "", "outgoing_weight", "incoming_weight", "weight", "waker",  \
	  "process", "kernel:proc", "fork", "exec", "exit", "child",    \
	  "filename", "code", "signal", "kernel:sched", "sched_latency", \
	  "latency_ns", "wakeup_ts" }

/* Perfetto reads a weight of INT32_MIN as the idle thread. */
#define FXT_SCHED_IDLE_WEIGHT ((__s32)0x80000000)

/* Task names are at most TASK_COMM_LEN - 1 = 15 bytes: two words. */
#define FXT_SCHED_NAME_MAX 15u

#define FXT_SCHED_SWITCH_WORDS 6u
#define FXT_SCHED_WAKEUP_WORDS 6u
#define FXT_SCHED_LATENCY_WORDS 8u
/* The largest record of any kernel category: exec (include/fxt/kproc.h). */
#define FXT_SCHED_RECORD_MAX_WORDS 13u

/*
 * Linux task state bits as the sched_switch tracepoint passes them
 * (include/linux/sched.h, unchanged in their low bits since 4.14).
 */
#define FXT_LINUX_TASK_RUNNING 0x0000u
#define FXT_LINUX_TASK_INTERRUPTIBLE 0x0001u
#define FXT_LINUX_TASK_UNINTERRUPTIBLE 0x0002u
#define FXT_LINUX_TASK_STOPPED 0x0004u
#define FXT_LINUX_TASK_TRACED 0x0008u
#define FXT_LINUX_EXIT_DEAD 0x0010u
#define FXT_LINUX_EXIT_ZOMBIE 0x0020u
#define FXT_LINUX_TASK_PARKED 0x0040u
#define FXT_LINUX_TASK_DEAD 0x0080u

/* The state the outgoing thread is left in, as FXT names it. */
static inline unsigned int fxt_sched_thread_state(unsigned int linux_state,
						  int preempted)
{
	if (preempted || linux_state == FXT_LINUX_TASK_RUNNING)
		return FXT_THREAD_RUNNING;
	if (linux_state & (FXT_LINUX_TASK_DEAD | FXT_LINUX_EXIT_DEAD))
		return FXT_THREAD_DEAD;
	if (linux_state & FXT_LINUX_EXIT_ZOMBIE)
		return FXT_THREAD_DYING;
	if (linux_state & (FXT_LINUX_TASK_STOPPED | FXT_LINUX_TASK_TRACED))
		return FXT_THREAD_SUSPENDED;
	return FXT_THREAD_BLOCKED;
}

static inline __u64 fxt_sched_int32_arg(__u16 name_index, __s32 value)
{
	return fxt_arg_header(FXT_ARG_INT32, 1, name_index, (__u32)value);
}

/* Writes FXT_SCHED_SWITCH_WORDS words at w. */
static inline void fxt_sched_write_switch(__u64 *w, __u64 ts, unsigned int cpu,
					  unsigned int out_state, __u64 out_tid,
					  __u64 in_tid, __s32 out_weight,
					  __s32 in_weight)
{
	w[0] = fxt_context_switch_header(FXT_SCHED_SWITCH_WORDS, 2, cpu,
					 out_state);
	w[1] = ts;
	w[2] = out_tid;
	w[3] = in_tid;
	w[4] = fxt_sched_int32_arg(FXT_SCHED_STR_OUTGOING_WEIGHT, out_weight);
	w[5] = fxt_sched_int32_arg(FXT_SCHED_STR_INCOMING_WEIGHT, in_weight);
}

/* Writes FXT_SCHED_WAKEUP_WORDS words at w. */
static inline void fxt_sched_write_wakeup(__u64 *w, __u64 ts, unsigned int cpu,
					  __u64 tid, __s32 weight,
					  __u64 waker_tid)
{
	w[0] = fxt_thread_wakeup_header(FXT_SCHED_WAKEUP_WORDS, 2, cpu);
	w[1] = ts;
	w[2] = tid;
	w[3] = fxt_sched_int32_arg(FXT_SCHED_STR_WEIGHT, weight);
	w[4] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_SCHED_STR_WAKER, 0);
	w[5] = waker_tid;
}

/*
 * The wakeup-latency trigger: a thread that waited longer than the armed
 * threshold between its wakeup and getting a CPU. An instant event
 * "sched_latency" (category "kernel:sched") on that thread, stamped when
 * it got the CPU, with arguments latency_ns (the wait) and wakeup_ts (the
 * wakeup's timestamp, the clock of the records). An instant, not a
 * complete event over the wait: a complete event written at the switch
 * would carry the older wakeup time as its timestamp and break the ring's
 * time order (see include/fxt/kirq.h); the wait itself is already on the
 * timeline between the thread's wakeup record and its switch in, where
 * this instant marks its end and names its length.
 */
static inline void fxt_sched_write_latency(__u64 *w, __u64 ts, __u64 pid,
					   __u64 tid, __u64 latency_ns,
					   __u64 wakeup_ts)
{
	w[0] = fxt_event_header(FXT_SCHED_LATENCY_WORDS, FXT_EVENT_INSTANT, 2,
				0, FXT_SCHED_STR_CAT_SCHED,
				FXT_SCHED_STR_LATENCY);
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
	w[4] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_SCHED_STR_LATENCY_NS, 0);
	w[5] = latency_ns;
	w[6] = fxt_arg_header(FXT_ARG_UINT64, 2, FXT_SCHED_STR_WAKEUP_TS, 0);
	w[7] = wakeup_ts;
}

/*
 * The wakeup times of the latency check, module and BPF alike: one word
 * per slot of a direct-mapped table indexed by tid (FXT_SCHED_WAKE_SLOTS,
 * tid modulo its size), the tid (below PID_MAX_LIMIT = 2^22) in the low
 * bits and the wakeup time in microseconds above, so that a reader on
 * another CPU never pairs one task's tid with another's time. No lock, no
 * allocation and nothing that can fail in the scheduler's path: a
 * per-task store that can (BPF task storage, when busy) would leave a
 * wakeup time behind, and a later switch in after a preemption would be
 * measured from it. Two tids of one slot waiting at once lose one
 * measurement, never make a false one. 2^42 us wrap after 50 days of
 * uptime; waits are computed modulo that.
 */
#define FXT_SCHED_WAKE_SLOTS 4096u
#define FXT_SCHED_WAKE_TID_BITS 22u
#define FXT_SCHED_WAKE_US_MASK ((1ull << (64 - FXT_SCHED_WAKE_TID_BITS)) - 1)

static inline __u64 fxt_sched_wake_slot(__u32 tid, __u64 ts_ns)
{
	return (ts_ns / 1000) << FXT_SCHED_WAKE_TID_BITS |
	       (tid & ((1u << FXT_SCHED_WAKE_TID_BITS) - 1));
}

static inline int fxt_sched_wake_slot_is(__u64 slot, __u32 tid)
{
	return slot &&
	       (__u32)(slot & ((1u << FXT_SCHED_WAKE_TID_BITS) - 1)) == tid;
}

/* The wait in ns from the slot's wakeup to now_ns (microsecond grain). */
static inline __u64 fxt_sched_wake_slot_wait(__u64 slot, __u64 now_ns)
{
	__u64 then_us = slot >> FXT_SCHED_WAKE_TID_BITS;

	return ((now_ns / 1000 - then_us) & FXT_SCHED_WAKE_US_MASK) * 1000;
}

/*
 * Thread kernel object record: header, tid, name (inline, name_len bytes,
 * zero-padded), koid argument "process" = tgid.
 */
static inline __u32 fxt_sched_thread_words(__u32 name_len)
{
	return 4 + fxt_words(name_len);
}

/* Process kernel object record: header, pid, name (inline). */
static inline __u32 fxt_sched_process_words(__u32 name_len)
{
	return 2 + fxt_words(name_len);
}

/*
 * Writes all but the name stream, which the caller copies to w + 2 and
 * pads with zeros to a whole word.
 */
static inline void fxt_sched_write_thread_object(__u64 *w, __u64 tid,
						 __u64 tgid, __u32 name_len)
{
	__u32 words = fxt_sched_thread_words(name_len);

	w[0] = fxt_object_header(FXT_RECORD_KERNEL_OBJECT, words,
				 FXT_ZX_OBJ_THREAD,
				 fxt_string_ref_inline((__u16)name_len), 1);
	w[1] = tid;
	w[words - 2] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_SCHED_STR_PROCESS, 0);
	w[words - 1] = tgid;
}

static inline void fxt_sched_write_process_object(__u64 *w, __u64 tgid,
						  __u32 name_len)
{
	w[0] = fxt_object_header(FXT_RECORD_KERNEL_OBJECT,
				 fxt_sched_process_words(name_len),
				 FXT_ZX_OBJ_PROCESS,
				 fxt_string_ref_inline((__u16)name_len), 0);
	w[1] = tgid;
}

#endif /* FXT_SCHED_H */
