/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kernel:sample and kernel:offcpu raw records as the kernel side writes
 * them into its rings, one definition for the kernel module and the BPF
 * program. The manager turns each into an archive record without any
 * kernel address (include/fxt/stacks.h): these words never reach an
 * archive as they are.
 *
 * An FXT large blob record with metadata (record type 15, large type 0,
 * blob format 0), kept under 4096 words (Perfetto sizes every record
 * with the header's bits 4..15):
 *
 *   0     large header: size in words, large type 0, format 0
 *   1     format header: category and name (indexed kdev strings
 *         "kernel:sample"/"cpu_sample" or "kernel:offcpu"/"offcpu"),
 *         4 arguments, thread ref 0 (inline)
 *   2     timestamp, CLOCK_BOOTTIME ns: the sample's time, or for
 *         off-CPU the time the thread was switched out
 *   3, 4  pid (tgid), tid
 *   5     uint32 "cpu"
 *   6     uint32 "kernel_frames" = nk
 *   7     uint32 "user_stack_words" = ns
 *   8, 9  uint64 "period_ns" (on-CPU) or "blocked_ns" (off-CPU: its
 *         switch-in minus its switch-out)
 *   10    blob size in bytes = (nk + nu + (ns ? 2 + ns : 0)) * 8
 *   11..  nk kernel PCs leaf first, then nu user PCs leaf first, then
 *         when ns > 0: the user stack pointer, the user frame pointer
 *         register (rbp: data in code without frame pointers) and the
 *         ns words read at the stack pointer
 *
 * The user stack words are a copy of the stack from the stack pointer
 * up, for the manager to unwind afterwards with each file's call frame
 * information (as perf record --call-graph dwarf does): code built
 * without frame pointers, which the kernel side's frame-pointer walk
 * cannot follow, gets its callers there. The module copies up to
 * FXT_KSAMPLE_STACK_MAX words, page by page until a page that faults
 * (the stack's top, often less than a page above the stack pointer).
 * The BPF program copies FXT_KSAMPLE_STACK_LEAF words where it has no
 * tables of the process: enough for the manager to find the caller of
 * a leaf function that keeps no frame (a libc syscall wrapper such as
 * read(): "sub $0x28,%rsp; syscall"), which its frame-pointer walk
 * skips (glibc's syscall wrappers: read, write, poll, epoll_wait,
 * accept, clock_nanosleep: 0x28 bytes, return address at word 5;
 * select: six pushes and 0x38 bytes, return address at word 13).
 *
 * The BPF walker unwinds the user stack itself where the manager gave
 * it the process's unwinding tables (include/fxt/unwind.h): its user
 * PCs are then the whole walk, no stack words follow (ns = 0), and
 * "user_stack_words" holds FXT_KSAMPLE_UNWOUND.
 *
 * A sample of a Python thread (BPF: include/fxt/pyframes.h) has its
 * Python frames as the last words of its user PCs, their count in bits
 * 16..23 of "user_stack_words" (FXT_KSAMPLE_PY_*).
 *
 * Kernel threads have no user PCs; the idle task is never sampled.
 * Off-CPU records are written at the thread's switch-in, with the stacks
 * taken at its switch-out (it was still current then).
 *
 * Strings are the kernel provider's indexed strings of include/fxt/kdev.h.
 */
#ifndef FXT_KSAMPLE_H
#define FXT_KSAMPLE_H

#include "fxt.h"
#include "kdev.h"

/* The kernel PCs and user PCs a record holds at most. */
#define FXT_KSAMPLE_KERNEL_MAX 64u
#define FXT_KSAMPLE_USER_MAX 127u	/* the kernel's perf_event_max_stack */
/*
 * The words at the user stack pointer a record holds at most: 4 KiB, the
 * frames of a few calls without frame pointers (perf's default copy is
 * 8 KiB). The record stays well under the 4096 words an FXT record may
 * have (the header's 12-bit size; Perfetto sizes records with it): at
 * most 716 words, 5728 bytes. Each word costs the ring 8 bytes a sample,
 * and the module's table of blocked threads 8 bytes an entry.
 */
#define FXT_KSAMPLE_STACK_MAX 512u
/* What the BPF program copies: a frameless leaf's frame (above). */
#define FXT_KSAMPLE_STACK_LEAF 16u
/* "user_stack_words" of a stack unwound with tables (ns is 0 then). */
#define FXT_KSAMPLE_UNWOUND 0x80000000u
/* "user_stack_words": the Python frames among the user PCs. */
#define FXT_KSAMPLE_PY_SHIFT 16
#define FXT_KSAMPLE_PY_MASK (0xffu << FXT_KSAMPLE_PY_SHIFT)
/* "user_stack_words": the stack words' count. */
#define FXT_KSAMPLE_WORDS_MASK 0xffffu
/* Words before the PCs. */
#define FXT_KSAMPLE_HEAD_WORDS 11u
#define FXT_KSAMPLE_MAX_WORDS                                             \
	(FXT_KSAMPLE_HEAD_WORDS + FXT_KSAMPLE_KERNEL_MAX + FXT_KSAMPLE_USER_MAX + \
	 2 + FXT_KSAMPLE_STACK_MAX)
/* The longest record the BPF program writes (its buffers' size). */
#define FXT_KSAMPLE_BPF_MAX_WORDS                                         \
	(FXT_KSAMPLE_HEAD_WORDS + FXT_KSAMPLE_KERNEL_MAX + FXT_KSAMPLE_USER_MAX + \
	 2 + FXT_KSAMPLE_STACK_LEAF)
/* Where the timestamp is (word 1 in every other kernel record). */
#define FXT_KSAMPLE_TS_WORD 2u
#define FXT_KSAMPLE_PID_WORD 3u
#define FXT_KSAMPLE_TID_WORD 4u

enum fxt_ksample_kind {
	FXT_KSAMPLE_ONCPU,	/* "kernel:sample" "cpu_sample", period_ns */
	FXT_KSAMPLE_OFFCPU,	/* "kernel:offcpu" "offcpu", blocked_ns */
};

/* Frame counts as a record holds them. */
static inline __u32 fxt_ksample_kernel_frames(__u32 nk)
{
	return nk < FXT_KSAMPLE_KERNEL_MAX ? nk : FXT_KSAMPLE_KERNEL_MAX;
}

static inline __u32 fxt_ksample_user_frames(__u32 nu)
{
	return nu < FXT_KSAMPLE_USER_MAX ? nu : FXT_KSAMPLE_USER_MAX;
}

/* The words after the PCs: none, or the user sp, bp and ns words. */
static inline __u32 fxt_ksample_stack_tail(__u32 ns)
{
	return ns ? 2 + (ns < FXT_KSAMPLE_STACK_MAX ? ns :
			 FXT_KSAMPLE_STACK_MAX) : 0;
}

static inline __u32 fxt_ksample_words(__u32 nk, __u32 nu, __u32 ns)
{
	return FXT_KSAMPLE_HEAD_WORDS + fxt_ksample_kernel_frames(nk) +
	       fxt_ksample_user_frames(nu) + fxt_ksample_stack_tail(ns);
}

static inline __u64 fxt_ksample_format_word(unsigned int kind)
{
	int off = kind == FXT_KSAMPLE_OFFCPU;

	return fxt_large_blob_format_word(
		off ? FXT_KDEV_STR_CAT_OFFCPU : FXT_KDEV_STR_CAT_SAMPLE,
		off ? FXT_KDEV_STR_OFFCPU : FXT_KDEV_STR_CPU_SAMPLE, 4, 0);
}

static inline __u64 fxt_ksample_weight_arg(unsigned int kind)
{
	return fxt_arg_header(FXT_ARG_UINT64, 2,
			      kind == FXT_KSAMPLE_OFFCPU ?
				      FXT_KDEV_STR_BLOCKED_NS :
				      FXT_KDEV_STR_PERIOD_NS,
			      0);
}

/*
 * The FXT_KSAMPLE_HEAD_WORDS words before the PCs of a record of
 * fxt_ksample_words(nk, nu, ns) words; the caller puts the
 * fxt_ksample_kernel_frames(nk) kernel PCs at w + FXT_KSAMPLE_HEAD_WORDS,
 * then the fxt_ksample_user_frames(nu) user PCs, then (ns > 0) the user
 * sp, the user bp and min(ns, FXT_KSAMPLE_STACK_MAX) words read at sp. ns may be
 * FXT_KSAMPLE_UNWOUND instead: user PCs of a walk with tables, no words.
 * Either may have the count of Python frames, the last of the nu user
 * PCs, at FXT_KSAMPLE_PY_SHIFT (fewer than nu).
 */
static inline void fxt_ksample_write_head(__u64 *w, unsigned int kind,
					  __u64 ts, __u64 pid, __u64 tid,
					  __u32 cpu, __u32 nk, __u32 nu,
					  __u32 ns, __u64 weight_ns)
{
	__u32 unwound = ns & FXT_KSAMPLE_UNWOUND;
	__u32 py = ns & FXT_KSAMPLE_PY_MASK;
	__u32 k, u, t;

	ns = unwound ? 0 : ns & FXT_KSAMPLE_WORDS_MASK;
	k = fxt_ksample_kernel_frames(nk);
	u = fxt_ksample_user_frames(nu);
	t = fxt_ksample_stack_tail(ns);

	w[0] = fxt_large_blob_header(fxt_ksample_words(nk, nu, ns),
				     FXT_LARGE_BLOB_WITH_METADATA);
	w[1] = fxt_ksample_format_word(kind);
	w[2] = ts;
	w[3] = pid;
	w[4] = tid;
	w[5] = fxt_kdev_uint32_arg(FXT_KDEV_STR_CPU, cpu);
	w[6] = fxt_kdev_uint32_arg(FXT_KDEV_STR_KERNEL_FRAMES, k);
	w[7] = fxt_kdev_uint32_arg(FXT_KDEV_STR_USER_STACK_WORDS,
				   (t ? t - 2 : unwound) | py);
	w[8] = fxt_ksample_weight_arg(kind);
	w[9] = weight_ns;
	w[10] = (__u64)(k + u + t) * FXT_WORD_BYTES;
}

/* Whether the first two words of a record are those of a raw sample. */
static inline int fxt_ksample_is(__u64 w0, __u64 w1)
{
	return FXT_GET(w0, FXT_HDR_TYPE) == FXT_RECORD_LARGE &&
	       FXT_GET(w0, FXT_LARGE_TYPE) == FXT_LARGE_BLOB &&
	       FXT_GET(w0, FXT_LARGE_BLOB_FORMAT) ==
		       FXT_LARGE_BLOB_WITH_METADATA &&
	       (w1 == fxt_ksample_format_word(FXT_KSAMPLE_ONCPU) ||
		w1 == fxt_ksample_format_word(FXT_KSAMPLE_OFFCPU));
}

/* A raw record read back; pcs points into the record. */
struct fxt_ksample {
	unsigned int kind;	/* enum fxt_ksample_kind */
	__u64 ts;
	__u64 pid;
	__u64 tid;
	__u32 cpu;
	__u32 nk;	/* kernel PCs, at pcs[0 .. nk - 1] */
	__u32 nu;	/* native user PCs, at pcs[nk .. nk + nu - 1] */
	__u32 npy;	/* Python frames, at pcs[nk + nu .. nk + nu + npy - 1] */
	__u32 ns;	/* user stack words, at stack[0 .. ns - 1] */
	int unwound;	/* user PCs unwound with tables (ns is 0) */
	__u64 weight_ns;	/* period_ns or blocked_ns */
	__u64 user_sp;	/* where stack was read (ns > 0) */
	__u64 user_bp;	/* the frame pointer register then (ns > 0) */
	const __u64 *pcs;
	const __u64 *stack;
};

/*
 * Reads the raw record of words words at w (words from the ring, not
 * trusted): 1 when it is exactly what fxt_ksample_write_head() writes
 * with its PCs, else 0 and *s is not to be used.
 */
static inline int fxt_ksample_parse(const __u64 *w, __u64 words,
				    struct fxt_ksample *s)
{
	__u64 frames, tail;
	__u32 v;

	if (words < FXT_KSAMPLE_HEAD_WORDS || words > FXT_KSAMPLE_MAX_WORDS ||
	    !fxt_ksample_is(w[0], w[1]) ||
	    w[0] != fxt_large_blob_header(words, FXT_LARGE_BLOB_WITH_METADATA))
		return 0;
	s->kind = w[1] == fxt_ksample_format_word(FXT_KSAMPLE_OFFCPU) ?
			  FXT_KSAMPLE_OFFCPU :
			  FXT_KSAMPLE_ONCPU;
	frames = words - FXT_KSAMPLE_HEAD_WORDS;
	s->nk = (__u32)FXT_GET(w[6], FXT_ARG_VALUE32);
	v = (__u32)FXT_GET(w[7], FXT_ARG_VALUE32);
	s->npy = (v & FXT_KSAMPLE_PY_MASK) >> FXT_KSAMPLE_PY_SHIFT;
	v &= ~FXT_KSAMPLE_PY_MASK;
	s->unwound = v == FXT_KSAMPLE_UNWOUND;
	s->ns = s->unwound ? 0 : v;
	tail = s->ns ? 2 + (__u64)s->ns : 0;
	if ((w[5] & ~FXT_SET(~0u, FXT_ARG_VALUE32)) !=
		    fxt_kdev_uint32_arg(FXT_KDEV_STR_CPU, 0) ||
	    w[6] != fxt_kdev_uint32_arg(FXT_KDEV_STR_KERNEL_FRAMES, s->nk) ||
	    w[7] != fxt_kdev_uint32_arg(FXT_KDEV_STR_USER_STACK_WORDS,
					(s->unwound ? FXT_KSAMPLE_UNWOUND :
						      s->ns) |
						(s->npy << FXT_KSAMPLE_PY_SHIFT)) ||
	    w[8] != fxt_ksample_weight_arg(s->kind) ||
	    w[10] != frames * FXT_WORD_BYTES || s->nk > FXT_KSAMPLE_KERNEL_MAX ||
	    s->ns > FXT_KSAMPLE_STACK_MAX || s->nk + tail > frames ||
	    frames - s->nk - tail > FXT_KSAMPLE_USER_MAX ||
	    frames - s->nk - tail < s->npy)
		return 0;
	s->nu = (__u32)(frames - s->nk - tail) - s->npy;
	s->ts = w[2];
	s->pid = w[3];
	s->tid = w[4];
	s->cpu = (__u32)FXT_GET(w[5], FXT_ARG_VALUE32);
	s->weight_ns = w[9];
	s->pcs = w + FXT_KSAMPLE_HEAD_WORDS;
	s->user_sp = s->ns ? s->pcs[s->nk + s->nu + s->npy] : 0;
	s->user_bp = s->ns ? s->pcs[s->nk + s->nu + s->npy + 1] : 0;
	s->stack = s->pcs + s->nk + s->nu + s->npy + (s->ns ? 2 : 0);
	return 1;
}

#endif /* FXT_KSAMPLE_H */
