// SPDX-License-Identifier: GPL-2.0-only
/*
 * The open pairs live in a fixed table of threads (open addressing by
 * tid): a pair still open when its thread's slot cannot be had, one
 * nested past WHY_OVERLAY_DEPTH, or an end without its begin is counted
 * in overlays_lost, never guessed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "why_flow.h"
#include "why_overlay.h"

/* The name interned, or the last one when the table is full. */
static const char *intern(struct why_sched *ws, struct fxt_str name)
{
	size_t i, len = name.len < WHY_OVERLAY_NAME_MAX ? name.len :
							  WHY_OVERLAY_NAME_MAX;

	if (!ws->names) {
		ws->names = calloc(WHY_OVERLAY_NAMES_MAX, sizeof(*ws->names));
		if (!ws->names)
			return NULL;
	}
	for (i = 0; i < ws->nnames; i++)
		if (!strncmp(ws->names[i], name.data, len) && !ws->names[i][len])
			return ws->names[i];
	if (ws->nnames == WHY_OVERLAY_NAMES_MAX) {
		memcpy(ws->names[ws->nnames - 1], "(other)", 8);
		return ws->names[ws->nnames - 1];
	}
	memcpy(ws->names[ws->nnames], name.data, len);
	ws->names[ws->nnames][len] = 0;
	return ws->names[ws->nnames++];
}

static struct why_open_overlay *slot(struct why_sched *ws, uint64_t tid)
{
	uint64_t h = tid * 0x9e3779b97f4a7c15ull;
	size_t i, k;

	if (!ws->open) {
		ws->open = calloc(WHY_OVERLAY_THREADS, sizeof(*ws->open));
		if (!ws->open)
			return NULL;
	}
	for (k = 0; k < WHY_OVERLAY_THREADS; k++) {
		i = (h + k) & (WHY_OVERLAY_THREADS - 1);
		if (ws->open[i].tid == tid)
			return &ws->open[i];
		if (!ws->open[i].tid) {
			ws->open[i].tid = tid;
			return &ws->open[i];
		}
	}
	return NULL;
}

static bool touches_window(const struct why_sched *ws, uint64_t a, uint64_t b)
{
	size_t i;

	for (i = 0; i < ws->nwindows; i++)
		if (a <= ws->windows[i].end_ns && b >= ws->windows[i].start_ns)
			return true;
	return false;
}

/* Appends o to the array a of n of cap (max at most); 0 or -ENOMEM. */
static int append(struct why_overlay **a, size_t *n, size_t *cap, size_t max,
		  uint64_t *lost, const struct why_overlay *o)
{
	struct why_overlay *grown;
	size_t c;

	if (*n == max) {
		(*lost)++;
		return 0;
	}
	if (*n == *cap) {
		c = *cap ? *cap * 2 : 1024;
		grown = realloc(*a, c * sizeof(**a));
		if (!grown)
			return -ENOMEM;
		*a = grown;
		*cap = c;
	}
	(*a)[(*n)++] = *o;
	return 0;
}

static int keep(struct why_sched *ws, const struct why_overlay *o)
{
	if (!touches_window(ws, o->start_ns, o->end_ns))
		return 0;
	if (o->kind == WHY_OV_SLICE)
		return append(&ws->slices, &ws->nslices, &ws->slices_cap,
			      WHY_SLICES_MAX, &ws->overlays_lost, o);
	return append(&ws->overlays, &ws->noverlays, &ws->overlays_cap,
		      WHY_OVERLAYS_MAX, &ws->overlays_lost, o);
}

static int pair(struct why_sched *ws, const struct fxt_record *rec,
		uint8_t kind, uint64_t ts)
{
	uint64_t tid = rec->event.thread.tid;
	struct why_open_overlay *t = slot(ws, tid);
	struct why_overlay o;

	if (!t || !ws->names) {
		ws->overlays_lost++;
		return t || ws->names ? 0 : -ENOMEM;
	}
	if (rec->event.type == FXT_EVENT_DURATION_BEGIN) {
		if (t->depth == WHY_OVERLAY_DEPTH) {
			ws->overlays_lost++;
			return 0;
		}
		t->open[t->depth].start_ns = ts;
		t->open[t->depth].kind = kind;
		t->open[t->depth++].name =
			kind == WHY_OV_SLICE ? NULL : intern(ws, rec->event.name);
		return 0;
	}
	if (!t->depth) {
		ws->overlays_lost++;
		return 0;
	}
	t->depth--;
	o = (struct why_overlay){ tid, t->open[t->depth].start_ns,
				  ts > t->open[t->depth].start_ns ?
					  ts :
					  t->open[t->depth].start_ns,
				  t->open[t->depth].name,
				  t->open[t->depth].kind };
	return keep(ws, &o);
}

