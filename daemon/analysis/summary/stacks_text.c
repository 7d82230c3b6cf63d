// SPDX-License-Identifier: GPL-2.0-only
/* The summary's stack samples as text: stacks_text.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "stack_losses.h"
#include "stacks_text.h"
#include "stacks_view.h"
#include "text_cells.h"

/* Threads shown with their own functions, and functions per thread. */
#define THREADS_SHOWN 3u
/*
 * Of a stack's kernel frames, those nearest its leaf and those nearest
 * user space are shown, the middle elided; its user frames (the answer to
 * what blocked) are all shown.
 */
#define KERNEL_HEAD_SHOWN 4u
#define KERNEL_TAIL_SHOWN 2u

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The view's top functions, as percentages of its samples; rows that
 * would read 0.0% in both columns are left out.
 */
static int print_functions(FILE *out, const struct stacks_view *v, size_t top,
			   const char *indent)
{
	struct stack_tally_function *f = calloc(2 * top + 1, sizeof(*f));
	size_t i, n;

	if (!f)
		return -ENOMEM;
	n = stack_tally_top_functions(&v->tally, f, top);
	fprintf(out, "%s  SELF  TOTAL  FUNCTION\n", indent);
	for (i = 0; i < n; i++) {
		const struct stack_function *fn =
			&v->p->functions[f[i].function];

		if (!stacks_view_visible(f[i].self, v->tally.count) &&
		    !stacks_view_visible(f[i].total, v->tally.count))
			continue;
		fprintf(out, "%s%5.1f%% %5.1f%%  ", indent,
			percent(f[i].self, v->tally.count),
			percent(f[i].total, v->tally.count));
		summary_text_name(out, fn->name, fn->name_len, 40, false);
		fprintf(out, " (");
		summary_text_name(out, fn->category, fn->category_len, 24,
				  false);
		fprintf(out, "%s)\n",
			stack_function_inlined(fn) ? ", inlined" : "");
	}
	free(f);
	return 0;
}

static int print_threads(FILE *out, struct stacks_view *v, size_t top)
{
	struct stacks_thread t[THREADS_SHOWN];
	struct thread_names names;
	size_t i, n = stacks_view_threads(v, t, THREADS_SHOWN);
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		trace_summary_names(v->s, t[i].tid, t[i].pid, &names);
		fprintf(out, "\nThread ");
		summary_text_name(out, names.name, names.name_len, 24, false);
		fprintf(out, " (tid %" PRIu64 "), %zu samples:\n", t[i].tid,
			t[i].count);
		stacks_view_thread(v, &t[i]);
		err = print_functions(out, v, top, "  ");
	}
	return err;
}

/* The run of kernel frames from leaf up: how many. */
static uint32_t kernel_run(const struct stack_profile *p, uint32_t leaf)
{
	uint32_t node = leaf, n = 0;

	while (node != STACK_NO_NODE &&
	       stack_function_is_kernel(stack_node_function(p, node))) {
		node = p->nodes[node].parent;
		n++;
	}
	return n;
}

/* Leaf first; a long kernel run's middle elided as "...". */
static void print_stack(FILE *out, const struct stacks_view *v, uint32_t leaf)
{
	uint32_t nk = kernel_run(v->p, leaf), node, i = 0;
	bool elide = nk > KERNEL_HEAD_SHOWN + KERNEL_TAIL_SHOWN + 1;

	for (node = leaf; node != STACK_NO_NODE;
	     node = v->p->nodes[node].parent, i++) {
		const struct stack_function *f =
			stack_node_function(v->p, node);

		if (elide && i >= KERNEL_HEAD_SHOWN &&
		    i < nk - KERNEL_TAIL_SHOWN) {
			if (i == KERNEL_HEAD_SHOWN)
				fprintf(out, " <- ...");
			continue;
		}
		fprintf(out, i ? " <- " : "");
		summary_text_name(out, f->name, f->name_len, 40, false);
	}
	fprintf(out, "\n");
}

