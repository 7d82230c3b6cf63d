// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU rings of whole FXT records.
 *
 * One writer per ring: the probes write with interrupts disabled on the
 * ring's own CPU, so a writer is never interrupted by another writer of
 * the same ring (sched_waking may run with interrupts enabled when a task
 * wakes itself; the probe disables them). The reader is user space, or
 * the kernel after tracing stopped.
 *
 * The barriers are the writer's half (A, B) of the pairing drawn in
 * include/fxt/ring.h. Circular mode does not look at the tail: the writer
 * moves ctrl->oldest forward by whole records before it overwrites them,
 * and the reader reads after FXT_SCHED_IOC_STOP, whose
 * tracepoint_synchronize_unregister() orders every write before the ioctl
 * returns, or peeks while tracing (fxt_ring_peek()), keeping only what is
 * at or after the oldest it reads once its copy is done.
 */
#include <linux/irq_work.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <fxt/fxt.h>
#include <fxt/sched.h>

#include "fxt_ring.h"

static void fxt_ring_wake(struct irq_work *work)
{
	struct fxt_ring *r = container_of(work, struct fxt_ring, wake_work);

	wake_up_interruptible(r->waiters);
}

int fxt_ring_init(struct fxt_ring *r, u64 data_bytes, u32 mode,
		  u64 watermark, wait_queue_head_t *waiters)
{
	BUILD_BUG_ON(sizeof(struct fxt_ring_ctrl) > PAGE_SIZE);
	BUILD_BUG_ON(sizeof(struct fxt_ring_consumer) > PAGE_SIZE);

	memset(r, 0, sizeof(*r));
	r->area = vmalloc_user(fxt_ring_area_bytes(data_bytes));
	if (!r->area)
		return -ENOMEM;
	r->ctrl = r->area;
	r->consumer = r->area + PAGE_SIZE;
	r->data = r->area + 2 * PAGE_SIZE;
	r->mask = data_bytes - 1;
	r->mode = mode;
	r->watermark = watermark;
	r->waiters = waiters;
	init_irq_work(&r->wake_work, fxt_ring_wake);
	fxt_ring_reset(r);
	return 0;
}

void fxt_ring_free(struct fxt_ring *r)
{
	if (!r->area)
		return;
	irq_work_sync(&r->wake_work);
	vfree(r->area);
	r->area = NULL;
}

void fxt_ring_reset(struct fxt_ring *r)
{
	memset(r->ctrl, 0, sizeof(*r->ctrl));
	r->ctrl->version = FXT_SCHED_ABI_VERSION;
	r->ctrl->mode = r->mode;
	WRITE_ONCE(r->consumer->tail, 0);
	r->head = 0;
	r->oldest = 0;
	r->full = false;
	r->closed = false;
}

static u64 fxt_ring_size(const struct fxt_ring *r)
{
	return r->mask + 1;
}

/* Circular: drops the oldest whole records until len bytes fit. */
static void fxt_ring_overwrite(struct fxt_ring *r, u64 len)
{
	u64 size = fxt_ring_size(r);
	u64 dropped = 0;

	while (r->head + len - r->oldest > size) {
		u64 bytes = fxt_ring_record_bytes(r->data, r->mask, r->oldest,
						  r->head);

		/* Only our own headers are here; never printk in a probe. */
		if (unlikely(!bytes)) {
			r->oldest = r->head;
			break;
		}
		r->oldest += bytes;
		dropped++;
	}
	if (!dropped)
		return;
	WRITE_ONCE(r->ctrl->oldest, r->oldest);
	WRITE_ONCE(r->ctrl->overwritten, r->ctrl->overwritten + dropped);
	/* The new oldest before the words it frees: fxt_ring_peek() reads them. */
	smp_wmb();
}

/* Oneshot and streaming: room only where the reader has consumed. */
static bool fxt_ring_has_room(struct fxt_ring *r, u64 len, u64 *tail)
{
	if (r->full)
		return false;
	/* A: pairs with D, the reader's release of the bytes before tail. */
	*tail = smp_load_acquire(&r->consumer->tail);
	if (r->head + len - *tail <= fxt_ring_size(r))
		return true;
	if (r->mode == FXT_BUFFERING_ONESHOT)
		r->full = true;
	return false;
}

static void fxt_ring_copy(struct fxt_ring *r, const u64 *words, u64 len)
{
	u64 off = r->head & r->mask;
	u64 first = min(len, fxt_ring_size(r) - off);

	memcpy(r->data + off, words, first);
	if (first < len)
		memcpy(r->data, (const u8 *)words + first, len - first);
}

void fxt_ring_close(struct fxt_ring *r, bool closed)
{
	WRITE_ONCE(r->closed, closed);
}

void fxt_ring_count_drop(struct fxt_ring *r, unsigned int kind)
{
	if (unlikely(READ_ONCE(r->closed)))
		return;
	kind &= FXT_RING_EVENT_KINDS - 1;
	WRITE_ONCE(r->ctrl->dropped, r->ctrl->dropped + 1);
	WRITE_ONCE(r->ctrl->event_dropped[kind],
		   r->ctrl->event_dropped[kind] + 1);
}

bool fxt_ring_write(struct fxt_ring *r, unsigned int kind, const u64 *words,
		    u32 nwords)
{
	u64 len = (u64)nwords * FXT_WORD_BYTES;
	u64 tail = 0;

	if (unlikely(READ_ONCE(r->closed)))
		return false;
	kind &= FXT_RING_EVENT_KINDS - 1;
	if (r->mode == FXT_BUFFERING_CIRCULAR) {
		fxt_ring_overwrite(r, len);
	} else if (!fxt_ring_has_room(r, len, &tail)) {
		fxt_ring_count_drop(r, kind);
		return false;
	}
	fxt_ring_copy(r, words, len);
	WRITE_ONCE(r->ctrl->records, r->ctrl->records + 1);
	WRITE_ONCE(r->ctrl->event_records[kind],
		   r->ctrl->event_records[kind] + 1);
	/* B: pairs with C, the reader's acquire of head. */
	smp_store_release(&r->ctrl->head, r->head + len);
	r->head += len;

	/* Wake the reader once per crossing, never from here directly. */
	if (r->mode == FXT_BUFFERING_STREAMING &&
	    r->head - tail >= r->watermark &&
	    r->head - len - tail < r->watermark)
		irq_work_queue(&r->wake_work);
	return true;
}

bool fxt_ring_readable(const struct fxt_ring *r)
{
	/* C: pairs with B. */
	u64 head = smp_load_acquire(&r->ctrl->head);

	return head - READ_ONCE(r->consumer->tail) >= r->watermark;
}
