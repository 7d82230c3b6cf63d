/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The fxt_sched module's user ABI: /dev/fxt_sched's ioctls. Its mmap
 * offset space holds one ring of include/fxt/ring.h per CPU: CPU c's
 * region starts at c * info.cpu_stride, with the control page at
 * info.ctrl_offset (map read-only), the consumer page at
 * info.consumer_offset (the only page that may be mapped writable, and
 * only as a shared mapping of exactly that page) and info.buffer_bytes of
 * data at info.data_offset (read-only). A mapping must lie inside one
 * CPU's region. Records are at most FXT_SCHED_RECORD_MAX_WORDS words,
 * but for the stack records of include/fxt/ksample.h (at most
 * FXT_KSAMPLE_MAX_WORDS).
 * Streaming: poll() reports EPOLLIN when some CPU holds at least the
 * watermark.
 */
#ifndef FXT_SCHED_UAPI_H
#define FXT_SCHED_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include <fxt/ksyscall.h>
#include <fxt/ring.h>

#define FXT_SCHED_DEVICE "/dev/fxt_sched"
/*
 * 2: FXT_SCHED_IOC_LATENCY and fxt_ring_ctrl.latency_exceeded (the
 * wakeup-latency trigger).
 * 3: FXT_SCHED_EV_SAMPLE and FXT_SCHED_EV_OFFCPU, their settings in
 * fxt_sched_config (sample_hz, offcpu_min_ns), records of up to
 * FXT_KSAMPLE_MAX_WORDS words (include/fxt/ksample.h).
 * 4: those records' user stack tail: sp, bp, then up to
 * FXT_KSAMPLE_STACK_MAX words copied at sp (was: sp and 16 words).
 */
#define FXT_SCHED_ABI_VERSION 4u

/* Events to capture (fxt_sched_config.events). */
#define FXT_SCHED_EV_SWITCH (1u << 0)	/* context switch records */
#define FXT_SCHED_EV_WAKEUP (1u << 1)	/* wakeup + wakeup of new tasks */
#define FXT_SCHED_EV_NAMES (1u << 2)	/* thread/process kernel objects */
#define FXT_SCHED_EV_PROC (1u << 3)	/* fork/exec/exit (fxt/kproc.h) */
#define FXT_SCHED_EV_IRQ (1u << 4)	/* hardirq and softirq (fxt/kirq.h) */
#define FXT_SCHED_EV_SYSCALL (1u << 5)	/* system calls (fxt/ksyscall.h) */
/* Device and memory categories: bits 8 and up. */
#define FXT_SCHED_EV_POWER (1u << 8)	/* cpu_idle/frequency (fxt/kpower.h) */
#define FXT_SCHED_EV_BLOCK (1u << 9)	/* block requests (fxt/kblock.h) */
#define FXT_SCHED_EV_FAULT (1u << 10)	/* user page faults (fxt/kfault.h) */
#define FXT_SCHED_EV_MEM (1u << 11)	/* RSS, stalls, OOM (fxt/kmem.h) */
/* Stacks (fxt/ksample.h): on-CPU samples, blocked threads' stacks. */
#define FXT_SCHED_EV_SAMPLE (1u << 12)
#define FXT_SCHED_EV_OFFCPU (1u << 13)
#define FXT_SCHED_EV_STACKS (FXT_SCHED_EV_SAMPLE | FXT_SCHED_EV_OFFCPU)
#define FXT_SCHED_EV_DEV                                               \
	(FXT_SCHED_EV_POWER | FXT_SCHED_EV_BLOCK | FXT_SCHED_EV_FAULT)
#define FXT_SCHED_EV_ALL                                               \
	(FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP | FXT_SCHED_EV_NAMES | \
	 FXT_SCHED_EV_PROC | FXT_SCHED_EV_IRQ | FXT_SCHED_EV_SYSCALL |   \
	 FXT_SCHED_EV_DEV | FXT_SCHED_EV_MEM | FXT_SCHED_EV_STACKS)
/* The module's events until configured: kernel:sched and kernel:proc. */
#define FXT_SCHED_EV_DEFAULT                                           \
	(FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP | FXT_SCHED_EV_NAMES | \
	 FXT_SCHED_EV_PROC)
/* Bit positions of FXT_SCHED_EV_*: index of fxt_ring_ctrl's counters. */
#define FXT_SCHED_EV_BIT_SWITCH 0u
#define FXT_SCHED_EV_BIT_WAKEUP 1u
#define FXT_SCHED_EV_BIT_NAMES 2u
#define FXT_SCHED_EV_BIT_PROC 3u
#define FXT_SCHED_EV_BIT_IRQ 4u
#define FXT_SCHED_EV_BIT_SYSCALL 5u
#define FXT_SCHED_EV_BIT_POWER 8u
#define FXT_SCHED_EV_BIT_BLOCK 9u
#define FXT_SCHED_EV_BIT_FAULT 10u
#define FXT_SCHED_EV_BIT_MEM 11u
#define FXT_SCHED_EV_BIT_SAMPLE 12u
#define FXT_SCHED_EV_BIT_OFFCPU 13u

