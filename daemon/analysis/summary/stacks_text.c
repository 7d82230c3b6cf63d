// SPDX-License-Identifier: GPL-2.0-only
/* The summary's stack samples as text: stacks_text.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "stacks_text.h"
#include "stacks_view.h"
#include "text_cells.h"

/* Threads shown with their own functions, and functions per thread. */
#define THREADS_SHOWN 3u
#define STACK_NAMES_SHOWN 8u

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* The view's top functions, as percentages of its samples. */
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

static void print_stack(FILE *out, const struct stacks_view *v, uint32_t leaf)
{
	uint32_t node, shown = 0;

	for (node = leaf; node != STACK_NO_NODE;
	     node = v->p->nodes[node].parent, shown++) {
		const struct stack_function *f =
			stack_node_function(v->p, node);

		if (shown == STACK_NAMES_SHOWN) {
			fprintf(out, " <- ...");
			break;
		}
		fprintf(out, shown ? " <- " : "");
		summary_text_name(out, f->name, f->name_len, 40, false);
	}
	fprintf(out, "\n");
}

static int print_offcpu(FILE *out, struct stacks_view *v, size_t top)
{
	struct stack_tally_stack *st = calloc(top + 1, sizeof(*st));
	char a[32], b[32];
	size_t i, n;

	if (!st)
		return -ENOMEM;
	stacks_view_offcpu(v);
	fprintf(out, "\nOff-CPU: %" PRIu64 " blocks, %s blocked\n",
		v->tally.count, summary_text_ns(a, sizeof(a), v->tally.weight));
	fprintf(out, "  BLOCKED    COUNT  STACK (leaf first)\n");
	n = stack_tally_top_stacks(&v->tally, st, top);
	for (i = 0; i < n; i++) {
		fprintf(out, "  %-9s %6" PRIu64 "  ",
			summary_text_ns(b, sizeof(b), st[i].weight),
			st[i].count);
		print_stack(out, v, st[i].leaf);
	}
	free(st);
	return 0;
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
	stacks_view_free(&v);
	return err;
}
