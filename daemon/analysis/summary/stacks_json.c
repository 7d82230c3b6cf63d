// SPDX-License-Identifier: GPL-2.0-only
/* The summary's stack samples as JSON: stacks_json.h. */
#include <errno.h>
#include <stdlib.h>

#include "stack_losses.h"
#include "stacks_json.h"
#include "stacks_view.h"
#include "summary_json_fields.h"

struct out {
	struct text_out *w;
	struct stacks_view v;
	size_t top;
	bool html_safe;
};

static void put_function_name(struct out *o, uint32_t fn)
{
	const struct stack_function *f = &o->v.p->functions[fn];

	text_put_lit(o->w, "{\"name\":");
	summary_json_string(o->w, f->name, f->name_len, o->html_safe);
	text_put_lit(o->w, ",\"category\":");
	summary_json_string(o->w, f->category, f->category_len, o->html_safe);
	if (stack_function_inlined(f))
		text_put_lit(o->w, ",\"inlined\":true");
}

/* The functions of the view's tally: self and total under these keys. */
static int put_functions(struct out *o, const char *self, const char *total)
{
	struct stack_tally_function *top = calloc(2 * o->top + 1, sizeof(*top));
	size_t i, n;

	if (!top)
		return -ENOMEM;
	n = stack_tally_top_functions(&o->v.tally, top, o->top);
	text_put_char(o->w, '[');
	for (i = 0; i < n; i++) {
		text_put_str(o->w, i ? ",\n" : "\n");
		put_function_name(o, top[i].function);
		text_put_str(o->w, self);
		text_put_u64(o->w, top[i].self);
		text_put_str(o->w, total);
		text_put_u64(o->w, top[i].total);
		text_put_char(o->w, '}');
	}
	text_put_char(o->w, ']');
	free(top);
	return 0;
}

#define PUT_ON_CPU(o) put_functions((o), ",\"self\":", ",\"total\":")

static void put_count(struct text_out *w, const char *key, uint64_t v)
{
	text_put_str(w, key);
	text_put_u64(w, v);
}

static void put_losses(struct out *o)
{
	const struct stack_table_stats *t = &o->v.s->stacks.stats;
	const struct stack_profile_stats *p = &o->v.p->stats;
	struct text_out *w = o->w;

	put_count(w, ",\n\"stacks\":{\"samples\":", o->v.norder);
	put_count(w, ",\"offcpu_samples\":", o->v.offcpu);
	stack_losses_json(w, t, p);
	text_put_char(w, '}');
	text_put_char(w, '\n');
	stack_capture_json(w, &o->v.s->stacks.capture);
}

static int put_threads(struct out *o)
{
	struct stacks_thread *t = calloc(o->top + 1, sizeof(*t));
	struct thread_names names;
	size_t i, n;
	int err = 0;

	if (!t)
		return -ENOMEM;
	n = stacks_view_threads(&o->v, t, o->top);
	text_put_lit(o->w, ",\n\"thread_functions\":[");
	for (i = 0; i < n && !err; i++) {
		if (i)
			text_put_char(o->w, ',');
		summary_json_thread_head(o->w, o->v.s, t[i].tid, t[i].pid,
					 &names, o->html_safe);
		text_put_lit(o->w, ",\"process\":");
		summary_json_string(o->w, names.process, names.process_len,
				    o->html_safe);
		put_count(o->w, ",\"samples\":", t[i].count);
		text_put_lit(o->w, ",\"functions\":");
		stacks_view_thread(&o->v, &t[i]);
		err = PUT_ON_CPU(o);
		text_put_char(o->w, '}');
	}
	text_put_char(o->w, ']');
	free(t);
	return err;
}

static void put_stack(struct out *o, uint32_t leaf)
{
	const struct stack_profile *p = o->v.p;
	uint32_t node;

	text_put_char(o->w, '[');
	for (node = leaf; node != STACK_NO_NODE; node = p->nodes[node].parent) {
		const struct stack_function *f = stack_node_function(p, node);

		if (node != leaf)
			text_put_char(o->w, ',');
		summary_json_string(o->w, f->name, f->name_len, o->html_safe);
	}
	text_put_char(o->w, ']');
}

