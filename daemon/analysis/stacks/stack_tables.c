// SPDX-License-Identifier: GPL-2.0-only
/* The stack records of an archive, collected: see stack_tables.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/stacks.h>

#include "fxt_saturate.h"
#include "stack_tables.h"

static bool grant(struct stack_tables *t, uint64_t bytes)
{
	if (t->bytes + bytes > STACKS_TABLES_BYTES_MAX)
		return false;
	t->bytes += bytes;
	return true;
}

/* ---- id index --------------------------------------------------------- */

static uint32_t hash_id(uint32_t id)
{
	return (uint32_t)(((uint64_t)id * 0x9e3779b97f4a7c15ull) >> 32);
}

int64_t stack_id_lookup(const struct stack_id_index *x, uint32_t id)
{
	uint32_t i;

	if (!x->slots)
		return -1;
	for (i = hash_id(id) & x->mask; x->slots[i]; i = (i + 1) & x->mask)
		if ((uint32_t)(x->slots[i] >> 32) == id)
			return (int64_t)(uint32_t)x->slots[i] - 1;
	return -1;
}

static void index_put(uint64_t *slots, uint32_t mask, uint64_t slot)
{
	uint32_t i = hash_id((uint32_t)(slot >> 32)) & mask;

	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = slot;
}

/* -ENOSPC past the budget, -ENOMEM. */
static int index_add(struct stack_tables *t, struct stack_id_index *x,
		     uint32_t id, uint32_t index)
{
	if ((x->n + 1) * 2 > x->mask) {
		uint32_t cap = x->slots ? (x->mask + 1) * 2 : 64, i;
		uint64_t *slots;

		if (!grant(t, (uint64_t)cap * sizeof(*slots)))
			return -ENOSPC;
		slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return -ENOMEM;
		for (i = 0; x->slots && i <= x->mask; i++)
			if (x->slots[i])
				index_put(slots, cap - 1, x->slots[i]);
		free(x->slots);
		x->slots = slots;
		x->mask = cap - 1;
	}
	index_put(x->slots, x->mask, (uint64_t)id << 32 | (index + 1ull));
	x->n++;
	return 0;
}

/* ---- storage ---------------------------------------------------------- */

/* Room for one more element in *arr; false (counted) past the ceiling. */
static bool grow(struct stack_tables *t, void **arr, uint32_t n, uint32_t *cap,
		 size_t size)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return true;
	if (n >= STACKS_DEFS_MAX) {
		t->stats.entries_dropped++;
		return false;
	}
	ncap = *cap ? *cap * 2 : 64;
	if (!grant(t, (uint64_t)(ncap - *cap) * size)) {
		t->stats.entries_dropped++;
		return false;
	}
	p = realloc(*arr, (size_t)ncap * size);
	if (!p) {
		t->err = -ENOMEM;
		return false;
	}
	*arr = p;
	*cap = ncap;
	return true;
}

/* A NUL-terminated copy of len bytes (cut at STACKS_NAME_MAX). */
static char *copy_name(struct stack_tables *t, const void *p, uint32_t *len)
{
	char *s;

	if (*len > STACKS_NAME_MAX)
		*len = STACKS_NAME_MAX;
	if (!grant(t, *len + 1ull)) {
		t->stats.entries_dropped++;
		return NULL;
	}
	s = malloc(*len + 1ull);
	if (!s) {
		t->err = -ENOMEM;
		return NULL;
	}
	memcpy(s, p, *len);
	s[*len] = 0;
	return s;
}

/*
 * The entry's copies made (name: its copy, or NULL when refused), its id
 * indexed: true. Else the copies are freed and the loss counted.
 */
static bool indexed(struct stack_tables *t, struct stack_id_index *x,
		    uint32_t id, uint32_t index, void *name)
{
	int err = name ? index_add(t, x, id, index) : 0;

	if (name && !err)
		return true;
	free(name);
	if (err == -ENOMEM)
		t->err = -ENOMEM;
	else if (err == -ENOSPC)
		t->stats.entries_dropped++;
	return false;
}

/* ---- samples ---------------------------------------------------------- */

static uint64_t arg_u64(const struct fxt_record *rec, const char *name,
			size_t len, bool *ok)
{
	const struct fxt_arg *a = fxt_record_arg(rec, name, len);

	if (a && a->type == FXT_ARG_UINT64)
		return a->value.u64;
	if (a && a->type == FXT_ARG_UINT32)
		return a->value.u32;
	*ok = false;
	return 0;
}

#define ARG_U64(rec, lit, ok) arg_u64((rec), (lit), sizeof(lit) - 1, (ok))

