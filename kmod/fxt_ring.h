/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One CPU's ring of include/fxt/ring.h: a control page the kernel writes,
 * a consumer page the reader writes, then the data, all in one
 * vmalloc_user() area that the device maps page by page.
 */
#ifndef FXT_RING_H
#define FXT_RING_H

#include <linux/irq_work.h>
#include <linux/types.h>
#include <linux/wait.h>

#include <fxt/fxt_sched_uapi.h>

struct fxt_ring {
	void *area;
	struct fxt_ring_ctrl *ctrl;
	struct fxt_ring_consumer *consumer;
	u8 *data;
	u64 mask;		/* data bytes - 1 */
	u64 watermark;
	u32 mode;
	/* Rules: the fields below are written only by this CPU, irqs off. */
	u64 head;		/* private copy of ctrl->head */
	u64 oldest;		/* private copy of ctrl->oldest */
	bool full;		/* oneshot: the ring stopped at its first drop */
	/*
	 * Capture is ending: nothing more is written, not counted as lost.
	 * Set by fxt_ring_close() from any CPU, read by this CPU's writers.
	 */
	bool closed;
	struct irq_work wake_work;
	wait_queue_head_t *waiters;
};

/* Bytes of one CPU's area: control page, consumer page, data. */
static inline size_t fxt_ring_area_bytes(u64 data_bytes)
{
	return 2 * PAGE_SIZE + data_bytes;
}

int fxt_ring_init(struct fxt_ring *r, u64 data_bytes, u32 mode,
		  u64 watermark, wait_queue_head_t *waiters);
void fxt_ring_free(struct fxt_ring *r);
/* Stopped rings only. */
void fxt_ring_reset(struct fxt_ring *r);
/*
 * Appends one whole record, counted under kind (FXT_SCHED_EV_BIT_*); the
 * caller is this CPU's only writer. False when it was dropped.
 */
/* Ends writing into r before its probes are unregistered one by one. */
void fxt_ring_close(struct fxt_ring *r, bool closed);
bool fxt_ring_write(struct fxt_ring *r, unsigned int kind, const u64 *words,
		    u32 nwords);
/*
 * Counts a record of kind lost before it reached r (as a full ring's
 * drop); the same writer's rules.
 */
void fxt_ring_count_drop(struct fxt_ring *r, unsigned int kind);
/* Streaming: the reader's fill reached the watermark. */
bool fxt_ring_readable(const struct fxt_ring *r);

#endif /* FXT_RING_H */
