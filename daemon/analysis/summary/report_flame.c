// SPDX-License-Identifier: GPL-2.0-only
/* The report's flame graphs: see report_flame.h. */
#include <errno.h>
#include <stdlib.h>

#include "fxt_saturate.h"
#include "report_flame.h"
#include "stacks_view.h"
#include "summary_json_fields.h"

struct flame {
	const struct stack_profile *p;
	uint64_t *cpu, *off;		/* self, per node */
	uint64_t *cpu_sub, *off_sub;	/* with the subtree */
	uint32_t *renum;		/* new index + 1; 0: left out */
	uint32_t *fn_renum;		/* per function, new index + 1 */
	uint32_t nkept, nfunctions;
	uint64_t left_out;
};

static int flame_alloc(struct flame *f, const struct trace_summary *s)
{
	size_t n = s->profile.nnodes + 1ull;

	f->p = &s->profile;
	f->cpu = calloc(n, sizeof(uint64_t));
	f->off = calloc(n, sizeof(uint64_t));
	f->cpu_sub = calloc(n, sizeof(uint64_t));
	f->off_sub = calloc(n, sizeof(uint64_t));
	f->renum = calloc(n, sizeof(uint32_t));
	f->fn_renum = calloc(s->profile.nfunctions + 1ull, sizeof(uint32_t));
	return f->cpu && f->off && f->cpu_sub && f->off_sub && f->renum &&
	       f->fn_renum ? 0 : -ENOMEM;
}

static void flame_free(struct flame *f)
{
	free(f->cpu);
	free(f->off);
	free(f->cpu_sub);
	free(f->off_sub);
	free(f->renum);
	free(f->fn_renum);
}

/* Self weights from the kept samples; subtree sums children first. */
static void weigh(struct flame *f, const struct trace_summary *s)
{
	const struct stack_tables *t = &s->stacks;
	const struct stack_node *nodes = f->p->nodes;
	size_t i;
	uint32_t n;

	for (i = 0; i < t->nsamples; i++) {
		uint32_t leaf = f->p->sample_leaf[i];

		if (leaf == STACK_NO_NODE ||
		    !process_tree_has(&s->tree, t->samples[i].pid))
			continue;
		if (t->samples[i].offcpu)
			f->off[leaf] = fxt_sat_add(f->off[leaf],
						   t->samples[i].weight_ns);
		else
			f->cpu[leaf]++;
	}
	/* children come after their parent: sum from the last node back */
	for (n = f->p->nnodes; n-- > 0;) {
		f->cpu_sub[n] = fxt_sat_add(f->cpu_sub[n], f->cpu[n]);
		f->off_sub[n] = fxt_sat_add(f->off_sub[n], f->off[n]);
		if (nodes[n].parent == STACK_NO_NODE)
			continue;
		f->cpu_sub[nodes[n].parent] =
			fxt_sat_add(f->cpu_sub[nodes[n].parent], f->cpu_sub[n]);
		f->off_sub[nodes[n].parent] =
			fxt_sat_add(f->off_sub[nodes[n].parent], f->off_sub[n]);
	}
}

/* The nodes wide enough to draw, under a kept parent, in order. */
static void choose(struct flame *f)
{
	const struct stack_node *nodes = f->p->nodes;
	uint64_t cpu_all = 0, off_all = 0;
	uint32_t n, parent;

	for (n = 0; n < f->p->nnodes; n++) {
		if (nodes[n].parent != STACK_NO_NODE)
			continue;
		cpu_all = fxt_sat_add(cpu_all, f->cpu_sub[n]);
		off_all = fxt_sat_add(off_all, f->off_sub[n]);
	}
	for (n = 0; n < f->p->nnodes; n++) {
		bool cpu_wide = stacks_view_visible(f->cpu_sub[n], cpu_all);
		bool off_wide = stacks_view_visible(f->off_sub[n], off_all);
		bool wide = cpu_wide || off_wide;

		/*
		 * Kept for one graph, a node is no row of the other where it
		 * would read 0.0%: its self weight there is left out (its
		 * subtree is narrower still).
		 */
		if (!cpu_wide)
			f->cpu[n] = 0;
		if (!off_wide)
			f->off[n] = 0;
		parent = nodes[n].parent;
		if (!f->cpu_sub[n] && !f->off_sub[n])
			continue;	/* only other processes' samples */
		if (!wide || f->nkept == REPORT_FLAME_NODES_MAX ||
		    (parent != STACK_NO_NODE && !f->renum[parent])) {
			f->left_out++;
			continue;
		}
		f->renum[n] = ++f->nkept;
		f->fn_renum[nodes[n].function] = 1;	/* used */
	}
	/* the functions used, numbered in their own order */
	for (n = 0; n < f->p->nfunctions; n++)
		if (f->fn_renum[n])
			f->fn_renum[n] = ++f->nfunctions;
}

static void put_functions(struct text_out *w, const struct flame *f)
{
	uint32_t i, k = 0;

	text_put_lit(w, ",\n\"flame\":{\"functions\":[");
	for (i = 0; i < f->p->nfunctions; i++) {
		const struct stack_function *fn = &f->p->functions[i];

		if (!f->fn_renum[i])
			continue;
		text_put_str(w, k++ ? ",\n[" : "\n[");
		summary_json_string(w, fn->name, fn->name_len, true);
		text_put_char(w, ',');
		summary_json_string(w, fn->category, fn->category_len, true);
		if (stack_function_inlined(fn))
			text_put_lit(w, ",1");
		text_put_char(w, ']');
	}
}

static void put_nodes(struct text_out *w, const struct flame *f)
{
	const struct stack_node *nodes = f->p->nodes;
	uint32_t n, k = 0;

	text_put_lit(w, "],\n\"nodes\":[");
	for (n = 0; n < f->p->nnodes; n++) {
		if (!f->renum[n])
			continue;
		text_put_str(w, k++ ? ",[" : "\n[");
		if (nodes[n].parent == STACK_NO_NODE)
			text_put_lit(w, "-1");
		else
			text_put_u64(w, f->renum[nodes[n].parent] - 1);
		text_put_char(w, ',');
		text_put_u64(w, f->fn_renum[nodes[n].function] - 1);
		text_put_char(w, ',');
		text_put_u64(w, f->cpu[n]);
		text_put_char(w, ',');
		text_put_u64(w, f->off[n]);
		text_put_char(w, ']');
	}
	text_put_lit(w, "],\"nodes_left_out\":");
	text_put_u64(w, f->left_out);
	text_put_char(w, '}');
}

int report_flame_write(struct text_out *w, const struct trace_summary *s)
{
	struct flame f = { 0 };
	int err;

	if (!s->profile.sample_leaf || !s->stacks.nsamples) {
		text_put_lit(w, ",\n\"flame\":null");
		return 0;
	}
	err = flame_alloc(&f, s);
	if (!err) {
		weigh(&f, s);
		choose(&f);
		put_functions(w, &f);
		put_nodes(w, &f);
	}
	flame_free(&f);
	return err;
}
