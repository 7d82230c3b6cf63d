// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kept when inside a window; sorted by id for the next event of a flow,
 * indexed by thread for a thread's outgoing ones.
 */
#include <errno.h>
#include <stdlib.h>

#include "why_flow.h"

/* How far back to look for a slice still open around a time. */
#define WHY_SLICE_LOOKBACK 64u

static bool in_window(const struct why_sched *ws, uint64_t ts)
{
	size_t i;

	for (i = 0; i < ws->nwindows; i++)
		if (ts >= ws->windows[i].start_ns && ts <= ws->windows[i].end_ns)
			return true;
	return false;
}

int why_flow_take(struct why_sched *ws, const struct fxt_record *rec)
{
	uint64_t ts = fxt_ticks_to_ns(rec->provider, rec->event.ts);
	struct why_flow *grown;
	size_t cap;

	if (!in_window(ws, ts))
		return 0;
	if (ws->nflows == WHY_FLOWS_MAX) {
		ws->flows_lost++;
		return 0;
	}
	if (ws->nflows == ws->flows_cap) {
		cap = ws->flows_cap ? ws->flows_cap * 2 : 256;
		grown = realloc(ws->flows, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		ws->flows = grown;
		ws->flows_cap = cap;
	}
	ws->flows[ws->nflows++] = (struct why_flow){
		rec->event.extra, ts, rec->event.thread.tid,
		(uint8_t)rec->event.type
	};
	return 0;
}

static int by_id(const void *pa, const void *pb)
{
	const struct why_flow *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (int)a->phase - (int)b->phase;
}

static const struct why_flow *sort_flows;

static int by_thread(const void *pa, const void *pb)
{
	const struct why_flow *a = &sort_flows[*(const size_t *)pa];
	const struct why_flow *b = &sort_flows[*(const size_t *)pb];

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return 0;
}

int why_flow_finish(struct why_sched *ws)
{
	size_t i;

	if (ws->nflows)
		qsort(ws->flows, ws->nflows, sizeof(*ws->flows), by_id);
	free(ws->flows_by_thread); /* finished again: made anew */
	ws->flows_by_thread =
		malloc((ws->nflows ? ws->nflows : 1) * sizeof(size_t));
	if (!ws->flows_by_thread)
		return -ENOMEM;
	for (i = 0; i < ws->nflows; i++)
		ws->flows_by_thread[i] = i;
	sort_flows = ws->flows;
	qsort(ws->flows_by_thread, ws->nflows, sizeof(size_t), by_thread);
	sort_flows = NULL;
	return 0;
}

void why_flow_free(struct why_sched *ws)
{
	free(ws->flows);
	free(ws->flows_by_thread);
}

size_t why_flow_thread_from(const struct why_sched *ws, uint64_t tid,
			    uint64_t ts)
{
	size_t lo = 0, hi = ws->nflows, mid;
	const struct why_flow *f;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		f = &ws->flows[ws->flows_by_thread[mid]];
		if (f->tid < tid || (f->tid == tid && f->ts < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct why_flow *why_flow_next(const struct why_sched *ws,
				     const struct why_flow *f)
{
	size_t i = (size_t)(f - ws->flows) + 1;

	return i < ws->nflows && ws->flows[i].id == f->id ? &ws->flows[i] :
							    NULL;
}

const struct why_overlay *why_slice_at(const struct why_sched *ws,
				       uint64_t tid, uint64_t ts)
{
	size_t lo = 0, hi = ws->nslices, mid, k;
	const struct why_overlay *s;

	/* The first slice past (tid, ts); those before it started by ts. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = &ws->slices[mid];
		if (s->tid < tid || (s->tid == tid && s->start_ns <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = 0; lo > 0 && k < WHY_SLICE_LOOKBACK; k++, lo--) {
		s = &ws->slices[lo - 1];
		if (s->tid != tid)
			return NULL;
		if (s->end_ns >= ts)
			return s;
	}
	return NULL;
}
