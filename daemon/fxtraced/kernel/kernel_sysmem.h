/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:mem's system counters: /proc/meminfo and /proc/vmstat sampled
 * by the manager as the "meminfo" and "vmstat" counter records of
 * include/fxt/kmem.h, on the kernel process. vmstat's are rates: the
 * first sample only sets where they count from.
 */
#ifndef FXT_KERNEL_SYSMEM_H
#define FXT_KERNEL_SYSMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include <fxt/kmem.h>

/* The default period of the samples. */
#define KERNEL_SYSMEM_INTERVAL_NS 100000000ull

/* Queued records past this are dropped (counted): hours of samples. */
#define KERNEL_SYSMEM_QUEUE_MAX_WORDS (1u << 20)

struct kernel_sysmem {
	uint64_t last_ns;	/* of the last sample; 0: none yet */
	uint64_t events[FXT_KMEM_VMSTAT_VALUES];	/* vmstat's then */
	bool have_events;
	/* Records sampled, until the drain takes them in time order. */
	__u64 *queue;
	size_t len, cap, head;	/* words: queued, allocated, taken */
	uint64_t records;	/* queued so far */
	uint64_t dropped;	/* not queued: the queue was full */
};

/*
 * meminfo's values in bytes (MemAvailable, MemFree, Cached, Dirty,
 * SwapTotal - SwapFree): a bit per value found in the return value.
 */
unsigned int kernel_sysmem_parse_meminfo(const char *text, size_t len,
					 __u64 bytes[FXT_KMEM_MEMINFO_VALUES]);
/* vmstat's pgmajfault, pgpgin, pgpgout: a bit per value found. */
unsigned int kernel_sysmem_parse_vmstat(const char *text, size_t len,
					uint64_t counts[FXT_KMEM_VMSTAT_VALUES]);

/*
 * A sample stamped now_ns (CLOCK_BOOTTIME, the kernel side's clock) of
 * proc_root's meminfo and vmstat, queued: up to FXT_KMEM_MEMINFO_WORDS +
 * FXT_KMEM_VMSTAT_WORDS words. vmstat's rates need a sample before.
 */
void kernel_sysmem_sample(struct kernel_sysmem *sm, const char *proc_root,
			  uint64_t now_ns);
/* Moves whole queued records into buf: bytes, 0 when none. */
size_t kernel_sysmem_read(struct kernel_sysmem *sm, void *buf, size_t cap);
void kernel_sysmem_free(struct kernel_sysmem *sm);

#endif /* FXT_KERNEL_SYSMEM_H */
