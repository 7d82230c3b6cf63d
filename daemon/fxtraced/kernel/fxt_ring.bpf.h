/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-CPU rings of include/fxt/ring.h as BPF programs write them: one
 * BPF_F_MMAPABLE array map, one element per possible CPU, laid out at
 * FXT_RING_BPF_*_OFFSET, and the queue of records an interrupt left to
 * the writer it interrupted. Included by each BPF object of kernel
 * capture (fxt_sched.bpf.c, fxt_stacks.bpf.c): the loader creates the
 * maps with the first and hands the same ones to the others
 * (bpf_map__reuse_fd()), so every program writes one ring per CPU and
 * ctrl->busy orders them all.
 */
#ifndef FXT_RING_BPF_H
#define FXT_RING_BPF_H

#include <stdbool.h>
#include <linux/types.h>
#include <linux/bpf.h>

#include <bpf/bpf_helpers.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>
#include <fxt/ring.h>
#include <fxt/sched.h>

/* Set by the loader before load, the same in each object. */
const volatile __u64 ring_bytes = 8;		/* power of two */
const volatile __u32 ring_mode = FXT_BUFFERING_STREAMING;

/* Sized by the loader: max_entries = possible CPUs, value = a ring. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, FXT_RING_BPF_DATA_OFFSET + 8);
	__uint(max_entries, 1);
} fxt_ring SEC(".maps");

#define barrier() asm volatile("" ::: "memory")
#define READ_ONCE(x) (*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))

/* B: release the record words before head (TSO orders plain stores). */
#if defined(__TARGET_ARCH_x86)
#define FXT_BPF_PUBLISH(p, v) (WRITE_ONCE(*(p), (v)))
#else
#define FXT_BPF_PUBLISH(p, v) ((void)__sync_lock_test_and_set((p), (v)))
#endif

/*
 * Circular: releases the oldest whole record if bytes more do not fit
 * yet; 1: released, 0: they fit, -1: no room can be made.
 */
static __always_inline int release_oldest(struct fxt_ring_ctrl *ctrl,
					  char *data, __u64 head, __u32 bytes,
					  __u64 *oldest)
{
	__u64 size;

	if (head + bytes - *oldest <= ring_bytes)
		return 0;
	size = fxt_ring_record_bytes(data, ring_bytes - 1, *oldest, head);
	if (!size)
		return -1;
	*oldest += size;
	ctrl->overwritten++;
	return 1;
}

/*
 * Circular: make room by releasing the oldest whole records (>= 2 words).
 * Only the program moves oldest; the reader reads after detaching. A long
 * record (include/fxt/ksample.h) may release many: a loop the verifier
 * bounds, not unrolled.
 */
static __always_inline bool overwrite_oldest(struct fxt_ring_ctrl *ctrl,
					     char *data, __u64 head,
					     __u32 bytes, bool long_record)
{
	__u64 oldest = ctrl->oldest;
	int i;

	if (long_record) {
#pragma clang loop unroll(disable)
		for (i = 0; i < (FXT_KSAMPLE_BPF_MAX_WORDS + 1) / 2; i++)
			if (release_oldest(ctrl, data, head, bytes, &oldest) <= 0)
				break;
	} else {
#pragma unroll
		for (i = 0; i < (FXT_SCHED_RECORD_MAX_WORDS + 1) / 2; i++)
			if (release_oldest(ctrl, data, head, bytes, &oldest) <= 0)
				break;
	}
	if (head + bytes - oldest > ring_bytes)
		return false;
	WRITE_ONCE(ctrl->oldest, oldest);
	return true;
}

