// SPDX-License-Identifier: GPL-2.0-only
/*
 * One walk per interval: a thread's state changes cut the stretch into
 * pieces; a blocked piece is explained by its waker over the same
 * piece, recursively. Pieces of the same kind and thread under one node
 * are summed into one child, so a request blocked a hundred times on
 * the same worker reads as one line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "why_flow.h"
#include "why_path.h"

/* Off-CPU samples are stamped at the switch-out: this close to it. */
#define WHY_OFFCPU_SLACK_NS 1000000ull

struct walk {
	struct why_tree *t;
	const struct why_inputs *in;
	uint64_t chain[WHY_DEPTH_MAX + 1];
	unsigned int depth;
	int err;
};

/* A piece of a thread's stretch in one state. */
struct piece {
	enum why_kind kind;	/* RUNNING, RUNNABLE, BLOCKED or UNKNOWN */
	uint64_t tid;
	uint64_t start_ns, end_ns;
	uint32_t cpu;
	uint64_t waker;		/* BLOCKED: woken by; ended: woken at end */
	bool woken;		/* BLOCKED: a wakeup ends it */
	const char *reason;	/* UNKNOWN */
};

static void explain(struct walk *w, uint32_t parent, uint64_t tid,
		    uint64_t start_ns, uint64_t end_ns, bool running_at_end);

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

static uint32_t node_new(struct walk *w, uint32_t parent, enum why_kind kind,
			 uint64_t tid)
{
	struct why_tree *t = w->t;
	struct why_node *n;
	uint32_t cap;

	if (t->n == WHY_NODES_MAX) {
		t->nodes_dropped++;
		return WHY_NO_NODE;
	}
	if (t->n == t->cap) {
		cap = t->cap ? t->cap * 2 : 64;
		n = realloc(t->nodes, cap * sizeof(*n));
		if (!n) {
			w->err = -ENOMEM;
			return WHY_NO_NODE;
		}
		t->nodes = n;
		t->cap = cap;
	}
	n = &t->nodes[t->n];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->tid = tid;
	n->parent = parent;
	n->first_child = n->last_child = n->next = WHY_NO_NODE;
	n->offcpu_leaf = STACK_NO_NODE;
	if (parent != WHY_NO_NODE) {
		if (t->nodes[parent].last_child == WHY_NO_NODE)
			t->nodes[parent].first_child = t->n;
		else
			t->nodes[t->nodes[parent].last_child].next = t->n;
		t->nodes[parent].last_child = t->n;
	}
	return t->n++;
}

/* The child of parent of this kind and thread, made if new. */
static uint32_t child(struct walk *w, uint32_t parent, enum why_kind kind,
		      uint64_t tid, const char *reason)
{
	uint32_t c;

	if (parent == WHY_NO_NODE)
		return WHY_NO_NODE;
	for (c = w->t->nodes[parent].first_child; c != WHY_NO_NODE;
	     c = w->t->nodes[c].next)
		if (w->t->nodes[c].kind == kind && w->t->nodes[c].tid == tid &&
		    w->t->nodes[c].reason == reason)
			return c;
	c = node_new(w, parent, kind, tid);
	if (c != WHY_NO_NODE)
		w->t->nodes[c].reason = reason;
	return c;
}

/* The piece [from, to) belongs to node. */
static void charge(struct walk *w, uint32_t node, uint64_t from, uint64_t to)
{
	struct why_node *n;

	if (node == WHY_NO_NODE || to <= from)
		return;
	n = &w->t->nodes[node];
	n->ns = sat_add(n->ns, to - from);
	if (!n->stretches++ || from < n->first_ns)
		n->first_ns = from;
	if (to > n->last_ns)
		n->last_ns = to;
}

static bool step(struct walk *w)
{
	if (++w->t->steps <= WHY_STEPS_MAX)
		return true;
	w->t->budget_hit = true;
	return false;
}

static const struct stack_sample *sample_at(const struct walk *w,
					    const size_t *index, size_t i)
{
	return &w->in->profile->tables->samples[index[i]];
}