static int take_complete(struct why_sched *ws, const struct fxt_record *rec)
{
	uint64_t start = fxt_ticks_to_ns(rec->provider, rec->event.ts);
	uint64_t end = fxt_ticks_to_ns(rec->provider, rec->event.extra);
	struct why_overlay o = { rec->event.thread.tid, start,
				 end > start ? end : start, NULL,
				 WHY_OV_SLICE };

	return keep(ws, &o);
}

int why_overlay_take(struct why_sched *ws, const struct fxt_record *rec)
{
	bool pairs = rec->event.type == FXT_EVENT_DURATION_BEGIN ||
		     rec->event.type == FXT_EVENT_DURATION_END;
	uint8_t kind;

	if (rec->type != FXT_RECORD_EVENT)
		return 0;
	/* Any record of the category says it was recorded (mem: counters). */
	if (fxt_str_is(rec->event.category, "kernel:irq")) {
		ws->irq_seen = true;
		kind = WHY_OV_IRQ;
	} else if (fxt_str_is(rec->event.category, "kernel:mem")) {
		ws->mem_seen = true;
		kind = WHY_OV_STALL;
	} else if (rec->event.category.len >= 7 &&
		   !memcmp(rec->event.category.data, "kernel:", 7)) {
		return 0;
	} else {
		kind = WHY_OV_SLICE;
		if (rec->event.type == FXT_EVENT_DURATION_COMPLETE)
			return take_complete(ws, rec);
		if (rec->event.type >= FXT_EVENT_FLOW_BEGIN &&
		    rec->event.type <= FXT_EVENT_FLOW_END)
			return why_flow_take(ws, rec);
	}
	if (!pairs)
		return 0;
	if (!ws->names && !intern(ws, (struct fxt_str){ "", 0 }))
		return -ENOMEM;
	return pair(ws, rec, kind,
		    fxt_ticks_to_ns(rec->provider, rec->event.ts));
}

static int by_thread_start(const void *pa, const void *pb)
{
	const struct why_overlay *a = pa, *b = pb;

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return a->end_ns > b->end_ns ? -1 : a->end_ns < b->end_ns;
}

/*
 * Sorted, with each nested pair folded into its host (an interrupt in a
 * reclaim is the reclaim's time): a thread's overlays are then disjoint.
 */
void why_overlay_finish(struct why_sched *ws)
{
	struct why_overlay *o = ws->overlays;
	size_t i, n = 0;

	if (ws->noverlays)
		qsort(o, ws->noverlays, sizeof(*o), by_thread_start);
	for (i = 0; i < ws->noverlays; i++) {
		if (n && o[n - 1].tid == o[i].tid &&
		    o[i].start_ns < o[n - 1].end_ns) {
			if (o[i].end_ns > o[n - 1].end_ns)
				o[n - 1].end_ns = o[i].end_ns;
			continue;
		}
		o[n++] = o[i];
	}
	ws->noverlays = n;
	if (ws->nslices)
		qsort(ws->slices, ws->nslices, sizeof(*ws->slices),
		      by_thread_start);
	free(ws->open);
	ws->open = NULL;
}

void why_overlay_free(struct why_sched *ws)
{
	free(ws->slices);
	free(ws->overlays);
	free(ws->names);
	free(ws->open);
}

size_t why_sched_overlay_from(const struct why_sched *ws, uint64_t tid,
			      uint64_t ts)
{
	size_t lo = 0, hi = ws->noverlays, mid;
	const struct why_overlay *o;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		o = &ws->overlays[mid];
		if (o->tid < tid || (o->tid == tid && o->start_ns < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Disjoint: only the one before may still run at ts. */
	if (lo > 0 && ws->overlays[lo - 1].tid == tid &&
	    ws->overlays[lo - 1].end_ns > ts)
		lo--;
	return lo;
}
