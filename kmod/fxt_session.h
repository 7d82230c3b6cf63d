/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The state of one open /dev/fxt_sched: its configuration and its
 * per-CPU rings. The device allows one open file at a time.
 */
#ifndef FXT_SESSION_H
#define FXT_SESSION_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <fxt/ksyscall.h>

#include "fxt_ring.h"

struct fxt_session {
	/*
	 * Rules: everything below is changed only under lock. ->mmap()
	 * takes it under mmap_lock, so it is never held across a user copy.
	 */
	struct mutex lock;
	struct fxt_ring *rings;	/* nr_cpu_ids; area NULL if not possible */
	unsigned int ncpus;
	u64 buffer_bytes;
	u64 watermark;
	u32 mode;
	u32 events;
	u64 block_key[2];	/* kernel:block ids, drawn at each start */
	u32 syscall_pids[FXT_KSYSCALL_PIDS_MAX];
	bool tracing;
	/* kernel:sample's period, kernel:offcpu's shortest block written */
	u64 sample_period_ns;
	u64 offcpu_min_ns;
	/* FXT_SCHED_IOC_LATENCY; the probes read it without the lock. */
	u64 latency_ns;
	/* Rules: vma open/close; configure refuses while non-zero. */
	atomic_t mappings;
	wait_queue_head_t waiters;
};

static inline struct fxt_ring *fxt_session_this_ring(struct fxt_session *s)
{
	return &s->rings[smp_processor_id()];
}

#endif /* FXT_SESSION_H */
