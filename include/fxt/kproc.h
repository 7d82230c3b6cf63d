/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:proc records as the kernel side writes them: instant events on
 * the thread that forks, execs or exits, one definition for the kernel
 * module and the BPF program. The new or renamed threads and processes
 * are named by the kernel object records of include/fxt/sched.h.
 *
 * Every event names its thread inline (pid = tgid, tid = pid) and its
 * category and name by the kernel section's string table (sched.h).
 */
#ifndef FXT_KPROC_H
#define FXT_KPROC_H

#include "fxt.h"
#include "sched.h"

/* exec's file name: the first 63 bytes of the path the kernel ran. */
#define FXT_KPROC_FILENAME_MAX 63u

#define FXT_KPROC_FORK_WORDS 6u
#define FXT_KPROC_EXIT_WORDS 5u
/* Header, timestamp, pid, tid: the words before an event's arguments. */
#define FXT_KPROC_EVENT_WORDS 4u

static inline void fxt_kproc_write_instant(__u64 *w, __u32 words,
					   __u16 name, unsigned int nargs,
					   __u64 ts, __u64 pid, __u64 tid)
{
	w[0] = fxt_event_header(words, FXT_EVENT_INSTANT, nargs, 0,
				FXT_SCHED_STR_CAT_PROC, name);
	w[1] = ts;
	w[2] = pid;
	w[3] = tid;
}

/* "fork" on the forking thread, with the child's tid as koid "child". */
static inline void fxt_kproc_write_fork(__u64 *w, __u64 ts, __u64 pid,
					__u64 tid, __u64 child_tid)
{
	fxt_kproc_write_instant(w, FXT_KPROC_FORK_WORDS, FXT_SCHED_STR_FORK, 1,
				ts, pid, tid);
	w[4] = fxt_arg_header(FXT_ARG_KOID, 2, FXT_SCHED_STR_CHILD, 0);
	w[5] = child_tid;
}

/*
 * "exit" on the exiting thread. status is the kernel's exit_code (as
 * wait(2) reports it): "code" = the exit status for a normal exit, else
 * "signal" = the number of the signal that killed it.
 */
static inline void fxt_kproc_write_exit(__u64 *w, __u64 ts, __u64 pid,
					__u64 tid, __u32 status)
{
	int killed = (status & 0x7f) != 0;

	fxt_kproc_write_instant(w, FXT_KPROC_EXIT_WORDS, FXT_SCHED_STR_EXIT, 1,
				ts, pid, tid);
	w[4] = fxt_sched_int32_arg(killed ? FXT_SCHED_STR_SIGNAL :
					    FXT_SCHED_STR_CODE,
				   killed ? (__s32)(status & 0x7f) :
					    (__s32)((status >> 8) & 0xff));
}

/* "exec" with its "filename" argument: an inline string of name_len bytes. */
static inline __u32 fxt_kproc_exec_words(__u32 name_len)
{
	return FXT_KPROC_EVENT_WORDS + 1 + fxt_words(name_len);
}

/*
 * Writes all but the file name's bytes, which the caller copies to
 * w + FXT_KPROC_EVENT_WORDS + 1 and pads with zeros to a whole word.
 */
static inline void fxt_kproc_write_exec(__u64 *w, __u64 ts, __u64 pid,
					__u64 tid, __u32 name_len)
{
	__u16 ref = name_len ? fxt_string_ref_inline((__u16)name_len) : 0;

	fxt_kproc_write_instant(w, fxt_kproc_exec_words(name_len),
				FXT_SCHED_STR_EXEC, 1, ts, pid, tid);
	w[4] = fxt_arg_header(FXT_ARG_STRING, 1 + fxt_words(name_len),
			      FXT_SCHED_STR_FILENAME, ref);
}

#endif /* FXT_KPROC_H */