/* Bounds of fxt_sched_config.sample_hz (0: the default). */
#define FXT_SCHED_SAMPLE_HZ_MIN 1u
#define FXT_SCHED_SAMPLE_HZ_MAX 10000u
#define FXT_SCHED_SAMPLE_HZ_DEFAULT 499u

/* Bounds of fxt_sched_config.buffer_bytes (a power of two). */
#define FXT_SCHED_BUFFER_MIN 4096ull
#define FXT_SCHED_BUFFER_MAX (256ull << 20)
#define FXT_SCHED_BUFFER_DEFAULT (1ull << 20)

struct fxt_sched_info {
	__u32 abi_version;	/* FXT_SCHED_ABI_VERSION */
	__u32 ncpus;		/* regions 0..ncpus-1 (possible CPU ids) */
	__u32 page_size;
	__u32 max_record_words;	/* FXT_SCHED_RECORD_MAX_WORDS */
	__u64 buffer_bytes;	/* data bytes per CPU; 0 until configured */
	__u64 cpu_stride;	/* offset between two CPUs' regions */
	__u64 ctrl_offset;	/* offsets inside one CPU's region */
	__u64 consumer_offset;
	__u64 data_offset;
	__u32 mode;		/* enum fxt_buffering_mode */
	__u32 events;		/* FXT_SCHED_EV_* */
	__u64 watermark;	/* bytes */
	__u32 tracing;		/* 1 between START and STOP */
	/* FXT_SCHED_EV_* of events whose tracepoints this kernel lacks */
	__u32 missing;
	__u64 reserved[4];
};

struct fxt_sched_config {
	__u64 buffer_bytes;	/* 0: default; else power of two in bounds */
	__u32 mode;		/* enum fxt_buffering_mode */
	__u32 events;		/* non-empty subset of FXT_SCHED_EV_ALL */
	__u64 watermark;	/* 0: half the buffer; else < buffer_bytes */
	__u64 reserved[2];	/* must be zero */
	/* FXT_SCHED_EV_SYSCALL: only these tgids (0 ends); none: all */
	__u32 syscall_pids[FXT_KSYSCALL_PIDS_MAX];
	/* FXT_SCHED_EV_SAMPLE: samples per second per CPU (0: the default) */
	__u32 sample_hz;
	__u32 sample_reserved;	/* must be zero */
	/* FXT_SCHED_EV_OFFCPU: shorter blocks are not written (0: none) */
	__u64 offcpu_min_ns;
};

/* Sums over every CPU. */
struct fxt_sched_stats {
	__u64 records;		/* records written */
	__u64 bytes;		/* bytes written */
	__u64 dropped;		/* records lost to a full ring */
	__u64 overwritten;	/* circular: records overwritten */
	__u32 ncpus;
	__u32 tracing;
	__u64 reserved[2];
};

#define FXT_SCHED_IOC_MAGIC 0xF7
/* Returns FXT_SCHED_ABI_VERSION. */
#define FXT_SCHED_IOC_VERSION _IO(FXT_SCHED_IOC_MAGIC, 0)
#define FXT_SCHED_IOC_INFO _IOR(FXT_SCHED_IOC_MAGIC, 1, struct fxt_sched_info)
/* Stopped and unmapped only: reallocates the rings (contents lost). */
#define FXT_SCHED_IOC_CONFIGURE \
	_IOW(FXT_SCHED_IOC_MAGIC, 2, struct fxt_sched_config)
#define FXT_SCHED_IOC_START _IO(FXT_SCHED_IOC_MAGIC, 3)
#define FXT_SCHED_IOC_STOP _IO(FXT_SCHED_IOC_MAGIC, 4)
/* Stopped only: empties every ring and zeroes the counters. */
#define FXT_SCHED_IOC_RESET _IO(FXT_SCHED_IOC_MAGIC, 5)
#define FXT_SCHED_IOC_STATS \
	_IOR(FXT_SCHED_IOC_MAGIC, 6, struct fxt_sched_stats)
/*
 * The wakeup-latency threshold in ns (a __u64; 0: off, the default),
 * also while tracing: with FXT_SCHED_EV_SWITCH and FXT_SCHED_EV_WAKEUP,
 * a thread that waits longer than it from its wakeup until it gets a CPU
 * gets a sched_latency record (include/fxt/sched.h) in that CPU's ring
 * and counts in its ctrl->latency_exceeded.
 */
#define FXT_SCHED_IOC_LATENCY _IOW(FXT_SCHED_IOC_MAGIC, 7, __u64)

#endif /* FXT_SCHED_UAPI_H */
