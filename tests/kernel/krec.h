/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict decoding of the records fxt_sched writes (include/fxt/sched.h,
 * include/fxt/kproc.h, kpower.h, kblock.h, kfault.h, kmem.h),
 * checking what Perfetto requires: sizes, argument types and names.
 */
#ifndef KREC_H
#define KREC_H

#include <stddef.h>
#include <stdint.h>

enum krec_kind {
	KREC_SWITCH,
	KREC_WAKEUP,
	KREC_THREAD,
	KREC_PROCESS,
	KREC_FORK,	/* kernel:proc instant events (include/fxt/kproc.h) */
	KREC_EXEC,
	KREC_EXIT,
	/* kernel:irq and kernel:syscall slices (fxt/kirq.h, fxt/ksyscall.h) */
	KREC_BEGIN,
	KREC_END,
	KREC_IDLE,	/* kernel:power counters (include/fxt/kpower.h) */
	KREC_FREQUENCY,
	KREC_BLOCK_BEGIN,	/* kernel:block (include/fxt/kblock.h) */
	KREC_BLOCK_END,
	KREC_FAULT,	/* kernel:fault (include/fxt/kfault.h) */
	KREC_LATENCY,	/* the wakeup-latency instant (include/fxt/sched.h) */
	KREC_RSS,	/* kernel:mem (include/fxt/kmem.h) */
	KREC_STALL_BEGIN,
	KREC_STALL_END,
	KREC_OOM,
	KREC_KIND_COUNT,
};

struct krec {
	enum krec_kind kind;
	unsigned int words;
	unsigned int cpu;	/* scheduling; counters: the counter id */
	uint64_t ts;
	unsigned int out_state;
	uint64_t out_tid, in_tid;
	int32_t out_weight, in_weight;
	uint64_t tid;		/* wakeup: woken; thread/process: koid;
				   events: the thread */
	int32_t weight;
	uint64_t waker;
	uint64_t process;	/* thread, events: its tgid */
	char name[16];
	uint64_t child;		/* fork: the child's tid */
	int32_t code;		/* exit: status, or -1 when killed */
	int32_t signal;		/* exit: the killing signal, or 0 */
	char filename[64];	/* exec */
	unsigned int category;	/* begin/end: the category's string index */
	unsigned int name_ref;	/* its name's ref (0x8000 | len: inline) */
	char slice_name[32];	/* an inline name */
	int64_t value;		/* irq, softirq vec, syscall number or ret;
				   idle: state (-1 = left idle); frequency: kHz */
	uint16_t op;		/* block: its name, FXT_KDEV_STR_BLOCK_* */
	uint32_t major, minor, bytes, status;	/* block */
	uint64_t sector;	/* block begin */
	uint64_t async_id;	/* block */
	uint64_t address;	/* fault */
	uint32_t error_code;	/* fault */
	uint64_t latency_ns, wakeup_ts;	/* latency */
	/* kernel:mem: rss: the MM_* counter; stalls: enum fxt_kmem_stall */
	unsigned int mem_kind;
	/*
	 * rss: bytes; stall begin: the order; end: pages reclaimed or
	 * compaction's status; oom: the victim's RSS (its name in name)
	 */
	int64_t mem_value;
};

/* Returns the record's words, or 0 with a reason in why. */
unsigned int krec_decode(const uint64_t *w, size_t avail_words,
			 struct krec *r, char *why, size_t why_len);

#endif /* KREC_H */