/* "blocker (tid 1002) of stack_workload (pid 1000)" */
static void print_blocker(FILE *out, const struct stacks_view *v,
			  const struct stacks_blocker *b)
{
	struct thread_names names;

	if (!b->known) {
		fprintf(out, "?: ");
		return;
	}
	trace_summary_names(v->s, b->tid, b->pid, &names);
	summary_text_name(out, names.name, names.name_len, 24, false);
	fprintf(out, " (tid %" PRIu64 ") of ", b->tid);
	summary_text_name(out, names.process, names.process_len, 24, false);
	fprintf(out, " (pid %" PRIu64 ")%s: ", names.pid,
		b->others ? " and other threads" : "");
}

static int print_offcpu(FILE *out, struct stacks_view *v, size_t top)
{
	struct stack_tally_stack *st = calloc(top + 1, sizeof(*st));
	struct stacks_blocker *who = calloc(top + 1, sizeof(*who));
	char a[32], b[32];
	size_t i, n;
	int err = -ENOMEM;

	if (!st || !who)
		goto out;
	stacks_view_offcpu(v);
	fprintf(out, "\nOff-CPU: %" PRIu64 " blocks, %s blocked\n",
		v->tally.count, summary_text_ns(a, sizeof(a), v->tally.weight));
	fprintf(out, "  BLOCKED    COUNT  THREAD: STACK (leaf first)\n");
	n = stack_tally_top_stacks(&v->tally, st, top);
	err = stacks_view_blockers(v, st, n, who);
	for (i = 0; i < n && !err; i++) {
		fprintf(out, "  %-9s %6" PRIu64 "  ",
			summary_text_ns(b, sizeof(b), st[i].weight),
			st[i].count);
		print_blocker(out, v, &who[i]);
		print_stack(out, v, st[i].leaf);
	}
out:
	free(st);
	free(who);
	return err;
}

static int print_slices(FILE *out, struct stacks_view *v, size_t top)
{
	const struct slice_watch *sw = &v->s->watch;
	char d[32];
	size_t i;
	int err = 0;

	fprintf(out, "\nSlowest slices \"");
	summary_text_name(out, sw->name, sw->name_len, 40, false);
	fprintf(out, "\" (%zu of %" PRIu64 "):\n", sw->n, sw->seen);
	for (i = 0; i < sw->n && !err; i++) {
		const struct watched_slice *x = &sw->slices[i];

		stacks_view_range(v, x->tid, x->start_ns, x->end_ns);
		fprintf(out, "\n%s on tid %" PRIu64 " at %" PRIu64
			" ns, %" PRIu64 " samples:\n",
			summary_text_ns(d, sizeof(d), x->end_ns - x->start_ns),
			x->tid, x->start_ns, v->tally.count);
		err = print_functions(out, v, top, "  ");
	}
	return err;
}

int stacks_text_write(FILE *out, const struct trace_summary *s, size_t top)
{
	char losses[STACK_LOSSES_TEXT_MAX];
	struct stacks_view v;
	int err;

	if (!stacks_view_wanted(s))
		return 0;
	if (!top)
		top = STACKS_VIEW_TOP_DEFAULT;
	err = stacks_view_init(&v, s);
	if (err)
		return err;
	stacks_view_oncpu(&v);
	fprintf(out, "\nFunctions: %zu on-CPU samples (self and total, %% of "
		     "samples)\n", v.norder);
	err = print_functions(out, &v, top, "");
	if (!err)
		err = print_threads(out, &v, top);
	if (!err && v.offcpu)
		err = print_offcpu(out, &v, top);
	if (!err && s->watch.name)
		err = print_slices(out, &v, top);
	if (!err && stack_capture_text(losses, &s->stacks.capture))
		fprintf(out, "\nStack losses (counted while recording): %s\n",
			losses);
	stacks_view_free(&v);
	return err;
}