static void take_sample(struct stack_tables *t, const struct fxt_record *rec,
			bool offcpu)
{
	struct stack_sample *s;
	bool ok = true;
	uint64_t stack, cpu, weight;

	cpu = ARG_U64(rec, "cpu", &ok);
	stack = ARG_U64(rec, "stack", &ok);
	weight = offcpu ? ARG_U64(rec, "blocked_ns", &ok) :
			  ARG_U64(rec, "period_ns", &ok);
	if (!ok || stack > UINT32_MAX || cpu > UINT32_MAX) {
		t->stats.samples_malformed++;
		return;
	}
	if (t->nsamples == t->samples_cap) {
		size_t cap = t->samples_cap ? t->samples_cap * 2 : 1024;

		if (!grant(t, (cap - t->samples_cap) * sizeof(*s))) {
			t->stats.samples_dropped++;
			return;
		}
		s = realloc(t->samples, cap * sizeof(*s));
		if (!s) {
			t->err = -ENOMEM;
			return;
		}
		t->samples = s;
		t->samples_cap = cap;
	}
	s = &t->samples[t->nsamples++];
	s->ts_ns = fxt_ticks_to_ns(rec->provider, rec->large_blob.ts);
	s->pid = rec->large_blob.thread.pid;
	s->tid = rec->large_blob.thread.tid;
	s->weight_ns = weight;
	s->stack_id = (uint32_t)stack;
	s->cpu = (uint32_t)cpu;
	s->offcpu = offcpu;
	t->stats.samples++;
}

/* ---- definition tables ------------------------------------------------ */

/* A table's payload, entry by entry (decoded by <fxt/stacks.h>). */
struct entries {
	const uint64_t *p;
	size_t left;		/* words */
};

static bool take_mapping(struct stack_tables *t, struct entries *e)
{
	struct fxt_stacks_mapping in;
	struct stack_mapping *m;
	size_t words = fxt_stacks_get_mapping(e->p, e->left, &in);

	if (!words)
		return false;
	e->p += words;
	e->left -= words;
	if (in.id == FXT_STACKS_MAPPING_KERNEL) {
		t->stats.entries_malformed++;	/* reserved */
		return true;
	}
	if (stack_id_lookup(&t->mapping_index, in.id) >= 0) {
		t->stats.entries_duplicate++;
		return true;
	}
	if (!grow(t, (void **)&t->mappings, t->nmappings, &t->mappings_cap,
		  sizeof(*m)))
		return true;
	m = &t->mappings[t->nmappings];
	m->id = in.id;
	m->path_len = in.path_len;
	m->path = copy_name(t, in.path, &m->path_len);
	if (indexed(t, &t->mapping_index, in.id, t->nmappings, m->path))
		t->nmappings++;
	return true;
}

static bool take_frame(struct stack_tables *t, struct entries *e)
{
	struct fxt_stacks_frame in;
	struct stack_frame *f;
	size_t words = fxt_stacks_get_frame(e->p, e->left, &in);

	if (!words)
		return false;
	e->p += words;
	e->left -= words;
	if (in.kind != FXT_STACKS_FRAME_USER &&
	    in.kind != FXT_STACKS_FRAME_KERNEL) {
		t->stats.entries_malformed++;
		return true;
	}
	if (stack_id_lookup(&t->frame_index, in.id) >= 0) {
		t->stats.entries_duplicate++;
		return true;
	}
	if (!grow(t, (void **)&t->frames, t->nframes, &t->frames_cap,
		  sizeof(*f)))
		return true;
	f = &t->frames[t->nframes];
	memset(f, 0, sizeof(*f));
	f->id = in.id;
	f->kind = in.kind;
	f->mapping_id = in.mapping_id;
	f->addr = in.addr;
	f->inlined = in.kind == FXT_STACKS_FRAME_USER &&
		     (in.flags & FXT_STACKS_FRAME_INLINED);
	f->name_len = in.name_len;
	f->name = copy_name(t, in.name, &f->name_len);
	if (indexed(t, &t->frame_index, in.id, t->nframes, f->name))
		t->nframes++;
	return true;
}

static bool take_stack(struct stack_tables *t, struct entries *e)
{
	struct fxt_stacks_stack in;
	struct stack_def *s;
	size_t words = fxt_stacks_get_stack(e->p, e->left, &in);
	uint16_t i;

	if (!words)
		return false;
	e->p += words;
	e->left -= words;
	if (stack_id_lookup(&t->stack_index, in.id) >= 0) {
		t->stats.entries_duplicate++;
		return true;
	}
	if (!grow(t, (void **)&t->stacks, t->nstacks, &t->stacks_cap,
		  sizeof(*s)))
		return true;
	if (!grant(t, (uint64_t)in.nframes * 4)) {
		t->stats.entries_dropped++;
		return true;
	}
	s = &t->stacks[t->nstacks];
	s->id = in.id;
	s->nframes = in.nframes;
	s->frames = malloc((size_t)in.nframes * 4 + 4);
	if (!s->frames)
		t->err = -ENOMEM;
	if (!indexed(t, &t->stack_index, in.id, t->nstacks, s->frames))
		return true;
	for (i = 0; i < in.nframes; i++)
		s->frames[i] = fxt_stacks_stack_frame(&in, i);
	t->nstacks++;
	return true;
}

