/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Python frames in the BPF stack samples, one definition for the manager
 * and the BPF program (daemon/fxtraced/kernel/fxt_python.bpf.h): what
 * the manager tells the program of a CPython process, and how a sample
 * carries the Python frames the program read.
 *
 * Processes (map fxt_py_procs, by tgid): the manager writes an entry for
 * each process that maps a CPython interpreter whose layout it found
 * (daemon/symbols/py_layout.h, from the interpreter's DWARF): where the
 * runtime is in the process, where the evaluation function's code is
 * (_PyEval_EvalFrameDefault: the native frames Python frames stand for),
 * and the structure offsets a walk needs. An entry stands while the
 * process runs the program it was written for (start_stack, as the
 * unwinding tables' entries, include/fxt/unwind.h).
 *
 * At each sample of a thread of such a process, the program finds the
 * thread's state (by its native id: a cache of tid to thread state,
 * checked at each use, else the runtime's lists walked, bounded), then
 * follows its frames from the current one, at most FXT_PY_FRAMES_MAX.
 * Each Python frame becomes one word after the sample's native user PCs
 * (include/fxt/ksample.h: their count in "user_stack_words"):
 *
 *   bits  0..47  the frame's code object's address in the process
 *   bits 48..55  the index of the native user PC the frame stands in
 *                for: one evaluation call runs one group of Python
 *                frames (3.11: up to a frame marked is_entry; 3.12: up
 *                to a frame the C stack owns), the innermost group the
 *                innermost native frame in _PyEval_EvalFrameDefault;
 *                FXT_PY_NATIVE_NONE when the native walk has no frame
 *                left for its group (it stopped early)
 *   bits 56..63  FXT_PY_WORD_TAG
 *
 * The manager names each code object (its qualified name, file and
 * first line, read from the process's memory: daemon/symbols/py_frames.h)
 * and puts each group in place of its native frame.
 *
 * Stops (map fxt_py_stats, per CPU, FXT_PY_STAT_COUNT words).
 */
#ifndef FXT_PYFRAMES_H
#define FXT_PYFRAMES_H

#include "fxt.h"

/* Python frames a sample carries at most (within FXT_KSAMPLE_USER_MAX). */
#define FXT_PY_FRAMES_MAX 64u
/* Frames skipped (C-stack shims) and kept, walked at most. */
#define FXT_PY_STEPS_MAX (2 * FXT_PY_FRAMES_MAX)
/* Interpreters and threads walked to find a thread's state. */
#define FXT_PY_INTERPS_MAX 4u
#define FXT_PY_THREADS_MAX 256u
/* Evaluation calls on one native stack placed at most. */
#define FXT_PY_GROUPS_MAX 16u
/* Processes with an entry at once; thread states cached. */
#define FXT_PY_PROCS_MAX 1024u
#define FXT_PY_THREADS_CACHED 8192u

#define FXT_PY_WORD_TAG 0x50u /* 'P' */
#define FXT_PY_NATIVE_NONE 0xffu
#define FXT_PY_CODE_MASK ((1ull << 48) - 1)

/* cframe_current of 3.13: the thread state holds its frame itself. */
#define FXT_PY_NO_CFRAME 0xffffffffu

/* 3.12's frames the C stack owns (_frameowner's FRAME_OWNED_BY_CSTACK). */
#define FXT_PY_OWNED_BY_CSTACK 3

/* A CPython process as the program reads it; offsets in bytes. */
struct fxt_py_process {
	__u64 start_stack;	/* mm->start_stack of the program */
	__u64 runtime;		/* _PyRuntime in the process */
	__u64 eval_start, eval_end;	/* _PyEval_EvalFrameDefault's code */
	__u32 runtime_interp_head;
	__u32 interp_next;
	__u32 interp_threads_head;
	__u32 tstate_next;
	__u32 tstate_native_tid;
	__u32 tstate_cframe;	/* 3.13: the current frame's own */
	__u32 cframe_current;	/* 3.13: FXT_PY_NO_CFRAME */
	__u32 frame_code;
	__u32 frame_previous;
	__u32 frame_owner;
	__u32 frame_is_entry;	/* 0: none (3.12: C-stack frames instead) */
	__u32 pad;
};

enum fxt_py_stat {
	FXT_PY_STAT_WALKS,	/* samples of a thread with Python frames */
	FXT_PY_STAT_FRAMES,	/* Python frames written */
	FXT_PY_STAT_NO_THREAD,	/* threads of a Python process without state */
	FXT_PY_STAT_READ_FAULT,	/* walks stopped at a word not readable */
	FXT_PY_STAT_DEPTH,	/* walks cut: the record or the bound full */
	FXT_PY_STAT_UNPLACED,	/* frames of a group without native frame */
	FXT_PY_STAT_COUNT,
};

static inline __u64 fxt_py_word(__u64 code, __u32 native)
{
	return ((__u64)FXT_PY_WORD_TAG << 56) | ((__u64)(native & 0xff) << 48) |
	       (code & FXT_PY_CODE_MASK);
}

static inline int fxt_py_word_is(__u64 w)
{
	return (w >> 56) == FXT_PY_WORD_TAG;
}

static inline __u64 fxt_py_word_code(__u64 w)
{
	return w & FXT_PY_CODE_MASK;
}

static inline __u32 fxt_py_word_native(__u64 w)
{
	return (__u32)(w >> 48) & 0xff;
}

#endif /* FXT_PYFRAMES_H */
