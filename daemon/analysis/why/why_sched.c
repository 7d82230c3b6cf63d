// SPDX-License-Identifier: GPL-2.0-only
/*
 * Collected in archive order, then sorted once: by thread for the walk
 * of one thread's states, and the switch-ins by CPU for who held a CPU
 * while a thread waited for it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "why_flow.h"
#include "why_overlay.h"
#include "why_sched.h"

void why_sched_init(struct why_sched *ws, const struct why_window *windows,
		    size_t nwindows)
{
	memset(ws, 0, sizeof(*ws));
	ws->windows = windows;
	ws->nwindows = nwindows;
}

void why_sched_free(struct why_sched *ws)
{
	free(ws->ev);
	free(ws->cpu_in);
	why_overlay_free(ws);
	why_flow_free(ws);
	memset(ws, 0, sizeof(*ws));
}

static bool in_windows(const struct why_sched *ws, uint64_t ts)
{
	size_t i;

	for (i = 0; i < ws->nwindows; i++)
		if (ts >= ws->windows[i].start_ns && ts <= ws->windows[i].end_ns)
			return true;
	return false;
}

static int add(struct why_sched *ws, const struct why_event *e)
{
	struct why_event *ev;
	size_t cap;

	if (ws->n == WHY_EVENTS_MAX) {
		ws->dropped++;
		return 0;
	}
	if (ws->n == ws->cap) {
		cap = ws->cap ? ws->cap * 2 : 4096;
		ev = realloc(ws->ev, cap * sizeof(*ev));
		if (!ev)
			return -ENOMEM;
		ws->ev = ev;
		ws->cap = cap;
	}
	ws->ev[ws->n++] = *e;
	return 0;
}

static int take_switch(struct why_sched *ws, const struct fxt_record *rec,
		       uint64_t ts)
{
	struct why_event out = {
		.ts = ts,
		.tid = rec->sched.out_thread.tid,
		.other = rec->sched.in_thread.tid,
		.cpu = rec->sched.cpu,
		.kind = WHY_EV_OUT,
		.state = (uint8_t)rec->sched.out_state,
	};
	struct why_event in = {
		.ts = ts,
		.tid = rec->sched.in_thread.tid,
		.other = rec->sched.out_thread.tid,
		.cpu = rec->sched.cpu,
		.kind = WHY_EV_IN,
	};
	int err = 0;

	/* tid 0 is the idle task: it holds a CPU, it never waits. */
	if (out.tid)
		err = add(ws, &out);
	return err ? err : add(ws, &in);
}

int why_sched_take(struct why_sched *ws, const struct fxt_record *rec)
{
	const struct fxt_arg *waker;
	struct why_event e = { 0 };
	uint64_t ts;

	if (rec->type == FXT_RECORD_EVENT)
		return why_overlay_take(ws, rec);
	if (rec->type != FXT_RECORD_SCHEDULING)
		return 0;
	ws->records++;
	ts = fxt_ticks_to_ns(rec->provider, rec->sched.ts);
	if (!in_windows(ws, ts))
		return 0;
	switch (rec->sched.type) {
	case FXT_SCHED_CONTEXT_SWITCH:
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		return take_switch(ws, rec, ts);
	case FXT_SCHED_THREAD_WAKEUP:
		waker = fxt_record_arg(rec, "waker", 5);
		e.ts = ts;
		e.tid = rec->sched.woken.tid;
		e.other = waker && waker->type == FXT_ARG_KOID ?
				  waker->value.koid :
				  0;
		e.cpu = rec->sched.cpu;
		e.kind = WHY_EV_WAKE;
		return e.tid ? add(ws, &e) : 0;
	default:
		return 0;
	}
}

static int by_thread(const void *pa, const void *pb)
{
	const struct why_event *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

static const struct why_event *sort_events;

static int by_cpu(const void *pa, const void *pb)
{
	const struct why_event *a = &sort_events[*(const size_t *)pa];
	const struct why_event *b = &sort_events[*(const size_t *)pb];

	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return 0;
}

int why_sched_finish(struct why_sched *ws)
{
	size_t i, n = 0;

	why_overlay_finish(ws);
	if (why_flow_finish(ws))
		return -ENOMEM;
	/* qsort() of no array is undefined (a NULL base). */
	if (ws->n)
		qsort(ws->ev, ws->n, sizeof(*ws->ev), by_thread);
	free(ws->cpu_in); /* finished again: made anew */
	ws->cpu_in = malloc((ws->n ? ws->n : 1) * sizeof(*ws->cpu_in));
	if (!ws->cpu_in)
		return -ENOMEM;
	for (i = 0; i < ws->n; i++)
		if (ws->ev[i].kind == WHY_EV_IN)
			ws->cpu_in[n++] = i;
	ws->ncpu_in = n;
	sort_events = ws->ev;
	qsort(ws->cpu_in, n, sizeof(*ws->cpu_in), by_cpu);
	sort_events = NULL;
	return 0;
}

size_t why_sched_thread_from(const struct why_sched *ws, uint64_t tid,
			     uint64_t ts)
{
	size_t lo = 0, hi = ws->n, mid;
	const struct why_event *e;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		e = &ws->ev[mid];
		if (e->tid < tid || (e->tid == tid && e->ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t why_sched_cpu_after(const struct why_sched *ws, uint32_t cpu,
			   uint64_t ts)
{
	size_t lo = 0, hi = ws->ncpu_in, mid;
	const struct why_event *e;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		e = &ws->ev[ws->cpu_in[mid]];
		if (e->cpu < cpu || (e->cpu == cpu && e->ts <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
