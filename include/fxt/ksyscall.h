/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:syscall records as the kernel side writes them, one definition
 * for the kernel module and the BPF program: a duration begin at
 * raw_syscalls:sys_enter ("number" = the system call number) and a
 * duration end at sys_exit ("ret" = its return value), on the calling
 * thread (pid = tgid, tid = pid, inline).
 *
 * The kernel side writes only the number: the event's name is the indexed
 * string FXT_KSYSCALL_NAME_BASE + number, and the manager writes those
 * string records once, from the system call names of the architecture's
 * <asm/unistd.h> (generated at build time). Numbers outside the table are
 * named "syscall" (FXT_KIRQ_STR_SYSCALL).
 */
#ifndef FXT_KSYSCALL_H
#define FXT_KSYSCALL_H

#include <asm/unistd.h>

#include "fxt.h"
#include "kirq.h"

#define FXT_KSYSCALL_NAME_BASE 1024u
#define FXT_KSYSCALL_NR_MAX 1024u
#define FXT_KSYSCALL_ENTER_WORDS 5u
#define FXT_KSYSCALL_EXIT_WORDS 6u

/* Processes (tgids) kernel:syscall is limited to; none: every process. */
#define FXT_KSYSCALL_PIDS_MAX 4u

static inline int fxt_ksyscall_wanted(const __u32 *pids, __u32 tgid)
{
	unsigned int i;

	if (!pids[0])
		return 1;
	for (i = 0; i < FXT_KSYSCALL_PIDS_MAX && pids[i]; i++)
		if (pids[i] == tgid)
			return 1;
	return 0;
}

static inline __u16 fxt_ksyscall_name(long nr)
{
	return nr >= 0 && nr < (long)FXT_KSYSCALL_NR_MAX ?
		       (__u16)(FXT_KSYSCALL_NAME_BASE + nr) :
		       (__u16)FXT_KIRQ_STR_SYSCALL;
}

static inline void fxt_ksyscall_write_event(__u64 *w, __u32 words,
					    unsigned int type, long nr,
					    __u64 ts, __u64 pid, __u64 tid)
{
	w[0] = fxt_event_header(words, type, 1, 0, FXT_KIRQ_STR_CAT_SYSCALL,
				fxt_ksyscall_name(nr));
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
}

/* FXT_KSYSCALL_ENTER_WORDS words at w. */
static inline void fxt_ksyscall_write_enter(__u64 *w, __u64 ts, __u64 pid,
					    __u64 tid, long nr)
{
	fxt_ksyscall_write_event(w, FXT_KSYSCALL_ENTER_WORDS,
				 FXT_EVENT_DURATION_BEGIN, nr, ts, pid, tid);
	w[4] = fxt_arg_header(FXT_ARG_INT32, 1, FXT_KIRQ_STR_NUMBER, (__u32)nr);
}

/*
 * FXT_KSYSCALL_EXIT_WORDS words at w. nr is the number the registers hold
 * at sys_exit: rt_sigreturn has restored the interrupted context's by
 * then, which holds none (-1), so a negative number there is
 * rt_sigreturn's end.
 */
static inline void fxt_ksyscall_write_exit(__u64 *w, __u64 ts, __u64 pid,
					   __u64 tid, long nr, long ret)
{
	fxt_ksyscall_write_event(w, FXT_KSYSCALL_EXIT_WORDS,
				 FXT_EVENT_DURATION_END,
				 nr < 0 ? __NR_rt_sigreturn : nr, ts, pid,
				 tid);
	w[4] = fxt_arg_header(FXT_ARG_INT64, 2, FXT_KIRQ_STR_RET, 0);
	w[5] = (__u64)ret;
}

#endif /* FXT_KSYSCALL_H */
