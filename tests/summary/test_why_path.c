// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl why's walk on scheduling histories made by hand: a blocked
 * stretch explained by its waker's running and blocking, nanosecond
 * for nanosecond; a runnable one by the CPU's holders; a wakeup cycle
 * and a self-wakeup end the chain; times at 2^64-1 and a history with
 * no record of the thread end in bounded time, every node's children
 * adding up to it; interrupts and memory stalls taken out of the time
 * on a CPU, nested ones once; a flow's slice on another thread explains
 * what no record does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "why_path.h"

#define R 100
#define W 200
#define X 300

static struct why_sched ws;
static struct why_window everything = { 0, UINT64_MAX };

static void ev(uint64_t ts, uint64_t tid, enum why_event_kind kind,
	       uint64_t other, uint32_t cpu, uint8_t state)
{
	struct why_event e = { ts, tid, other, cpu, (uint8_t)kind, state };

	ws.ev = realloc(ws.ev, (ws.n + 1) * sizeof(e));
	assert_non_null(ws.ev);
	ws.ev[ws.n++] = e;
	ws.records++;
}

static void sw(uint64_t ts, uint32_t cpu, uint64_t out, uint8_t state,
	       uint64_t in)
{
	if (out)
		ev(ts, out, WHY_EV_OUT, in, cpu, state);
	ev(ts, in, WHY_EV_IN, out, cpu, 0);
}

static void build(struct why_tree *t, uint64_t tid, uint64_t a, uint64_t b)
{
	struct why_inputs in = { .sched = &ws, .depth = WHY_DEPTH_DEFAULT };

	assert_int_equal(why_sched_finish(&ws), 0);
	assert_int_equal(why_path_build(t, &in, tid, a, b, true), 0);
}

static void reset(void)
{
	why_sched_free(&ws);
	why_sched_init(&ws, &everything, 1);
}

/* Every node's children add up to it, when it has any. */
static void check_sums(const struct why_tree *t)
{
	uint32_t i, c;
	uint64_t sum;

	for (i = 0; i < t->n; i++) {
		if (t->nodes[i].first_child == WHY_NO_NODE)
			continue;
		sum = 0;
		for (c = t->nodes[i].first_child; c != WHY_NO_NODE;
		     c = t->nodes[c].next)
			sum += t->nodes[c].ns;
		assert_int_equal(sum, t->nodes[i].ns);
	}
}

/* The child of node of this kind and thread, which must exist. */
static const struct why_node *find(const struct why_tree *t, uint32_t node,
				   enum why_kind kind, uint64_t tid)
{
	uint32_t c;

	for (c = t->nodes[node].first_child; c != WHY_NO_NODE;
	     c = t->nodes[c].next)
		if (t->nodes[c].kind == kind && t->nodes[c].tid == tid)
			return &t->nodes[c];
	fail_msg("no child of kind %d, tid %llu", kind,
		 (unsigned long long)tid);
	return NULL;
}

static uint32_t id(const struct why_tree *t, const struct why_node *n)
{
	return (uint32_t)(n - t->nodes);
}

/*
 * R runs 0-10 on CPU 0, blocks, is woken by W at 50, waits behind X on
 * CPU 0 until 55, runs to 60. W runs 10-30 on CPU 1 (switched in at 5),
 * blocks, is woken by R at 30 (a cycle: R is on the chain), runs 40-50.
 */
static void test_chain(void **state)
{
	const struct why_node *blocked, *wb, *wait;
	struct why_tree t;

	(void)state;
	reset();
	sw(0, 0, X, FXT_THREAD_RUNNING, R);
	sw(5, 1, 0, 0, W);
	sw(10, 0, R, FXT_THREAD_BLOCKED, X);
	sw(20, 1, W, FXT_THREAD_BLOCKED, 0);
	ev(30, W, WHY_EV_WAKE, R, 1, 0);
	sw(40, 1, 0, 0, W);
	ev(50, R, WHY_EV_WAKE, W, 0, 0);
	sw(55, 0, X, FXT_THREAD_RUNNING, R);
	build(&t, R, 0, 60);
	check_sums(&t);
	assert_int_equal(t.nodes[0].ns, 60);
	assert_int_equal(find(&t, 0, WHY_RUNNING, R)->ns, 15);
	blocked = find(&t, 0, WHY_BLOCKED, W);
	assert_int_equal(blocked->ns, 40);
	assert_int_equal(find(&t, id(&t, blocked), WHY_RUNNING, W)->ns, 20);
	wb = find(&t, id(&t, blocked), WHY_BLOCKED, R);
	assert_int_equal(wb->ns, 10);
	assert_int_equal(wb->first_child, WHY_NO_NODE); /* the cycle ends */
	wait = find(&t, id(&t, blocked), WHY_RUNNABLE, W);
	assert_int_equal(wait->ns, 10);
	assert_int_equal(find(&t, id(&t, wait), WHY_HELD_BY, 0)->ns, 10);
	wait = find(&t, 0, WHY_RUNNABLE, R);
	assert_int_equal(wait->ns, 5);
	assert_int_equal(find(&t, id(&t, wait), WHY_HELD_BY, X)->ns, 5);
	why_tree_free(&t);
}