/* The first of the indexed samples of tid at or after ts. */
static size_t samples_from(const struct walk *w, const size_t *index,
			   size_t n, uint64_t tid, uint64_t ts)
{
	const struct stack_sample *s;
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = sample_at(w, index, mid);
		if (s->tid < tid || (s->tid == tid && s->ts_ns < ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool kernel_node(const struct stack_profile *p, uint32_t node)
{
	const struct stack_function *f = stack_node_function(p, node);

	return f->category_len == 6 && !memcmp(f->category, "kernel", 6);
}

/*
 * The leaf-most function of a sample's stack that is not the kernel's
 * (the leaf's if all are), and the function that called it.
 */
static struct why_function sample_function(const struct stack_profile *p,
					   uint32_t leaf)
{
	struct why_function f = { p->nodes[leaf].function, WHY_NO_FUNCTION, 1 };
	uint32_t node = leaf;

	while (node != STACK_NO_NODE && kernel_node(p, node))
		node = p->nodes[node].parent;
	if (node == STACK_NO_NODE)
		return f;
	f.function = p->nodes[node].function;
	node = p->nodes[node].parent;
	if (node != STACK_NO_NODE)
		f.caller = p->nodes[node].function;
	return f;
}

static void count_function(struct why_node *n, struct why_function f)
{
	uint32_t i;

	n->samples++;
	for (i = 0; i < n->nfunctions; i++)
		if (n->functions[i].function == f.function &&
		    n->functions[i].caller == f.caller) {
			n->functions[i].samples++;
			return;
		}
	if (n->nfunctions == WHY_FUNCTIONS_MAX) {
		n->samples_other++;
		return;
	}
	n->functions[n->nfunctions++] = f;
}

static void running_samples(struct walk *w, uint32_t node,
			    const struct piece *p)
{
	const struct why_inputs *in = w->in;
	const struct stack_sample *s;
	uint32_t leaf;
	size_t i;

	if (!in->profile || node == WHY_NO_NODE)
		return;
	i = samples_from(w, in->oncpu, in->noncpu, p->tid, p->start_ns);
	for (; i < in->noncpu && step(w); i++) {
		s = sample_at(w, in->oncpu, i);
		if (s->tid != p->tid || s->ts_ns >= p->end_ns)
			break;
		leaf = in->profile->sample_leaf[in->oncpu[i]];
		if (leaf != STACK_NO_NODE)
			count_function(&w->t->nodes[node],
				       sample_function(in->profile, leaf));
	}
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * The off-CPU sample of the block that starts the piece, if recorded:
 * stamped at its switch-out, the closest to the piece's start.
 */
static void blocked_stack(struct walk *w, uint32_t node, const struct piece *p)
{
	const struct why_inputs *in = w->in;
	uint64_t from = p->start_ns > WHY_OFFCPU_SLACK_NS ?
				p->start_ns - WHY_OFFCPU_SLACK_NS :
				0;
	uint64_t best_d = UINT64_MAX;
	const struct stack_sample *s;
	size_t i, best = in->noffcpu;

	if (!in->profile || node == WHY_NO_NODE ||
	    p->end_ns - p->start_ns <= w->t->nodes[node].longest_ns)
		return;
	w->t->nodes[node].longest_ns = p->end_ns - p->start_ns;
	for (i = samples_from(w, in->offcpu, in->noffcpu, p->tid, from);
	     i < in->noffcpu && step(w); i++) {
		s = sample_at(w, in->offcpu, i);
		if (s->tid != p->tid || s->ts_ns >= p->end_ns ||
		    s->ts_ns > p->start_ns + WHY_OFFCPU_SLACK_NS)
			break;
		if (distance(s->ts_ns, p->start_ns) < best_d) {
			best_d = distance(s->ts_ns, p->start_ns);
			best = i;
		}
	}
	w->t->nodes[node].offcpu_leaf =
		best < in->noffcpu ? in->profile->sample_leaf[in->offcpu[best]] :
				     STACK_NO_NODE;
}

/* Whether tid is on the chain being followed already. */
static bool on_chain(const struct walk *w, uint64_t tid)
{
	unsigned int i;

	for (i = 0; i <= w->depth; i++)
		if (w->chain[i] == tid)
			return true;
	return false;
}

static void blocked_piece(struct walk *w, uint32_t parent,
			  const struct piece *p)
{
	uint32_t node;

	if (!p->woken) {
		charge(w, child(w, parent, WHY_UNKNOWN, p->tid,
				"blocked, not woken within the interval"),
		       p->start_ns, p->end_ns);
		return;
	}
	node = child(w, parent, WHY_BLOCKED, p->waker, NULL);
	charge(w, node, p->start_ns, p->end_ns);
	blocked_stack(w, node, p);
	if (node == WHY_NO_NODE || !p->waker || w->depth >= w->in->depth ||
	    on_chain(w, p->waker))
		return;
	w->chain[++w->depth] = p->waker;
	explain(w, node, p->waker, p->start_ns, p->end_ns, true);
	w->depth--;
}

/* The switch-in of cpu at index k of cpu_in, or NULL. */
static const struct why_event *cpu_in_at(const struct why_sched *ws, size_t k,
					 uint32_t cpu)
{
	const struct why_event *e;

	if (k >= ws->ncpu_in)
		return NULL;
	e = &ws->ev[ws->cpu_in[k]];
	return e->cpu == cpu ? e : NULL;
}

/*
 * Who held cpu while the piece's thread waited for it: the thread
 * switched in last before the wait began, then each one after.
 */
static void held_by(struct walk *w, uint32_t node, const struct piece *p)
{
	const struct why_sched *ws = w->in->sched;
	size_t k = why_sched_cpu_after(ws, p->cpu, p->start_ns);
	const struct why_event *holder = k ? cpu_in_at(ws, k - 1, p->cpu) :
					     NULL;
	const struct why_event *next;
	uint64_t from = p->start_ns, to;

	for (;; k++) {
		next = cpu_in_at(ws, k, p->cpu);
		to = next && next->ts < p->end_ns ? next->ts : p->end_ns;
		if (to > from && holder)
			charge(w, child(w, node, WHY_HELD_BY, holder->tid, NULL),
			       from, to);
		else if (to > from)
			charge(w, child(w, node, WHY_UNKNOWN, 0,
					"no record of the CPU's holder"),
			       from, to);
		from = to;
		if (from >= p->end_ns || !next || !step(w))
			break;
		holder = next;
	}
	if (from < p->end_ns)
		charge(w, child(w, node, WHY_UNKNOWN, 0, "walk budget reached"),
		       from, p->end_ns);
}

static void running_self(struct walk *w, uint32_t parent,
			 const struct piece *p, uint64_t from, uint64_t to)
{
	struct piece run = *p;
	uint32_t node;

	if (to <= from)
		return;
	run.start_ns = from;
	run.end_ns = to;
	node = child(w, parent, WHY_RUNNING, p->tid, NULL);
	charge(w, node, from, to);
	running_samples(w, node, &run);
}

/*
 * On a CPU: its own code, but for the interrupts that ran on its CPU
 * and the memory stalls it went through meanwhile (kernel:irq and
 * kernel:mem, where recorded), each a node of its own beside it.
 */
static void running_piece(struct walk *w, uint32_t parent,
			  const struct piece *p)
{
	const struct why_sched *ws = w->in->sched;
	size_t i = why_sched_overlay_from(ws, p->tid, p->start_ns);
	uint64_t cur = p->start_ns, from, to;
	const struct why_overlay *o;

	for (; i < ws->noverlays && step(w); i++) {
		o = &ws->overlays[i];
		if (o->tid != p->tid || o->start_ns >= p->end_ns)
			break;
		from = o->start_ns > cur ? o->start_ns : cur;
		to = o->end_ns < p->end_ns ? o->end_ns : p->end_ns;
		if (to <= from)
			continue;
		running_self(w, parent, p, cur, from);
		charge(w,
		       child(w, parent,
			     o->kind == WHY_OV_IRQ ? WHY_INTERRUPT : WHY_STALL,
			     p->tid, o->name),
		       from, to);
		cur = to;
	}
	running_self(w, parent, p, cur, p->end_ns);
}

static void put_plain(struct walk *w, uint32_t parent, const struct piece *p)
{
	uint32_t node;

	if (p->end_ns <= p->start_ns)
		return;
	switch (p->kind) {
	case WHY_RUNNING:
		running_piece(w, parent, p);
		return;
	case WHY_RUNNABLE:
		node = child(w, parent, WHY_RUNNABLE, p->tid, NULL);
		if (node != WHY_NO_NODE)
			w->t->nodes[node].cpu = p->cpu;
		charge(w, node, p->start_ns, p->end_ns);
		if (node != WHY_NO_NODE)
			held_by(w, node, p);
		return;
	case WHY_BLOCKED:
		blocked_piece(w, parent, p);
		return;
	default:
		charge(w, child(w, parent, WHY_UNKNOWN, p->tid, p->reason),
		       p->start_ns, p->end_ns);
	}
}

/* A slice a flow of the thread went on to, on another thread. */
struct edge {
	uint64_t tid;
	uint64_t start_ns, end_ns;
};

static void add_edge(struct edge *e, size_t *n, const struct edge *x)
{
	size_t i = (*n)++;

	for (; i > 0 && e[i - 1].start_ns > x->start_ns; i--)
		e[i] = e[i - 1];
	e[i] = *x;
}

/*
 * The slices of other threads that tid's flows, sent since the interval
 * began, went on to, clipped to [a, b): at most WHY_FLOW_EDGES, by start.
 */
static size_t flow_edges(struct walk *w, uint64_t tid, uint64_t a, uint64_t b,
			 struct edge *out)
{
	const struct why_sched *ws = w->in->sched;
	size_t i = why_flow_thread_from(ws, tid, w->t->start_ns), n = 0;
	const struct why_flow *f, *g;
	const struct why_overlay *s;
	struct edge e;

	for (; i < ws->nflows && n < WHY_FLOW_EDGES && step(w); i++) {
		f = &ws->flows[ws->flows_by_thread[i]];
		if (f->tid != tid || f->ts >= b)
			break;
		g = f->phase == FXT_EVENT_FLOW_END ? NULL : why_flow_next(ws, f);
		if (!g || g->tid == tid)
			continue;
		s = why_slice_at(ws, g->tid, g->ts);
		e.tid = g->tid;
		e.start_ns = s ? s->start_ns : g->ts;
		e.end_ns = s ? s->end_ns : g->ts;
		e.start_ns = e.start_ns > a ? e.start_ns : a;
		e.end_ns = e.end_ns < b ? e.end_ns : b;
		if (e.end_ns > e.start_ns)
			add_edge(out, &n, &e);
	}
	return n;
}

/*
 * A piece no waker explains (woken by an interrupt, or no scheduling
 * record): the time the slices its flows went on to ran in it is theirs,
 * each explained by what its thread did. False if there are none.
 */
static bool flow_split(struct walk *w, uint32_t parent, const struct piece *p)
{
	struct edge e[WHY_FLOW_EDGES];
	size_t i, n = flow_edges(w, p->tid, p->start_ns, p->end_ns, e);
	struct piece rest = *p;
	uint64_t cur = p->start_ns, from;
	uint32_t node;

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		if (e[i].end_ns <= cur)
			continue;
		from = e[i].start_ns > cur ? e[i].start_ns : cur;
		rest.start_ns = cur;
		rest.end_ns = from;
		put_plain(w, parent, &rest);
		node = child(w, parent, WHY_FLOW, e[i].tid, NULL);
		charge(w, node, from, e[i].end_ns);
		if (node != WHY_NO_NODE && w->depth < w->in->depth &&
		    !on_chain(w, e[i].tid)) {
			w->chain[++w->depth] = e[i].tid;
			explain(w, node, e[i].tid, from, e[i].end_ns, false);
			w->depth--;
		}
		cur = e[i].end_ns;
	}
	rest.start_ns = cur;
	rest.end_ns = p->end_ns;
	put_plain(w, parent, &rest);
	return true;
}

static void put_piece(struct walk *w, uint32_t parent, const struct piece *p)
{
	bool unexplained = (p->kind == WHY_BLOCKED && p->woken && !p->waker) ||
			   p->kind == WHY_UNKNOWN;

	if (p->end_ns > p->start_ns && unexplained && w->in->sched->nflows &&
	    flow_split(w, parent, p))
		return;
	put_plain(w, parent, p);
}

/* The state a thread was in before its first change in a stretch. */
static void state_before(struct piece *p, const struct why_event *e)
{
	p->cpu = e->cpu;
	p->kind = e->kind == WHY_EV_WAKE ? WHY_BLOCKED :
		  e->kind == WHY_EV_OUT	 ? WHY_RUNNING :
					   WHY_RUNNABLE;
}

static void state_after(struct piece *p, const struct why_event *e)
{
	p->cpu = e->cpu;
	p->reason = NULL;
	if (e->kind == WHY_EV_IN)
		p->kind = WHY_RUNNING;
	else if (e->kind == WHY_EV_WAKE)
		p->kind = WHY_RUNNABLE;
	else if (e->state == FXT_THREAD_RUNNING)
		p->kind = WHY_RUNNABLE; /* preempted */
	else if (e->state == FXT_THREAD_DYING || e->state == FXT_THREAD_DEAD) {
		p->kind = WHY_UNKNOWN;
		p->reason = "the thread exited";
	} else {
		p->kind = WHY_BLOCKED;
	}
}

static void explain(struct walk *w, uint32_t parent, uint64_t tid,
		    uint64_t start_ns, uint64_t end_ns, bool running_at_end)
{
	const struct why_sched *ws = w->in->sched;
	size_t i = why_sched_thread_from(ws, tid, start_ns);
	struct piece p = { .tid = tid, .start_ns = start_ns };
	const struct why_event *e;
	bool first = true;

	for (; i < ws->n && !w->err && step(w); i++) {
		e = &ws->ev[i];
		if (e->tid != tid || e->ts >= end_ns)
			break;
		if (first)
			state_before(&p, e);
		first = false;
		p.end_ns = e->ts;
		p.woken = e->kind == WHY_EV_WAKE;
		p.waker = e->other;
		if (p.kind == WHY_RUNNABLE && e->kind == WHY_EV_IN)
			p.cpu = e->cpu; /* the CPU it got: the one it waited for */
		put_piece(w, parent, &p);
		state_after(&p, e);
		p.start_ns = e->ts;
	}
	if (first) {
		p.kind = running_at_end && ws->records ? WHY_RUNNING :
							 WHY_UNKNOWN;
		p.reason = ws->records ?
				   "no scheduling record of the thread meanwhile" :
				   "no scheduling records (kernel:sched)";
	}
	if (w->t->budget_hit) {
		p.kind = WHY_UNKNOWN;
		p.reason = "walk budget reached";
	}
	p.end_ns = end_ns;
	p.woken = false;
	put_piece(w, parent, &p);
}

int why_path_build(struct why_tree *t, const struct why_inputs *in,
		   uint64_t tid, uint64_t start_ns, uint64_t end_ns,
		   bool running_at_end)
{
	struct walk w = { .t = t, .in = in };
	uint32_t root;

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->start_ns = start_ns;
	t->end_ns = end_ns > start_ns ? end_ns : start_ns;
	root = node_new(&w, WHY_NO_NODE, WHY_INTERVAL, tid);
	if (root == WHY_NO_NODE)
		return w.err ? w.err : -ENOMEM;
	charge(&w, root, t->start_ns, t->end_ns);
	w.chain[0] = tid;
	explain(&w, root, tid, t->start_ns, t->end_ns, running_at_end);
	return w.err;
}

void why_tree_free(struct why_tree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

static const struct stack_sample *sort_samples;

static int by_thread_time(const void *pa, const void *pb)
{
	const struct stack_sample *a = &sort_samples[*(const size_t *)pa];
	const struct stack_sample *b = &sort_samples[*(const size_t *)pb];

	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	return 0;
}

int why_samples_index(const struct stack_tables *tables, bool offcpu,
		      size_t **out, size_t *n)
{
	size_t i, k = 0;
	size_t *x = malloc((tables->nsamples ? tables->nsamples : 1) *
			   sizeof(*x));

	if (!x)
		return -ENOMEM;
	for (i = 0; i < tables->nsamples; i++)
		if (tables->samples[i].offcpu == offcpu)
			x[k++] = i;
	sort_samples = tables->samples;
	qsort(x, k, sizeof(*x), by_thread_time);
	sort_samples = NULL;
	*out = x;
	*n = k;
	return 0;
}