/* A: the program of this CPU reuses bytes the reader released. */
static __always_inline bool make_room(struct fxt_ring_ctrl *ctrl,
				      const struct fxt_ring_consumer *consumer,
				      char *data, __u64 head, __u32 bytes,
				      bool long_record)
{
	if (ring_mode == FXT_BUFFERING_CIRCULAR)
		return overwrite_oldest(ctrl, data, head, bytes, long_record);
	if (ctrl->stopped)
		return false;
	if (head + bytes - READ_ONCE(consumer->tail) <= ring_bytes)
		return true;
	if (ring_mode == FXT_BUFFERING_ONESHOT)
		ctrl->stopped = 1;
	return false;
}

static __always_inline void count_drop(struct fxt_ring_ctrl *ctrl,
				       unsigned int kind)
{
	__sync_fetch_and_add(&ctrl->dropped, 1);
	__sync_fetch_and_add(&ctrl->event_dropped[kind], 1);
}

/*
 * Records of an interrupt that came while this CPU's writer was inside
 * ring_append() (a wakeup in an interrupt during a fork's names, a
 * system call's entry): kept here and written by that writer once its
 * own record is in, instead of lost. Interrupts nest (a hard interrupt
 * in a softirq in a task): a slot is reserved by an atomic add and
 * marked written by its sequence. Counted as dropped until written, so
 * one left here when capture stops stays counted.
 */
#define FXT_NESTED_SLOTS 8u

struct fxt_nested {
	__u32 reserved;	/* slots handed out, free-running */
	__u32 taken;	/* slots the writer is done with */
	__u32 seq[FXT_NESTED_SLOTS];	/* slot index + 1 once filled */
	__u32 kind[FXT_NESTED_SLOTS];
	__u32 words[FXT_NESTED_SLOTS];
	__u64 rec[FXT_NESTED_SLOTS][FXT_SCHED_RECORD_MAX_WORDS];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct fxt_nested));
	__uint(max_entries, 1);
} fxt_nested SEC(".maps");

static __always_inline struct fxt_nested *nested_queue(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&fxt_nested, &zero);
}

/* An interrupt's record while the writer is busy: false, no free slot. */
static __always_inline bool nested_keep(const __u64 *rec, __u32 words,
					unsigned int kind)
{
	struct fxt_nested *q = nested_queue();
	__u32 i, slot;
	int w;

	if (!q || words > FXT_SCHED_RECORD_MAX_WORDS)
		return false;
	i = __sync_fetch_and_add(&q->reserved, 1);
	if (i - READ_ONCE(q->taken) >= FXT_NESTED_SLOTS)
		return false;
	slot = i & (FXT_NESTED_SLOTS - 1);
#pragma unroll
	for (w = 0; w < FXT_SCHED_RECORD_MAX_WORDS; w++)
		if (w < words)
			q->rec[slot][w] = rec[w];
	q->kind[slot] = kind;
	q->words[slot] = words;
	barrier();
	WRITE_ONCE(q->seq[slot], i + 1);
	return true;
}

/*
 * Writes one record into this CPU's ring, the caller being its only
 * writer (ctrl->busy); false when there is no room. Records of up to
 * FXT_SCHED_RECORD_MAX_WORDS words are copied by an unrolled loop; long
 * ones (up to FXT_KSAMPLE_BPF_MAX_WORDS) by a bounded one.
 */
static __always_inline bool ring_put(struct fxt_ring_ctrl *ctrl,
				     const struct fxt_ring_consumer *consumer,
				     char *data, const __u64 *rec, __u32 words,
				     unsigned int kind, bool long_record)
{
	__u32 bytes = words * 8;
	__u64 head = ctrl->head, word_mask;
	int i;

	if (!make_room(ctrl, consumer, data, head, bytes, long_record))
		return false;
	/* ctrl->oldest moves before the words it frees (fxt_ring_peek()). */
	barrier();
	/* One read of the constant: each read of a volatile is a load. */
	word_mask = ring_bytes - 8;
	if (long_record) {
#pragma clang loop unroll(disable)
		for (i = 0; i < FXT_KSAMPLE_BPF_MAX_WORDS && i < words; i++)
			*(__u64 *)(data + ((head + i * 8) & word_mask)) = rec[i];
	} else {
#pragma unroll
		for (i = 0; i < FXT_SCHED_RECORD_MAX_WORDS; i++) {
			if (i < words)
				*(__u64 *)(data + ((head + i * 8) & word_mask)) =
					rec[i];
		}
	}
	barrier();
	FXT_BPF_PUBLISH(&ctrl->head, head + bytes);
	ctrl->records++;
	ctrl->event_records[kind]++;
	return true;
}

