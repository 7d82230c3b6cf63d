// SPDX-License-Identifier: GPL-2.0-only
/* Stack samples in the Trace Event Format: json_stacks.h. */
#include "json_stacks.h"
#include "stack_losses.h"

bool conv_stacks_take(struct converter *c, const struct fxt_record *rec)
{
	if (!stack_tables_take(&c->stacks, rec))
		return false;
	c->stacks_seen = true;
	if (c->stacks.err)
		c->err = c->stacks.err;
	return true;
}

static void put_sf(struct converter *c, size_t sample)
{
	uint32_t leaf = c->profile.sample_leaf[sample];

	if (leaf == STACK_NO_NODE)
		return;
	conv_put_key(&c->w, "sf");
	text_put_u64(&c->w, leaf);
}

static void put_blocked(struct converter *c, size_t i, bool with_frames)
{
	const struct stack_sample *s = &c->stacks.samples[i];
	struct text_out *w = &c->w;

	conv_begin_event(c, 'X');
	text_put_lit(w, ",\"name\":\"blocked\",\"cat\":\"kernel:offcpu\"");
	conv_put_key(w, "ts");
	text_put_thousandths(w, s->ts_ns);
	conv_put_key(w, "dur");
	text_put_thousandths(w, s->weight_ns);
	conv_put_thread(c, s->pid, s->tid);
	if (with_frames)
		put_sf(c, i);
	text_put_lit(w, ",\"args\":{\"cpu\":");
	text_put_u64(w, s->cpu);
	text_put_lit(w, ",\"blocked_ns\":");
	text_put_u64(w, s->weight_ns);
	text_put_lit(w, ",\"stack\":");
	text_put_u64(w, s->stack_id);
	text_put_lit(w, "}}");
}

int conv_stacks_events(struct converter *c, bool with_frames)
{
	size_t i;
	int err;

	if (!c->stacks_seen)
		return 0;
	err = stack_tables_finish(&c->stacks);
	if (!err)
		err = stack_profile_build(&c->profile, &c->stacks);
	if (err)
		return err;
	c->have_profile = true;
	for (i = 0; i < c->stacks.nsamples && !c->w.err; i++)
		if (c->stacks.samples[i].offcpu)
			put_blocked(c, i, with_frames);
	return 0;
}

static void put_frames(struct converter *c)
{
	const struct stack_profile *p = &c->profile;
	struct text_out *w = &c->w;
	uint32_t i;

	text_put_lit(w, ",\n\"stackFrames\":{");
	for (i = 0; i < p->nnodes && !w->err; i++) {
		const struct stack_function *f = stack_node_function(p, i);

		text_put_str(w, i ? ",\n\"" : "\n\"");
		text_put_u64(w, i);
		text_put_lit(w, "\":{\"name\":");
		text_put_json_string(w, f->name, f->name_len);
		text_put_lit(w, ",\"category\":");
		text_put_json_string(w, f->category, f->category_len);
		/* Beside the format's keys: readers skip what they do not know. */
		if (stack_function_inlined(f))
			text_put_lit(w, ",\"inlined\":true");
		if (p->nodes[i].parent != STACK_NO_NODE) {
			text_put_lit(w, ",\"parent\":\"");
			text_put_u64(w, p->nodes[i].parent);
			text_put_char(w, '"');
		}
		text_put_char(w, '}');
	}
	text_put_lit(w, "}");
}

static void put_samples(struct converter *c)
{
	struct text_out *w = &c->w;
	bool first = true;
	size_t i;

	text_put_lit(w, ",\n\"samples\":[");
	for (i = 0; i < c->stacks.nsamples && !w->err; i++) {
		const struct stack_sample *s = &c->stacks.samples[i];

		if (s->offcpu)
			continue;
		text_put_str(w, first ? "\n{\"cpu\":" : ",\n{\"cpu\":");
		first = false;
		text_put_u64(w, s->cpu);
		text_put_lit(w, ",\"tid\":");
		text_put_u64(w, s->tid);
		text_put_lit(w, ",\"ts\":");
		text_put_thousandths(w, s->ts_ns);
		text_put_lit(w, ",\"name\":\"cpu-clock\"");
		put_sf(c, i);
		text_put_lit(w, ",\"weight\":1}");
	}
	text_put_lit(w, "]");
}

static void put_count(struct text_out *w, const char *key, uint64_t v)
{
	text_put_str(w, key);
	text_put_u64(w, v);
}

static void put_losses(struct converter *c)
{
	const struct stack_table_stats *t = &c->stacks.stats;
	const struct stack_profile_stats *p = &c->profile.stats;
	struct text_out *w = &c->w;

	put_count(w, ",\n\"stack_records\":{\"samples\":", t->samples);
	stack_losses_json(w, t, p);
	text_put_char(w, '}');
}

void conv_stacks_trailer(struct converter *c)
{
	if (!c->have_profile)
		return;
	put_frames(c);
	put_samples(c);
	put_losses(c);
}

void conv_stacks_free(struct converter *c)
{
	c->stats->stack_tables = c->stacks.stats;
	c->stats->stack_profile = c->profile.stats;
	stack_profile_free(&c->profile);
	stack_tables_free(&c->stacks);
}