/* A thread that wakes itself, and times at the end of the clock. */
static void test_hostile(void **state)
{
	struct why_tree t;
	uint64_t top = UINT64_MAX;

	(void)state;
	reset();
	sw(top - 100, 0, 0, 0, R);
	sw(top - 90, 0, R, FXT_THREAD_BLOCKED, 0);
	ev(top - 50, R, WHY_EV_WAKE, R, 0, 0);
	ev(top - 50, R, WHY_EV_WAKE, R, 0, 0);
	sw(top - 1, 0, 0, 0, R);
	build(&t, R, top - 100, top);
	check_sums(&t);
	assert_int_equal(t.nodes[0].ns, 100);
	assert_int_equal(find(&t, 0, WHY_BLOCKED, R)->first_child,
			 WHY_NO_NODE);
	why_tree_free(&t);

	/* No record of the thread: it ran (it wrote the slice's end). */
	build(&t, X, 0, 1000);
	check_sums(&t);
	assert_int_equal(find(&t, 0, WHY_RUNNING, X)->ns, 1000);
	why_tree_free(&t);
	why_sched_free(&ws);
}

static void overlay(uint64_t tid, uint64_t a, uint64_t b, const char *name,
		    uint8_t kind)
{
	struct why_overlay o = { tid, a, b, name, kind };

	ws.overlays = realloc(ws.overlays, (ws.noverlays + 1) * sizeof(o));
	assert_non_null(ws.overlays);
	ws.overlays[ws.noverlays++] = o;
}

/*
 * R runs 0-100 but for an interrupt 10-12 and a reclaim 20-30 with an
 * interrupt inside it (folded into the reclaim), and one at 95-130 cut
 * at the interval's end; another thread's interrupt is not R's.
 */
static void test_overlays(void **state)
{
	const struct why_node *irq;
	struct why_tree t;

	(void)state;
	reset();
	sw(0, 0, 0, 0, R);
	overlay(R, 20, 30, "direct_reclaim", WHY_OV_STALL);
	overlay(R, 10, 12, "irq/1 timer", WHY_OV_IRQ);
	overlay(R, 22, 23, "irq/1 timer", WHY_OV_IRQ);
	overlay(R, 95, 130, "irq/1 timer", WHY_OV_IRQ);
	overlay(W, 40, 50, "irq/1 timer", WHY_OV_IRQ);
	build(&t, R, 0, 100);
	check_sums(&t);
	assert_int_equal(find(&t, 0, WHY_RUNNING, R)->ns, 83);
	assert_int_equal(find(&t, 0, WHY_STALL, R)->ns, 10);
	irq = find(&t, 0, WHY_INTERRUPT, R);
	assert_int_equal(irq->ns, 7);
	assert_int_equal(irq->stretches, 2);
	why_tree_free(&t);
	why_sched_free(&ws);
}

static void flow(uint64_t id, uint64_t ts, uint64_t tid, uint8_t phase)
{
	struct why_flow f = { id, ts, tid, phase };

	ws.flows = realloc(ws.flows, (ws.nflows + 1) * sizeof(f));
	assert_non_null(ws.flows);
	ws.flows[ws.nflows++] = f;
}

static void slice(uint64_t tid, uint64_t a, uint64_t b)
{
	struct why_overlay o = { tid, a, b, NULL, WHY_OV_SLICE };

	ws.slices = realloc(ws.slices, (ws.nslices + 1) * sizeof(o));
	assert_non_null(ws.slices);
	ws.slices[ws.nslices++] = o;
}

/*
 * No scheduling record (kernel:sched off, two hosts merged): R's
 * request 0-100 sends flow 7 at 5 to W's slice 15-80 (inside W's outer
 * 10-90); a flow from R back to R is no edge. The interval: unknown
 * 0-15 and 80-100, W's slice 15-80, where W's own time is unknown.
 */
static void test_flows(void **state)
{
	const struct why_node *f;
	struct why_tree t;

	(void)state;
	reset();
	slice(W, 10, 90);
	slice(W, 15, 80);
	flow(7, 5, R, FXT_EVENT_FLOW_BEGIN);
	flow(7, 20, W, FXT_EVENT_FLOW_END);
	flow(8, 30, R, FXT_EVENT_FLOW_BEGIN);
	flow(8, 40, R, FXT_EVENT_FLOW_END);
	build(&t, R, 0, 100);
	check_sums(&t);
	f = find(&t, 0, WHY_FLOW, W);
	assert_int_equal(f->ns, 65);
	assert_int_equal(find(&t, id(&t, f), WHY_UNKNOWN, W)->ns, 65);
	assert_int_equal(find(&t, 0, WHY_UNKNOWN, R)->ns, 35);
	why_tree_free(&t);
	why_sched_free(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_overlays),
		cmocka_unit_test(test_flows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