static bool take_symbol(struct stack_tables *t, struct entries *e)
{
	struct fxt_stacks_symbol in;
	struct stack_frame *f;
	size_t words = fxt_stacks_get_symbol(e->p, e->left, &in);

	if (!words)
		return false;
	e->p += words;
	e->left -= words;
	if (!grow(t, (void **)&t->symbols, t->nsymbols, &t->symbols_cap,
		  sizeof(*f)))
		return true;
	f = &t->symbols[t->nsymbols];
	memset(f, 0, sizeof(*f));
	f->id = in.frame_id;
	f->symbol_len = in.name_len;
	f->symbol = copy_name(t, in.name, &f->symbol_len);
	if (f->symbol)
		t->nsymbols++;
	return true;
}

typedef bool (*take_entry_fn)(struct stack_tables *t, struct entries *e);

static void take_table(struct stack_tables *t, const struct fxt_record *rec,
		       take_entry_fn take)
{
	struct entries e = { rec->blob.payload, rec->blob.payload_len / 8 };

	if (rec->blob.payload_len % 8)
		t->stats.entries_malformed++;	/* a cut word: left out */
	while (e.left && !t->err) {
		if (!take(t, &e)) {
			/* an entry cut by its record's end: the rest is lost */
			t->stats.entries_malformed++;
			return;
		}
	}
}

/* An entry of a reason not known (a later manager's) is counted apart. */
static bool take_loss(struct stack_tables *t, struct entries *e)
{
	struct stack_capture_losses *c = &t->capture;
	struct fxt_stack_loss_entry in;
	size_t words = fxt_stack_losses_get(e->p, e->left, &in);
	int reason;

	if (!words)
		return false;
	reason = fxt_stack_loss_lookup(in.name, in.name_len);
	if (reason < 0)
		c->unknown = fxt_sat_add(c->unknown, in.count);
	else
		c->count[reason] = fxt_sat_add(c->count[reason], in.count);
	e->p += words;
	e->left -= words;
	return true;
}

static take_entry_fn table_of(const struct fxt_str *name)
{
	if (fxt_str_is(*name, FXT_STACKS_NAME_MAPPINGS))
		return take_mapping;
	if (fxt_str_is(*name, FXT_STACKS_NAME_FRAMES))
		return take_frame;
	if (fxt_str_is(*name, FXT_STACKS_NAME_STACKS))
		return take_stack;
	if (fxt_str_is(*name, FXT_STACKS_NAME_SYMBOLS))
		return take_symbol;
	if (fxt_str_is(*name, FXT_STACK_LOSSES_NAME))
		return take_loss;
	return NULL;
}

bool stack_tables_take(struct stack_tables *t, const struct fxt_record *rec)
{
	take_entry_fn take;
	bool offcpu;

	if (rec->type == FXT_RECORD_BLOB && rec->blob.blob_type == 1) {
		take = table_of(&rec->blob.name);
		if (!take)
			return false;
		if (take == take_loss && t->capture.records < UINT32_MAX)
			t->capture.records++;
		take_table(t, rec, take);
		return true;
	}
	if (!stack_tables_is_sample(rec, &offcpu))
		return false;
	take_sample(t, rec, offcpu);
	return true;
}

bool stack_tables_is_sample(const struct fxt_record *rec, bool *offcpu)
{
	if (rec->type != FXT_RECORD_LARGE ||
	    rec->large_blob.large_type != FXT_LARGE_BLOB ||
	    !rec->large_blob.has_metadata)
		return false;
	*offcpu = fxt_str_is(rec->large_blob.category, "kernel:offcpu") &&
		  fxt_str_is(rec->large_blob.name, "offcpu");
	return *offcpu || (fxt_str_is(rec->large_blob.category,
				      "kernel:sample") &&
			   fxt_str_is(rec->large_blob.name, "cpu_sample"));
}

int stack_tables_finish(struct stack_tables *t)
{
	uint32_t i;

	for (i = 0; i < t->nsymbols; i++) {
		struct stack_frame *sym = &t->symbols[i];
		int64_t f = stack_id_lookup(&t->frame_index, sym->id);

		if (f < 0 || t->frames[f].symbol) {
			/* of no frame, or a second one: ignored */
			t->stats.entries_malformed += f < 0;
			t->stats.entries_duplicate += f >= 0;
			continue;
		}
		t->frames[f].symbol = sym->symbol;
		t->frames[f].symbol_len = sym->symbol_len;
		sym->symbol = NULL;
	}
	return t->err;
}

void stack_tables_init(struct stack_tables *t)
{
	memset(t, 0, sizeof(*t));
}

void stack_tables_free(struct stack_tables *t)
{
	uint32_t i;

	for (i = 0; i < t->nmappings; i++)
		free(t->mappings[i].path);
	for (i = 0; i < t->nframes; i++) {
		free(t->frames[i].name);
		free(t->frames[i].symbol);
	}
	for (i = 0; i < t->nstacks; i++)
		free(t->stacks[i].frames);
	for (i = 0; i < t->nsymbols; i++)
		free(t->symbols[i].symbol);
	free(t->mappings);
	free(t->frames);
	free(t->stacks);
	free(t->symbols);
	free(t->samples);
	free(t->mapping_index.slots);
	free(t->frame_index.slots);
	free(t->stack_index.slots);
	memset(t, 0, sizeof(*t));
}
