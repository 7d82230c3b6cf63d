/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduling history tracectl why walks: every thread's state
 * changes (switched in, switched out and in which state, woken and by
 * whom) inside the intervals being explained, read in a second pass over
 * the archive once the first has found them. Bounded: past
 * WHY_EVENTS_MAX the events are counted, not kept.
 *
 * A thread's state before its first change in a stretch follows from
 * that change (switched in: it was waiting for a CPU; switched out: it
 * ran; woken: it was blocked), so nothing before the intervals is kept.
 */
#ifndef FXT_WHY_SCHED_H
#define FXT_WHY_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxt_reader.h"

#define WHY_EVENTS_MAX (2u << 20)

enum why_event_kind {
	WHY_EV_WAKE,	/* woken by other (0: unknown, an interrupt) */
	WHY_EV_OUT,	/* switched out of cpu, leaving in state */
	WHY_EV_IN,	/* switched in on cpu, in place of other */
};

struct why_event {
	uint64_t ts;
	uint64_t tid;
	uint64_t other;
	uint32_t cpu;
	uint8_t kind;
	uint8_t state;	/* WHY_EV_OUT: enum fxt_thread_state */
};

struct why_window {
	uint64_t start_ns, end_ns;
};

/*
 * Time a thread spent, while on a CPU, in an interrupt (kernel:irq) or
 * a memory stall (kernel:mem: reclaim, compaction): their begin/end
 * pairs on the thread, nested ones inside their host's.
 */
enum why_overlay_kind {
	WHY_OV_IRQ,
	WHY_OV_STALL,
	WHY_OV_SLICE,	/* an application's slice: kept in slices */
};

struct why_overlay {
	uint64_t tid;
	uint64_t start_ns, end_ns;
	const char *name;	/* interned in the why_sched */
	uint8_t kind;
};

#define WHY_OVERLAYS_MAX (256u << 10)
#define WHY_OVERLAY_NAMES_MAX 512u
#define WHY_OVERLAY_NAME_MAX 48u
#define WHY_OVERLAY_DEPTH 8u
#define WHY_OVERLAY_THREADS 16384u	/* with a pair open at once */

struct why_open_overlay {
	uint64_t tid;		/* 0: free slot */
	uint32_t depth;
	struct {
		uint64_t start_ns;
		const char *name;
		uint8_t kind;
	} open[WHY_OVERLAY_DEPTH];
};

/* A flow event: phase begin, step or end of flow id, on a thread. */
struct why_flow {
	uint64_t id;
	uint64_t ts;
	uint64_t tid;
	uint8_t phase;	/* enum fxt_event_type: FLOW_BEGIN .. FLOW_END */
};

#define WHY_FLOWS_MAX (256u << 10)
#define WHY_SLICES_MAX (256u << 10)

struct why_sched {
	const struct why_window *windows;
	size_t nwindows;
	struct why_event *ev;	/* by thread, then time, once finished */
	size_t n, cap;
	size_t *cpu_in;		/* the WHY_EV_IN events by CPU, then time */
	size_t ncpu_in;
	uint64_t dropped;	/* past WHY_EVENTS_MAX */
	uint64_t records;	/* scheduling records seen, all */
	struct why_overlay *overlays;	/* by thread, then start, once finished */
	size_t noverlays, overlays_cap;
	char (*names)[WHY_OVERLAY_NAME_MAX + 1];
	size_t nnames;
	struct why_open_overlay *open;	/* WHY_OVERLAY_THREADS slots */
	uint64_t overlays_lost;	/* unpaired, too deep, past the maxima */
	bool irq_seen, mem_seen;	/* kernel:irq, kernel:mem records */
	/* the applications' slices, by thread then start, nested kept */
	struct why_overlay *slices;
	size_t nslices, slices_cap;
	/* flow events (FXT flows between slices): by id then time */
	struct why_flow *flows;
	size_t nflows, flows_cap;
	size_t *flows_by_thread;	/* indexes, by thread then time */
	uint64_t flows_lost;	/* past WHY_FLOWS_MAX */
};

/* The windows must outlive ws. */
void why_sched_init(struct why_sched *ws, const struct why_window *windows,
		    size_t nwindows);
void why_sched_free(struct why_sched *ws);
/* Takes a record of the archive; 0 or -ENOMEM. */
int why_sched_take(struct why_sched *ws, const struct fxt_record *rec);
/* After the last record: sorts. 0 or -ENOMEM. */
int why_sched_finish(struct why_sched *ws);

/*
 * The index of the first overlay of thread tid that ends after ts, or
 * of another thread, or noverlays.
 */
size_t why_sched_overlay_from(const struct why_sched *ws, uint64_t tid,
			      uint64_t ts);

/* The index of thread tid's first event at or after ts (n if none). */
size_t why_sched_thread_from(const struct why_sched *ws, uint64_t tid,
			     uint64_t ts);
/*
 * The index in cpu_in of the first switch-in on cpu after ts (ncpu_in,
 * or one of another CPU, if none): the one before it, if of cpu, is
 * who held cpu at ts.
 */
size_t why_sched_cpu_after(const struct why_sched *ws, uint32_t cpu,
			   uint64_t ts);

#endif /* FXT_WHY_SCHED_H */
