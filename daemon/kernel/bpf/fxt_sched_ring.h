/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-CPU ring shared by fxt_sched.bpf.c (writer) and backend_bpf.c
 * (reader): one BPF_F_MMAPABLE array map, one element per possible CPU.
 * An element is a control page followed by FXT_BPF_RING data bytes (a
 * power of two, set at load time), holding whole FXT records of
 * include/fxt/sched.h. Positions are free-running byte counts; a word
 * at position p lives at data[p & (size - 1)], so records may wrap.
 *
 *   program (CPU n, preemption off)      reader (any CPU)
 *   write record words                   h = load-acquire(head)   C
 *   compiler barrier; store head    A    copy [tail, h)
 *                                        store-release(tail)      D
 *   load tail                       B
 *
 * A pairs with C: words before head. D pairs with B: the program reuses
 * space only after the reader has copied it. On x86 (TSO) the program's
 * plain stores are ordered; FXT_BPF_PUBLISH uses an ordered exchange
 * elsewhere.
 *
 * Full ring: oneshot and streaming drop the new record and count it
 * (oneshot then drops everything on that CPU: the trace stops when full);
 * circular advances tail over the oldest whole records and counts those.
 * In circular mode only the program moves tail, so the reader must not
 * read until the programs are detached.
 */
#ifndef FXT_SCHED_RING_H
#define FXT_SCHED_RING_H

#define FXT_BPF_RING_CTL_BYTES 4096u

enum fxt_bpf_ring_mode {
	FXT_BPF_RING_ONESHOT = 0,
	FXT_BPF_RING_STREAMING = 1,
	FXT_BPF_RING_CIRCULAR = 2,
};

/* The control page of one CPU; field order and size are shared ABI. */
struct fxt_bpf_ring_ctl {
	/* Written by the program only, read by the reader. */
	__u64 head;		/* end of the last published record */
	__u64 records;		/* records published */
	__u64 bytes;		/* bytes published */
	__u64 dropped;		/* records lost: full, nested or overwritten */
	__u32 busy;		/* a writer of this CPU is inside */
	__u32 stopped;		/* oneshot: the ring filled, stop writing */
	__u64 reserved0[3];
	/* Written by the reader (oneshot, streaming) or program (circular). */
	__u64 tail;
	__u64 reserved1[7];
};

#endif /* FXT_SCHED_RING_H */
