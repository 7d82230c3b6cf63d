// SPDX-License-Identifier: GPL-2.0-only
/* Stack samples into rows: see export_samples.h. */
#include <errno.h>

#include "export_samples.h"
#include "stack_profile.h"

/* Its function names from leaf to root: Array(String). */
static void stack_names(struct rowbinary *b, const struct stack_profile *p,
			uint32_t leaf)
{
	uint64_t depth = 0;
	uint32_t node;

	for (node = leaf; node != STACK_NO_NODE; node = p->nodes[node].parent)
		depth++;
	rowbinary_varuint(b, depth);
	for (node = leaf; node != STACK_NO_NODE; node = p->nodes[node].parent) {
		const struct stack_function *f = stack_node_function(p, node);

		rowbinary_string(b, f->name, f->name_len);
	}
}

static void sample_row(struct export_rows *x, const struct stack_profile *p,
		       size_t i)
{
	const struct stack_sample *s = &x->samples.samples[i];
	/* its CPU is an argument the merge left as it was: by its pid */
	struct rowbinary *b = export_rows_head(
		x, EXPORT_SAMPLES, fxt_host_clock_to_realtime(x->hc, s->ts_ns),
		s->pid, NULL);

	rowbinary_u64(b, s->pid);
	rowbinary_u64(b, s->tid);
	rowbinary_u32(b, s->cpu);
	rowbinary_u8(b, s->offcpu);
	rowbinary_u64(b, s->weight_ns);
	/* a stack the tables lack: no names, counted by summary too */
	stack_names(b, p, p->sample_leaf ? p->sample_leaf[i] : STACK_NO_NODE);
}

int export_samples_rows(struct export_rows *x, struct export_sender *snd,
			size_t chunk_bytes)
{
	struct rowbinary *b = &x->rows[EXPORT_SAMPLES];
	struct stack_profile p = { 0 };
	size_t i;
	int ret;

	if (!x->samples.nsamples)
		return 0;
	ret = stack_tables_finish(&x->samples);
	if (!ret)
		ret = stack_profile_build(&p, &x->samples);
	for (i = 0; !ret && i < x->samples.nsamples; i++) {
		sample_row(x, &p, i);
		if (b->oom)
			ret = -ENOMEM;
		else if (b->len >= chunk_bytes)
			ret = export_sender_send(snd, EXPORT_SAMPLES, b);
	}
	stack_profile_free(&p);
	return ret;
}