/* Who blocked in an off-CPU stack: its longest block's thread. */
static void put_blocker(struct out *o, const struct stacks_blocker *b)
{
	struct thread_names names;

	if (!b->known)
		return;
	trace_summary_names(o->v.s, b->tid, b->pid, &names);
	put_count(o->w, ",\"pid\":", names.pid);
	put_count(o->w, ",\"tid\":", b->tid);
	text_put_lit(o->w, ",\"thread\":");
	summary_json_string(o->w, names.name, names.name_len, o->html_safe);
	text_put_lit(o->w, ",\"process\":");
	summary_json_string(o->w, names.process, names.process_len,
			    o->html_safe);
	text_put_str(o->w, b->others ? ",\"other_threads\":true" :
				       ",\"other_threads\":false");
}

static int put_offcpu(struct out *o)
{
	struct stack_tally_stack *top = calloc(o->top + 1, sizeof(*top));
	struct stacks_blocker *who = calloc(o->top + 1, sizeof(*who));
	size_t i, n;
	int err = -ENOMEM;

	if (!top || !who)
		goto out;
	stacks_view_offcpu(&o->v);
	put_count(o->w, ",\n\"offcpu\":{\"count\":", o->v.tally.count);
	put_count(o->w, ",\"blocked_ns\":", o->v.tally.weight);
	text_put_lit(o->w, ",\"stacks\":[");
	n = stack_tally_top_stacks(&o->v.tally, top, o->top);
	err = stacks_view_blockers(&o->v, top, n, who);
	for (i = 0; i < n && !err; i++) {
		text_put_str(o->w, i ? ",\n{\"stack\":" : "\n{\"stack\":");
		put_stack(o, top[i].leaf);
		put_count(o->w, ",\"blocked_ns\":", top[i].weight);
		put_count(o->w, ",\"count\":", top[i].count);
		put_blocker(o, &who[i]);
		text_put_char(o->w, '}');
	}
	text_put_lit(o->w, "],\n\"functions\":");
	if (!err)
		err = put_functions(o, ",\"self_ns\":", ",\"total_ns\":");
	text_put_char(o->w, '}');
out:
	free(top);
	free(who);
	return err;
}

static int put_slices(struct out *o)
{
	const struct slice_watch *sw = &o->v.s->watch;
	struct thread_names names;
	size_t i;
	int err = 0;

	text_put_lit(o->w, ",\n\"slice_samples\":{\"name\":");
	summary_json_string(o->w, sw->name, sw->name_len, o->html_safe);
	put_count(o->w, ",\"count\":", sw->seen);
	text_put_lit(o->w, ",\"slices\":[");
	for (i = 0; i < sw->n && !err; i++) {
		const struct watched_slice *x = &sw->slices[i];

		if (i)
			text_put_char(o->w, ',');
		summary_json_thread_head(o->w, o->v.s, x->tid, x->pid, &names,
					 o->html_safe);
		put_count(o->w, ",\"start_ns\":", x->start_ns);
		put_count(o->w, ",\"dur_ns\":", x->end_ns - x->start_ns);
		stacks_view_range(&o->v, x->tid, x->start_ns, x->end_ns);
		put_count(o->w, ",\"samples\":", o->v.tally.count);
		text_put_lit(o->w, ",\"functions\":");
		err = PUT_ON_CPU(o);
		text_put_char(o->w, '}');
	}
	text_put_lit(o->w, "]}");
	return err;
}

int stacks_json_write(struct text_out *w, const struct trace_summary *s,
		      size_t top, bool html_safe)
{
	struct out o = { .w = w, .top = top ? top : STACKS_VIEW_TOP_DEFAULT,
			 .html_safe = html_safe };
	int err;

	if (!stacks_view_wanted(s))
		return 0;
	err = stacks_view_init(&o.v, s);
	if (err)
		return err;
	put_losses(&o);
	stacks_view_oncpu(&o.v);
	text_put_lit(w, ",\n\"functions\":");
	err = PUT_ON_CPU(&o);
	if (!err)
		err = put_threads(&o);
	if (!err)
		err = put_offcpu(&o);
	if (!err && s->watch.name)
		err = put_slices(&o);
	stacks_view_free(&o.v);
	return err;
}