/* The kept records, oldest first; each written one is no drop any more. */
static __always_inline void
nested_flush(struct fxt_ring_ctrl *ctrl,
	     const struct fxt_ring_consumer *consumer, char *data,
	     struct fxt_nested *q)
{
	__u32 n, i, slot, kind;

#pragma clang loop unroll(disable)
	for (n = 0; n < FXT_NESTED_SLOTS; n++) {
		i = READ_ONCE(q->taken);
		if (i == READ_ONCE(q->reserved))
			break;
		slot = i & (FXT_NESTED_SLOTS - 1);
		kind = q->kind[slot] & (FXT_RING_EVENT_KINDS - 1);
		if (READ_ONCE(q->seq[slot]) == i + 1 &&
		    q->words[slot] <= FXT_SCHED_RECORD_MAX_WORDS &&
		    ring_put(ctrl, consumer, data, q->rec[slot],
			     q->words[slot], kind, false)) {
			__sync_fetch_and_add(&ctrl->dropped, -1);
			__sync_fetch_and_add(&ctrl->event_dropped[kind], -1);
		}
		WRITE_ONCE(q->taken, i + 1);
	}
}

/*
 * Appends one record of this CPU, counted under kind (FXT_SCHED_EV_BIT_*);
 * false when it was dropped. Programs run with preemption off, so only an
 * interrupt can nest here (a self-wakeup runs with interrupts on, and the
 * sampler runs in interrupts): the nested writer leaves its record to the
 * one it interrupted (nested_keep()), or, for a long record, drops it.
 */
static __always_inline bool ring_append(const __u64 *rec, __u32 words,
					unsigned int kind, bool long_record)
{
	__u32 cpu = bpf_get_smp_processor_id();
	const struct fxt_ring_consumer *consumer;
	struct fxt_ring_ctrl *ctrl;
	struct fxt_nested *q;
	char *elem, *data;
	bool written;

	elem = bpf_map_lookup_elem(&fxt_ring, &cpu);
	if (!elem)
		return false;
	ctrl = (struct fxt_ring_ctrl *)elem;
	data = elem + FXT_RING_BPF_DATA_OFFSET;
	consumer = (const void *)(elem + FXT_RING_BPF_CONSUMER_OFFSET);
	if (READ_ONCE(consumer->closed))
		return false;
	kind &= FXT_RING_EVENT_KINDS - 1;
	if (ctrl->busy) {
		count_drop(ctrl, kind);
		return !long_record && nested_keep(rec, words, kind);
	}
	ctrl->busy = 1;
	barrier();
	written = ring_put(ctrl, consumer, data, rec, words, kind, long_record);
	if (!written)
		count_drop(ctrl, kind);
	q = nested_queue();
	if (q)
		nested_flush(ctrl, consumer, data, q);
	barrier();
	ctrl->busy = 0;
	barrier();
	/* Kept by an interrupt after the flush: once more. */
	if (q && READ_ONCE(q->taken) != READ_ONCE(q->reserved)) {
		ctrl->busy = 1;
		barrier();
		nested_flush(ctrl, consumer, data, q);
		barrier();
		ctrl->busy = 0;
	}
	return written;
}

static __always_inline bool ring_write(const __u64 *rec, __u32 words,
				       unsigned int kind)
{
	return ring_append(rec, words, kind, false);
}

#endif /* FXT_RING_BPF_H */
