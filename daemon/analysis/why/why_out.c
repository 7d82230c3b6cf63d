// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text leaves out rows under 0.05% of the interval (they would read
 * 0.0%) and says how many; the JSON keeps every node.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "summary_json_fields.h"
#include "text_cells.h"
#include "why_out.h"

/* User frames shown of an off-CPU stack after its kernel leaf. */
#define WHY_STACK_USER_SHOWN 5u

static const char *const kind_names[] = {
	[WHY_INTERVAL] = "interval", [WHY_RUNNING] = "running",
	[WHY_RUNNABLE] = "waiting_for_cpu", [WHY_HELD_BY] = "held_by",
	[WHY_BLOCKED] = "blocked",	[WHY_UNKNOWN] = "unknown",
	[WHY_INTERRUPT] = "interrupt",	[WHY_STALL] = "memory_stall",
	[WHY_FLOW] = "flow",
};

static const struct why_tree *sort_tree;

static int by_ns(const void *pa, const void *pb)
{
	const struct why_node *a = &sort_tree->nodes[*(const uint32_t *)pa];
	const struct why_node *b = &sort_tree->nodes[*(const uint32_t *)pb];

	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

/* The children of node, biggest first; malloc'ed, NULL if none. */
static uint32_t *children(const struct why_tree *t, uint32_t node, size_t *n)
{
	uint32_t c, *out;
	size_t k = 0;

	for (c = t->nodes[node].first_child; c != WHY_NO_NODE;
	     c = t->nodes[c].next)
		k++;
	*n = 0;
	out = k ? malloc(k * sizeof(*out)) : NULL;
	if (!out)
		return NULL;
	for (c = t->nodes[node].first_child; c != WHY_NO_NODE;
	     c = t->nodes[c].next)
		out[(*n)++] = c;
	sort_tree = t;
	qsort(out, *n, sizeof(*out), by_ns);
	sort_tree = NULL;
	return out;
}

size_t why_path_hops(const struct why_tree *t, uint32_t *out, size_t n)
{
	uint32_t node = 0, c, best;
	size_t k = 0;

	if (!t->n || !n)
		return 0;
	out[k++] = 0;
	while (k < n) {
		best = WHY_NO_NODE;
		for (c = t->nodes[node].first_child; c != WHY_NO_NODE;
		     c = t->nodes[c].next)
			if ((t->nodes[c].kind == WHY_BLOCKED ||
			     t->nodes[c].kind == WHY_FLOW) &&
			    t->nodes[c].tid &&
			    t->nodes[c].first_child != WHY_NO_NODE &&
			    (best == WHY_NO_NODE ||
			     t->nodes[c].ns > t->nodes[best].ns))
				best = c;
		if (best == WHY_NO_NODE)
			break;
		out[k++] = node = best;
	}
	return k;
}

/* The share of the interval in tenths of a percent. */
static uint64_t permille(const struct why_tree *t, uint64_t ns)
{
	uint64_t wall = t->end_ns - t->start_ns;

	if (!wall)
		return 0;
	if (ns > UINT64_MAX / 1000)
		return ns / (wall / 1000 ? wall / 1000 : 1);
	return (ns * 1000 + wall / 2) / wall;
}

static void put_thread(FILE *out, const struct why_report *r, uint64_t tid)
{
	struct thread_names nm;

	if (!tid) {
		fputs("the idle task", out);
		return;
	}
	trace_summary_names(r->summary, tid, 0, &nm);
	if (nm.name_len)
		summary_text_name(out, nm.name, nm.name_len, 0, false);
	else
		fputs("thread", out);
	fprintf(out, " (%" PRIu64 ")", tid);
}

static const struct stack_function *node_function(const struct why_report *r,
						  uint32_t function)
{
	return &r->profile->functions[function];
}

static bool is_kernel(const struct stack_function *f)
{
	return f->category_len == 6 && !memcmp(f->category, "kernel", 6);
}

/* Leaf first: the kernel leaf, "..." for the kernel frames under it,
 * then the first user frames. */
static void put_stack(FILE *out, const struct why_report *r, uint32_t leaf)
{
	const struct stack_profile *p = r->profile;
	const struct stack_function *f = stack_node_function(p, leaf);
	uint32_t node = p->nodes[leaf].parent, shown = 0;
	bool skipped = false;

	summary_text_name(out, f->name, f->name_len, 0, false);
	for (; node != STACK_NO_NODE; node = p->nodes[node].parent) {
		f = stack_node_function(p, node);
		if (is_kernel(f)) {
			skipped = true;
			continue;
		}
		if (shown == WHY_STACK_USER_SHOWN) {
			fputs(" <- ...", out);
			return;
		}
		fputs(skipped ? " <- ... <- " : " <- ", out);
		skipped = false;
		summary_text_name(out, f->name, f->name_len, 0, false);
		shown++;
	}
}

static void put_functions(FILE *out, const struct why_report *r,
			  const struct why_node *n)
{
	uint32_t i, j, order[WHY_FUNCTIONS_MAX];
	const struct stack_function *f;

	if (!n->samples) {
		fputs(r->oncpu ? ", no sample" : "", out);
		return;
	}
	for (i = 0; i < n->nfunctions; i++) {
		for (j = i; j > 0 && n->functions[order[j - 1]].samples <
					     n->functions[i].samples;
		     j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	fputs(":", out);
	for (i = 0; i < n->nfunctions && i < 3; i++) {
		f = node_function(r, n->functions[order[i]].function);
		fputs(i ? ", " : " ", out);
		summary_text_name(out, f->name, f->name_len, 0, false);
		if (n->functions[order[i]].caller != WHY_NO_FUNCTION) {
			f = node_function(r, n->functions[order[i]].caller);
			fputs(" in ", out);
			summary_text_name(out, f->name, f->name_len, 0, false);
		}
		fprintf(out, " %" PRIu64 "%%",
			(n->functions[order[i]].samples * 100 + n->samples / 2) /
				n->samples);
	}
	fprintf(out, " (%" PRIu64 " samples)", n->samples);
}

static void put_label(FILE *out, const struct why_report *r,
		      const struct why_node *n)
{
	switch (n->kind) {
	case WHY_RUNNING:
		fputs("running: ", out);
		put_thread(out, r, n->tid);
		put_functions(out, r, n);
		break;
	case WHY_RUNNABLE:
		fprintf(out, "waiting for CPU %u", n->cpu);
		break;
	case WHY_HELD_BY:
		fputs("CPU held by ", out);
		put_thread(out, r, n->tid);
		break;
	case WHY_BLOCKED:
		fputs("blocked, woken by ", out);
		if (n->tid)
			put_thread(out, r, n->tid);
		else
			fputs("an interrupt or a timer", out);
		if (n->offcpu_leaf != STACK_NO_NODE && r->profile) {
			fputs(", in ", out);
			put_stack(out, r, n->offcpu_leaf);
		}
		break;
	case WHY_INTERVAL:
		fputs("the interval", out);
		break;
	case WHY_FLOW:
		fputs("waiting for ", out);
		put_thread(out, r, n->tid);
		fputs(", where its flow went", out);
		break;
	case WHY_INTERRUPT:
	case WHY_STALL:
		fputs(n->kind == WHY_INTERRUPT ? "interrupt on the CPU of " :
						 "memory stall of ",
		      out);
		put_thread(out, r, n->tid);
		fputs(": ", out);
		summary_text_name(out, n->reason, strlen(n->reason), 0, false);
		break;
	default:
		fputs(n->reason ? n->reason : "not explained", out);
	}
}

static void put_node(FILE *out, const struct why_report *r,
		     const struct why_tree *t, uint32_t node,
		     unsigned int depth, uint64_t *left_out)
{
	const struct why_node *n = &t->nodes[node];
	uint64_t pm = permille(t, n->ns);
	uint32_t *kids;
	size_t i, nkids;
	char dur[32];

	if (!pm) {
		(*left_out)++;
		return;
	}
	fprintf(out, "%*s%3" PRIu64 ".%" PRIu64 "%%  %9s  ", (int)depth * 2,
		"", pm / 10, pm % 10,
		summary_text_ns(dur, sizeof(dur), n->ns));
	put_label(out, r, n);
	if (n->stretches > 1 && n->kind != WHY_HELD_BY)
		fprintf(out, " [%" PRIu64 " times]", n->stretches);
	fputc('\n', out);
	kids = children(t, node, &nkids);
	for (i = 0; i < nkids; i++)
		put_node(out, r, t, kids[i], depth + 1, left_out);
	free(kids);
}

static void put_path(FILE *out, const struct why_report *r,
		     const struct why_tree *t)
{
	uint32_t hops[WHY_DEPTH_MAX + 1];
	size_t i, n = why_path_hops(t, hops, WHY_DEPTH_MAX + 1);
	const struct why_node *h;

	fputs("  path: ", out);
	put_thread(out, r, t->tid);
	for (i = 1; i < n; i++) {
		h = &t->nodes[hops[i]];
		fputs(" -> ", out);
		put_thread(out, r, h->tid);
		if (h->offcpu_leaf != STACK_NO_NODE && r->profile) {
			const struct stack_function *f =
				stack_node_function(r->profile, h->offcpu_leaf);

			fputs(" [", out);
			summary_text_name(out, f->name, f->name_len, 0, false);
			fputc(']', out);
		}
		fprintf(out, " %" PRIu64 ".%" PRIu64 "%%", permille(t, h->ns) / 10,
			permille(t, h->ns) % 10);
	}
	fputc('\n', out);
}

static void put_missing(FILE *out, const struct why_report *r)
{
	/* With nothing explained, the second pass did not read the archive. */
	if (!r->ntrees)
		return;
	if (!r->sched_records)
		fputs("No scheduling records: record kernel:sched to split the "
		      "time into running, waiting and blocked.\n",
		      out);
	if (!r->oncpu)
		fputs("kernel:sample would name the functions that ran.\n",
		      out);
	if (!r->offcpu)
		fputs("kernel:offcpu would show where each thread blocked.\n",
		      out);
	if (!r->irq)
		fputs("kernel:irq would show the interrupts on its CPUs.\n",
		      out);
	if (!r->mem)
		fputs("kernel:mem would show its memory stalls.\n", out);
	if (r->events_dropped)
		fprintf(out,
			"%" PRIu64 " scheduling events past the limit were "
			"left out: the intervals overlap too much to walk "
			"them all.\n",
			r->events_dropped);
	if (r->overlays_lost || r->flows_lost)
		fprintf(out,
			"Left out: %" PRIu64 " interrupts, stalls or slices "
			"(unpaired, nested too deep, past the limit), %" PRIu64
			" flow events past the limit.\n",
			r->overlays_lost, r->flows_lost);
}

void why_text_write(FILE *out, const struct why_report *r)
{
	uint64_t left_out = 0;
	const struct why_tree *t;
	char dur[32];
	size_t i;

	if (r->slice) {
		fputs("Slowest instances of ", out);
		summary_text_name(out, r->slice, strlen(r->slice), 0, false);
		fprintf(out, " (%zu of %" PRIu64 "):\n", r->ntrees,
			r->slices_seen);
	}
	for (i = 0; i < r->ntrees; i++) {
		t = &r->trees[i];
		fprintf(out, "\n%s on ",
			summary_text_ns(dur, sizeof(dur),
					t->end_ns - t->start_ns));
		put_thread(out, r, t->tid);
		fprintf(out, ", from %" PRIu64 " ns:\n", t->start_ns);
		put_node(out, r, t, 0, 1, &left_out);
		put_path(out, r, t);
		if (t->nodes_dropped || t->budget_hit)
			fputs("  (the walk reached its limits: the rest is "
			      "under \"not explained\")\n",
			      out);
	}
	if (left_out)
		fprintf(out, "\n%" PRIu64 " rows under 0.05%% left out.\n",
			left_out);
	put_missing(out, r);
}

/* ---- JSON --------------------------------------------------------------- */

static void json_str(struct text_out *o, const struct why_report *r,
		     const char *s, size_t len)
{
	summary_json_string(o, s, len, r->html_safe);
}

static void json_name(struct text_out *o, const struct why_report *r,
		      uint64_t tid)
{
	struct thread_names nm;

	trace_summary_names(r->summary, tid, 0, &nm);
	text_put_str(o, ",\"thread\":");
	json_str(o, r, nm.name, nm.name_len);
	text_put_str(o, ",\"pid\":");
	text_put_u64(o, nm.pid);
	text_put_str(o, ",\"process\":");
	json_str(o, r, nm.process, nm.process_len);
}

static void json_stack(struct text_out *o, const struct why_report *r,
		       uint32_t leaf)
{
	const struct stack_function *f;
	uint32_t node;
	bool first = true;

	uint64_t kernel = 0;

	text_put_str(o, ",\"offcpu_stack\":[");
	for (node = leaf; node != STACK_NO_NODE;
	     node = r->profile->nodes[node].parent) {
		f = stack_node_function(r->profile, node);
		if (!first)
			text_put_char(o, ',');
		if (first || kernel)
			kernel += is_kernel(f);
		first = false;
		json_str(o, r, f->name, f->name_len);
	}
	text_put_str(o, "],\"offcpu_kernel_frames\":");
	text_put_u64(o, kernel);
}

static void json_functions(struct text_out *o, const struct why_report *r,
			   const struct why_node *n)
{
	const struct stack_function *f;
	uint32_t i;

	text_put_str(o, ",\"samples\":");
	text_put_u64(o, n->samples);
	text_put_str(o, ",\"functions\":[");
	for (i = 0; i < n->nfunctions; i++) {
		f = node_function(r, n->functions[i].function);
		text_put_str(o, i ? ",{\"name\":" : "{\"name\":");
		json_str(o, r, f->name, f->name_len);
		if (n->functions[i].caller != WHY_NO_FUNCTION) {
			f = node_function(r, n->functions[i].caller);
			text_put_str(o, ",\"caller\":");
			json_str(o, r, f->name, f->name_len);
		}
		text_put_str(o, ",\"samples\":");
		text_put_u64(o, n->functions[i].samples);
		text_put_char(o, '}');
	}
	text_put_char(o, ']');
}

static void json_node(struct text_out *o, const struct why_report *r,
		      const struct why_tree *t, uint32_t node)
{
	const struct why_node *n = &t->nodes[node];
	uint32_t *kids;
	size_t i, nkids;

	text_put_str(o, "{\"kind\":\"");
	text_put_str(o, kind_names[n->kind]);
	text_put_str(o, "\",\"tid\":");
	text_put_u64(o, n->tid);
	if (n->tid)
		json_name(o, r, n->tid);
	text_put_str(o, ",\"ns\":");
	text_put_u64(o, n->ns);
	text_put_str(o, ",\"share\":");
	text_put_json_double(o, (double)permille(t, n->ns) / 1000.0);
	text_put_str(o, ",\"stretches\":");
	text_put_u64(o, n->stretches);
	if (n->kind == WHY_RUNNING && r->profile)
		json_functions(o, r, n);
	if (n->kind == WHY_RUNNABLE) {
		text_put_str(o, ",\"cpu\":");
		text_put_u64(o, n->cpu);
	}
	if (n->kind == WHY_BLOCKED && n->offcpu_leaf != STACK_NO_NODE &&
	    r->profile)
		json_stack(o, r, n->offcpu_leaf);
	if (n->reason) {
		text_put_str(o, n->kind == WHY_UNKNOWN ? ",\"reason\":" :
							 ",\"name\":");
		json_str(o, r, n->reason, strlen(n->reason));
	}
	text_put_str(o, ",\"children\":[");
	kids = children(t, node, &nkids);
	for (i = 0; i < nkids; i++) {
		if (i)
			text_put_char(o, ',');
		json_node(o, r, t, kids[i]);
	}
	free(kids);
	text_put_str(o, "]}");
}

static void json_path(struct text_out *o, const struct why_report *r,
		      const struct why_tree *t)
{
	uint32_t hops[WHY_DEPTH_MAX + 1];
	size_t i, n = why_path_hops(t, hops, WHY_DEPTH_MAX + 1);
	const struct why_node *h;

	text_put_str(o, ",\"path\":[");
	for (i = 0; i < n; i++) {
		h = &t->nodes[hops[i]];
		text_put_str(o, i ? ",{\"tid\":" : "{\"tid\":");
		text_put_u64(o, h->tid);
		json_name(o, r, h->tid);
		text_put_str(o, ",\"ns\":");
		text_put_u64(o, h->ns);
		if (h->kind == WHY_BLOCKED && h->offcpu_leaf != STACK_NO_NODE &&
		    r->profile) {
			const struct stack_function *f =
				stack_node_function(r->profile, h->offcpu_leaf);

			text_put_str(o, ",\"via\":");
			json_str(o, r, f->name, f->name_len);
		}
		text_put_char(o, '}');
	}
	text_put_char(o, ']');
}

static void json_missing(struct text_out *o, const struct why_report *r)
{
	const struct {
		bool missing;
		const char *name;
	} cats[] = {
		{ !r->sched_records, "kernel:sched" },
		{ !r->oncpu, "kernel:sample" },
		{ !r->offcpu, "kernel:offcpu" },
		{ !r->irq, "kernel:irq" },
		{ !r->mem, "kernel:mem" },
	};
	bool first = true;
	size_t i;

	/* With nothing explained, the second pass did not read the archive. */
	text_put_str(o, ",\"would_tell_more\":[");
	for (i = 0; r->ntrees && i < sizeof(cats) / sizeof(cats[0]); i++) {
		if (!cats[i].missing)
			continue;
		text_put_str(o, first ? "\"" : ",\"");
		text_put_str(o, cats[i].name);
		text_put_char(o, '"');
		first = false;
	}
	text_put_str(o, "],\"events_dropped\":");
	text_put_u64(o, r->events_dropped);
	text_put_str(o, ",\"overlays_lost\":");
	text_put_u64(o, r->overlays_lost);
	text_put_str(o, ",\"flows_lost\":");
	text_put_u64(o, r->flows_lost);
}

int why_json_write(struct text_out *o, const struct why_report *r)
{
	const struct why_tree *t;
	size_t i;

	text_put_str(o, "{\"slice\":");
	if (r->slice)
		json_str(o, r, r->slice, strlen(r->slice));
	else
		text_put_str(o, "null");
	text_put_str(o, ",\"slices_seen\":");
	text_put_u64(o, r->slices_seen);
	json_missing(o, r);
	text_put_str(o, ",\"instances\":[");
	for (i = 0; i < r->ntrees; i++) {
		t = &r->trees[i];
		text_put_str(o, i ? ",{\"tid\":" : "{\"tid\":");
		text_put_u64(o, t->tid);
		json_name(o, r, t->tid);
		if (t->label) {
			text_put_str(o, ",\"slice\":");
			json_str(o, r, t->label, strlen(t->label));
		}
		text_put_str(o, ",\"start_ns\":");
		text_put_u64(o, t->start_ns);
		text_put_str(o, ",\"end_ns\":");
		text_put_u64(o, t->end_ns);
		text_put_str(o, ",\"wall_ns\":");
		text_put_u64(o, t->end_ns - t->start_ns);
		text_put_str(o, ",\"limits_reached\":");
		text_put_str(o, t->nodes_dropped || t->budget_hit ? "true" :
								    "false");
		json_path(o, r, t);
		text_put_str(o, ",\"tree\":");
		json_node(o, r, t, 0);
		text_put_char(o, '}');
	}
	text_put_str(o, "]}\n");
	return 0;
}
