/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Strings of the kernel:power, kernel:block, kernel:fault, kernel:mem,
 * kernel:sample and kernel:offcpu records (include/fxt/kpower.h,
 * kblock.h, kfault.h, kmem.h, ksample.h), one definition for the kernel
 * module, the BPF program and the manager.
 *
 * They are indexed strings of the kernel provider's section, like those
 * of include/fxt/sched.h, in a range of their own: the manager writes
 * FXT_KDEV_STRING_TABLE as string records FXT_KDEV_STR_BASE + i after
 * the sched table, so either table can grow without moving the other.
 */
#ifndef FXT_KDEV_H
#define FXT_KDEV_H

#include "fxt.h"

#define FXT_KDEV_STR_BASE 0x7f00u

enum fxt_kdev_string {
	/* kernel:power */
	FXT_KDEV_STR_CAT_POWER = FXT_KDEV_STR_BASE,
	FXT_KDEV_STR_CPU_IDLE,
	FXT_KDEV_STR_CPU_FREQUENCY,
	FXT_KDEV_STR_STATE,
	FXT_KDEV_STR_KHZ,
	/* kernel:block */
	FXT_KDEV_STR_CAT_BLOCK,
	FXT_KDEV_STR_BLOCK_READ,
	FXT_KDEV_STR_BLOCK_WRITE,
	FXT_KDEV_STR_BLOCK_FLUSH,
	FXT_KDEV_STR_BLOCK_DISCARD,
	FXT_KDEV_STR_BLOCK_OTHER,
	FXT_KDEV_STR_MAJOR,
	FXT_KDEV_STR_MINOR,
	FXT_KDEV_STR_SECTOR,
	FXT_KDEV_STR_BYTES,
	FXT_KDEV_STR_STATUS,
	/* kernel:fault */
	FXT_KDEV_STR_CAT_FAULT,
	FXT_KDEV_STR_PAGE_FAULT,
	FXT_KDEV_STR_ADDRESS,
	FXT_KDEV_STR_ERROR_CODE,
	/* kernel:mem */
	FXT_KDEV_STR_CAT_MEM,
	FXT_KDEV_STR_MEM_RSS,
	FXT_KDEV_STR_RSS_FILE,	/* + the kernel's MM_* counter index */
	FXT_KDEV_STR_RSS_ANON,
	FXT_KDEV_STR_RSS_SWAP,
	FXT_KDEV_STR_RSS_SHMEM,
	FXT_KDEV_STR_DIRECT_RECLAIM,	/* + enum fxt_kmem_stall */
	FXT_KDEV_STR_MEMCG_RECLAIM,
	FXT_KDEV_STR_COMPACTION,
	FXT_KDEV_STR_ORDER,
	FXT_KDEV_STR_RECLAIMED,
	FXT_KDEV_STR_OOM_KILL,
	FXT_KDEV_STR_PID,
	FXT_KDEV_STR_NAME,
	FXT_KDEV_STR_RSS,
	/* kernel:mem's system counters, written by the manager */
	FXT_KDEV_STR_MEMINFO,
	FXT_KDEV_STR_AVAILABLE,
	FXT_KDEV_STR_FREE,
	FXT_KDEV_STR_CACHED,
	FXT_KDEV_STR_DIRTY,
	FXT_KDEV_STR_SWAP_USED,
	FXT_KDEV_STR_VMSTAT,
	FXT_KDEV_STR_MAJOR_FAULTS,
	FXT_KDEV_STR_PGPGIN,
	FXT_KDEV_STR_PGPGOUT,
	/* kernel:sample and kernel:offcpu (include/fxt/ksample.h) */
	FXT_KDEV_STR_CAT_SAMPLE,
	FXT_KDEV_STR_CPU_SAMPLE,
	FXT_KDEV_STR_CAT_OFFCPU,
	FXT_KDEV_STR_OFFCPU,
	FXT_KDEV_STR_CPU,
	FXT_KDEV_STR_KERNEL_FRAMES,
	FXT_KDEV_STR_PERIOD_NS,
	FXT_KDEV_STR_BLOCKED_NS,
	/* the manager's stack tables and Perfetto blobs */
	FXT_KDEV_STR_STACK,
	FXT_KDEV_STR_PERFETTO,
	FXT_KDEV_STR_MAPPINGS,
	FXT_KDEV_STR_FRAMES,
	FXT_KDEV_STR_STACKS,
	FXT_KDEV_STR_SYMBOLS,
	FXT_KDEV_STR_PERFETTO_DROPPED,
	FXT_KDEV_STR_USER_STACK_WORDS,	/* include/fxt/ksample.h */
	FXT_KDEV_STR_STACK_LOSSES,	/* include/fxt/stacks_losses.h */
	FXT_KDEV_STR_END,
};

#define FXT_KDEV_STR_COUNT (FXT_KDEV_STR_END - FXT_KDEV_STR_BASE)

/* Index i holds the string of FXT_KDEV_STR_BASE + i. */
#define FXT_KDEV_STRING_TABLE                                              \
	{ "kernel:power", "cpu_idle", "cpu_frequency", "state", "khz",     \
	  "kernel:block", "block_read", "block_write", "block_flush",      \
	  "block_discard", "block_other", "major", "minor", "sector",      \
	  "bytes", "status",                                               \
	  "kernel:fault", "page_fault", "address", "error_code",           \
	  "kernel:mem", "mem.rss", "file", "anon", "swap", "shmem",         \
	  "direct_reclaim", "memcg_reclaim", "compaction", "order",        \
	  "reclaimed", "oom_kill", "pid", "name", "rss", "meminfo",        \
	  "available", "free", "cached", "dirty", "swap_used", "vmstat",   \
	  "major_faults", "pgpgin", "pgpgout",                             \
	  "kernel:sample", "cpu_sample", "kernel:offcpu", "offcpu", "cpu", \
	  "kernel_frames", "period_ns", "blocked_ns",                      \
	  "stack", "perfetto", "fxtrace:mappings", "fxtrace:frames",       \
	  "fxtrace:stacks", "fxtrace:symbols", "fxtrace:perfetto_dropped", \
	  "user_stack_words", "fxtrace:stack_losses" }

/*
 * Records of these categories that belong to no thread (counters of a
 * CPU, block requests that start on one thread and end in an interrupt)
 * are on the kernel's process, koid 0: Perfetto and chrome://tracing
 * match async begin and end within one process.
 */
#define FXT_KDEV_KERNEL_KOID 0u

static inline __u64 fxt_kdev_uint32_arg(__u16 name_index, __u32 value)
{
	return fxt_arg_header(FXT_ARG_UINT32, 1, name_index, value);
}

#endif /* FXT_KDEV_H */
