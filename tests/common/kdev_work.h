/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workloads that make the kernel:fault and kernel:block tracepoints
 * fire a known number of times, for the host (BPF) and guest (module)
 * tests.
 */
#ifndef KDEV_WORK_H
#define KDEV_WORK_H

#include <stddef.h>
#include <stdint.h>

/*
 * Maps pages fresh anonymous pages and writes one byte to each: one user
 * page fault per page, on the calling thread. *base is the first page;
 * the mapping is left in place so no later mapping reuses the range.
 */
int kdev_touch_pages(size_t pages, uintptr_t *base);

/*
 * count O_DIRECT writes of bytes each (a multiple of 4096) to path at
 * offsets 0, bytes, 2 * bytes..., then fdatasync: each write is one
 * block request of bytes bytes at sector offset / 512 of the device.
 */
int kdev_direct_writes(const char *path, unsigned int count, size_t bytes);

/* pages faults as kdev_touch_pages(), in chunks unmapped again. */
int kdev_fault_rounds(long pages);

/* count O_DIRECT reads of bytes each, cycling over the first 16 MiB. */
int kdev_direct_reads(const char *path, unsigned int count, size_t bytes);

/*
 * Attaches a free loop device (the loop driver loaded) to a new file of
 * 16 MiB at image: its path in dev, its minor in *minor (major is 7).
 */
int kdev_loop_attach(const char *image, char *dev, size_t dev_len,
		     unsigned int *minor);
void kdev_loop_detach(const char *dev);

/* count sleeps of 50 us pinned to CPU 0: it goes idle and back each time. */
int kdev_naps(unsigned int count);

/*
 * The wakeup-latency trigger's workload, pinned to the calling thread's
 * CPU: rounds times a SCHED_FIFO waker wakes a wakee (a normal thread,
 * blocked on a pipe) and, with hog_ms, then a SCHED_FIFO hog of higher
 * priority that spins hog_ms on that CPU: the wakee waits at least that
 * long for it. Without the hog the waker blocks and the wakee runs at
 * once. *wakee_tid: the wakee; *max_wait_us: its longest wait as it saw
 * it (waker's clock before the wakeup to the wakee's after its read).
 * Needs CAP_SYS_NICE.
 */
int kdev_wakeup_latency(unsigned int rounds, unsigned int hog_ms,
			int *wakee_tid, uint64_t *max_wait_us);

/*
 * A thread that blocks on a pipe under the process's name, is woken,
 * names itself name (pthread_setname_np, as servers name their workers),
 * then sleeps 1 ms and exits: switches before and after the rename.
 * *tid: that thread.
 */
int kdev_rename_thread(const char *name, int *tid);

/*
 * Interrupts inside the kernel side's writers: pinned to CPU 0, syscalls
 * getppid() calls (kernel:syscall writes at each entry and exit, with
 * interrupts on) while a thread on the same CPU naps 50 us in a loop:
 * its timer's interrupt wakes it, often while a system call's record is
 * being written.
 */
int kdev_nested_wakeups(unsigned int syscalls);

#endif /* KDEV_WORK_H */
