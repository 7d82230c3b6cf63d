/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel side's per-CPU ring of whole FXT records (include/fxt/sched.h),
 * written by the fxt_sched module or the BPF program, read by the manager's
 * backends and the tests. Kernel, clang -target bpf and userspace.
 *
 * One CPU's area is a control page (struct fxt_ring_ctrl, written by the
 * writer), a consumer page (struct fxt_ring_consumer, written by the
 * reader), then the data: a power of two of bytes. The module's offsets are
 * in struct fxt_sched_info (a PAGE_SIZE page each); the BPF map element
 * uses FXT_RING_BPF_*_OFFSET. Positions are free-running byte counts; the
 * word at position p is at data[p & (bytes - 1)]. A record may wrap from
 * the end of data to its start, always at a word boundary, so its header
 * word is never split.
 *
 *   writer (this CPU only)                 reader (any CPU)
 *   tail = load-acquire(consumer->tail) A
 *   write the record's words
 *   store-release(ctrl->head)           B  head = load-acquire(ctrl->head) C
 *                                          copy records in [tail, head)
 *                                          store-release(consumer->tail) D
 *
 * B pairs with C: the words are visible before the head that covers them.
 * D pairs with A: the writer reuses space only after the reader copied it.
 *
 * Modes (enum fxt_buffering_mode):
 *   ONESHOT    the first record that does not fit stops the CPU's ring:
 *              it and every later one is counted in ctrl->dropped.
 *   CIRCULAR   the writer overwrites the oldest whole records, counts them
 *              in ctrl->overwritten and keeps ctrl->oldest at the first
 *              record still held; the reader reads [max(tail, oldest),
 *              head) once the writers stopped.
 *   STREAMING  the reader drains while tracing; a record that does not
 *              fit is dropped and counted in ctrl->dropped.
 */
#ifndef FXT_FXT_RING_H
#define FXT_FXT_RING_H

#include <fxt/fxt.h>

/* Buffering modes, for provider buffers and kernel rings alike. */
enum fxt_buffering_mode {
	FXT_BUFFERING_ONESHOT = 0,
	FXT_BUFFERING_CIRCULAR = 1,
	FXT_BUFFERING_STREAMING = 2,
};

#define FXT_RING_EVENT_KINDS 16u

/* Written only by the writer; the counters are plain snapshots. */
struct fxt_ring_ctrl {
	__u32 version;		/* module: FXT_SCHED_ABI_VERSION */
	__u32 mode;		/* module: enum fxt_buffering_mode */
	__u64 head;		/* end of the last whole record */
	__u64 oldest;		/* circular: first whole record held */
	__u64 records;		/* records written */
	__u64 dropped;		/* records lost to a full ring (or nesting) */
	__u64 overwritten;	/* circular: records overwritten */
	__u32 busy;		/* BPF: a writer of this CPU is inside */
	__u32 stopped;		/* BPF: oneshot, the ring filled */
	/* Per FXT_SCHED_EV_BIT_*: records written, records dropped */
	__u64 event_records[FXT_RING_EVENT_KINDS];
	__u64 event_dropped[FXT_RING_EVENT_KINDS];
	/*
	 * Threads of this CPU that waited longer than the armed wakeup
	 * latency for it (include/fxt/sched.h, fxt_sched_write_latency());
	 * the manager polls the sum while that trigger is armed.
	 */
	__u64 latency_exceeded;
	__u64 reserved[24];
};

/*
 * Written only by the reader: the end of what it has consumed (D), and
 * (BPF) that capture stopped: the programs then return at once, although
 * a descriptor the reader cannot reach (the descriptor store's copy of a
 * link) may keep them attached a while longer.
 */
struct fxt_ring_consumer {
	__u64 tail;
	__u32 closed;		/* BPF: the reader stopped capture */
	__u32 reserved32;
	__u64 reserved[62];
};

#define FXT_RING_BPF_CONSUMER_OFFSET 4096u
#define FXT_RING_BPF_DATA_OFFSET 8192u

/* The word at position pos (a multiple of 8) of mask + 1 data bytes. */
static inline __u64 fxt_ring_word(const void *data, __u64 mask, __u64 pos)
{
	return *(const __u64 *)((const __u8 *)data + (pos & mask & ~7ull));
}

/*
 * Bytes of the record at pos, or 0 if its header cannot start a whole
 * record before head: then nothing up to head can be trusted.
 */
static inline __u64 fxt_ring_record_bytes(const void *data, __u64 mask,
					  __u64 pos, __u64 head)
{
	__u64 bytes = fxt_record_bytes(fxt_ring_word(data, mask, pos));

	return bytes && bytes <= head - pos ? bytes : 0;
}

#if !defined(__KERNEL__) && !defined(__bpf__)
#include <string.h>

/* Data bytes for a wish of want: def for 0, else a power of two in bounds. */
static inline __u64 fxt_ring_data_bytes(__u64 want, __u64 min, __u64 max,
					__u64 def)
{
	__u64 bytes = min;

	if (!want)
		return def;
	while (bytes < want && bytes < max)
		bytes <<= 1;
	return bytes;
}

/* One CPU's ring as its reader maps it. */
struct fxt_ring_reader {
	const struct fxt_ring_ctrl *ctrl;
	struct fxt_ring_consumer *consumer;
	const void *data;
	__u64 mask;		/* data bytes - 1 */
	__u64 corrupt;		/* reads that skipped a record of bad size */
};

/*
 * Copies whole records, oldest first, into buf (at most cap bytes) and
 * returns the bytes copied. A record of impossible size (or a span longer
 * than the ring) is skipped with everything up to head, and counted in
 * ->corrupt. With release, hands the copied bytes back to the writer.
 */
static inline __u64 fxt_ring_read(struct fxt_ring_reader *r, void *buf,
				  __u64 cap, int release)
{
	__u64 head = __atomic_load_n(&r->ctrl->head, __ATOMIC_ACQUIRE); /* C */
	__u64 oldest = __atomic_load_n(&r->ctrl->oldest, __ATOMIC_RELAXED);
	__u64 tail = __atomic_load_n(&r->consumer->tail, __ATOMIC_RELAXED);
	__u64 len = 0, bytes, off, first;

	if (head - oldest < head - tail)	/* circular: overwritten */
		tail = oldest;
	if (head - tail > r->mask + 1) {
		r->corrupt++;
		tail = head;
	}
	while (tail != head) {
		bytes = fxt_ring_record_bytes(r->data, r->mask, tail, head);
		if (!bytes) {
			r->corrupt++;
			tail = head;
			break;
		}
		if (len + bytes > cap)
			break;
		off = tail & r->mask;
		first = bytes < r->mask + 1 - off ? bytes : r->mask + 1 - off;
		memcpy((__u8 *)buf + len, (const __u8 *)r->data + off, first);
		memcpy((__u8 *)buf + len + first, r->data, bytes - first);
		len += bytes;
		tail += bytes;
	}
	if (release)	/* D: the copies are done before the writer reuses */
		__atomic_store_n(&r->consumer->tail, tail, __ATOMIC_RELEASE);
	return len;
}
/*
 * Copies what a circular ring holds now, oldest first, without releasing
 * anything, while its writer goes on: a private copy of [oldest, head),
 * then only the records at or after the oldest the writer kept once the
 * copy was done (ctrl->oldest moves before the words it frees are
 * overwritten), so a record overwritten meanwhile is left out, never
 * torn. buf holds at least the ring's data bytes. Returns the bytes of
 * whole records at the start of buf.
 */
static inline __u64 fxt_ring_peek(struct fxt_ring_reader *r, void *buf)
{
	__u64 head = __atomic_load_n(&r->ctrl->head, __ATOMIC_ACQUIRE);
	__u64 from = __atomic_load_n(&r->ctrl->oldest, __ATOMIC_ACQUIRE);
	__u64 kept, pos, len, off, first, bytes;

	/* The writer went on between the loads: the head is stale. */
	if ((__s64)(head - from) < 0)
		return 0;
	if (head - from > r->mask + 1) {
		r->corrupt++;
		return 0;
	}
	len = head - from;
	off = from & r->mask;
	first = len < r->mask + 1 - off ? len : r->mask + 1 - off;
	memcpy(buf, (const __u8 *)r->data + off, first);
	memcpy((__u8 *)buf + first, r->data, len - first);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	kept = __atomic_load_n(&r->ctrl->oldest, __ATOMIC_RELAXED);
	if (kept - from >= len)
		return 0;	/* all of it overwritten, or none written */
	for (pos = kept - from; pos < len; pos += bytes) {
		bytes = fxt_record_bytes(*(const __u64 *)((__u8 *)buf + pos));
		if (!bytes || bytes > len - pos) {
			r->corrupt++;
			break;
		}
	}
	memmove(buf, (__u8 *)buf + (kept - from), pos - (kept - from));
	return pos - (kept - from);
}
#endif

#endif /* FXT_FXT_RING_H */
