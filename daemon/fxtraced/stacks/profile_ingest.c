// SPDX-License-Identifier: GPL-2.0-only
/*
 * Raw stack records to the archive's form (profile_ingest.h). Kernel PCs
 * stay in this process: a kernel frame is keyed by its PC here and
 * written as a function name and an offset in it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/ksample.h>
#include <fxt/stacks.h>

#include "profile_internal.h"

#define PROFILE_INTERN_BUDGET (256u << 20)
/* Frame names written at most this long (kallsyms names are shorter). */
#define PROFILE_NAME_MAX 255u
/* Paths kept at most this long (PATH_MAX). */
#define PROFILE_PATH_MAX 4096u

enum { TABLE_MAPPINGS, TABLE_FRAMES, TABLE_STACKS };

struct frame_key {
	uint8_t kind;
	uint8_t pad[3];
	uint32_t mapping;
	uint64_t pc_or_addr;
	/* A JIT's frame (named by its process's map): the process. */
	uint32_t jit_pid;
	uint32_t pad2;
};

int profile_ingest_new(const struct profile_resolver *r, size_t intern_budget,
		       size_t perfetto_max, struct profile_ingest **ret)
{
	static const uint16_t names[3] = { FXT_STACKS_STR_MAPPINGS,
					   FXT_STACKS_STR_FRAMES,
					   FXT_STACKS_STR_STACKS };
	struct profile_ingest *p = calloc(1, sizeof(*p));
	size_t budget = intern_budget ? intern_budget : PROFILE_INTERN_BUDGET;
	unsigned int i;

	if (!p)
		return -ENOMEM;
	p->r = *r;
	profile_intern_init(&p->mappings, budget / 8, UINT32_MAX);
	profile_intern_init(&p->frames, budget / 2, UINT32_MAX);
	profile_intern_init(&p->stacks, budget / 2, UINT32_MAX);
	p->kept_max = perfetto_max ? perfetto_max :
				     PROFILE_PERFETTO_SAMPLES_MAX;
	/* Without it (no memory), leaves' callers are not looked for. */
	p->leaf_cache = calloc(1u << PROFILE_LEAF_CACHE_BITS,
			       sizeof(*p->leaf_cache));
	for (i = 0; i < 3; i++) {
		p->pending[i] = calloc(1, sizeof(*p->pending[i]));
		if (!p->pending[i]) {
			profile_ingest_free(p);
			return -ENOMEM;
		}
		p->pending[i]->name_ref = names[i];
	}
	*ret = p;
	return 0;
}

void profile_ingest_set_generation(struct profile_ingest *p, uint8_t generation)
{
	const uint32_t max = (1u << PROFILE_ID_GENERATION_SHIFT) - 1;

	p->id_base = (uint32_t)generation << PROFILE_ID_GENERATION_SHIFT;
	if (generation) {
		p->mappings.max_count = max;
		p->frames.max_count = max;
		p->stacks.max_count = max;
	}
}

void profile_ingest_free(struct profile_ingest *p)
{
	uint32_t i;

	if (!p)
		return;
	for (i = 0; i < p->frames.count; i++)
		free(p->frame[i].name);
	free(p->frame);
	profile_intern_free(&p->mappings);
	profile_intern_free(&p->frames);
	profile_intern_free(&p->stacks);
	for (i = 0; i < 3; i++)
		free(p->pending[i]);
	free(p->kept);
	free(p->leaf_cache);
	free(p);
}

void profile_ingest_stats(const struct profile_ingest *p,
			  struct profile_ingest_stats *st)
{
	*st = p->st;
}

int profile_table_flush(struct profile_table *t, profile_emit_fn emit,
			void *ctx)
{
	size_t words = 1 + t->len;
	int err;

	if (!t->len)
		return 0;
	t->buf[0] = fxt_blob_header((uint32_t)words, t->name_ref,
				    (uint16_t)(t->len * FXT_WORD_BYTES),
				    FXT_BLOB_DATA);
	err = emit(ctx, t->buf, words);
	t->len = 0;
	return err;
}

int profile_table_room(struct profile_table *t, size_t words,
		       profile_emit_fn emit, void *ctx, uint64_t **at)
{
	const size_t max = FXT_STACKS_BLOB_PAYLOAD_MAX / FXT_WORD_BYTES;
	int err;

	if (words > max)
		return -E2BIG;
	if (t->len + words > max) {
		err = profile_table_flush(t, emit, ctx);
		if (err)
			return err;
	}
	*at = t->buf + 1 + t->len;
	t->len += words;
	return 0;
}

/* Mappings, then frames, then stacks: each before what names it. */
static int flush_pending(struct profile_ingest *p, profile_emit_fn emit,
			 void *ctx)
{
	int err = 0;
	unsigned int i;

	for (i = 0; i < 3 && !err; i++)
		err = profile_table_flush(p->pending[i], emit, ctx);
	return err;
}

/* Room in table i; a full table first flushes those before it. */
static int pending_room(struct profile_ingest *p, unsigned int i, size_t words,
			profile_emit_fn emit, void *ctx, uint64_t **at)
{
	const size_t max = FXT_STACKS_BLOB_PAYLOAD_MAX / FXT_WORD_BYTES;
	unsigned int j;
	int err;

	if (p->pending[i]->len + words > max)
		for (j = 0; j < i; j++) {
			err = profile_table_flush(p->pending[j], emit, ctx);
			if (err)
				return err;
		}
	return profile_table_room(p->pending[i], words, emit, ctx, at);
}

static int mapping_id(struct profile_ingest *p,
		      const struct profile_user_hit *hit, profile_emit_fn emit,
		      void *ctx, uint32_t *id)
{
	size_t plen = strnlen(hit->path, PROFILE_PATH_MAX);
	size_t blen = hit->build_id_len < FXT_STACKS_BUILD_ID_MAX ?
			      hit->build_id_len :
			      FXT_STACKS_BUILD_ID_MAX;
	char key[PROFILE_MAPPING_FILE_BYTES + PROFILE_PATH_MAX + 1 +
		 FXT_STACKS_BUILD_ID_MAX];
	char *k = key + PROFILE_MAPPING_FILE_BYTES;
	struct fxt_stacks_mapping m;
	uint64_t *at;
	int added, err;

	memcpy(key, &hit->file, PROFILE_MAPPING_FILE_BYTES);
	memcpy(k, hit->path, plen);
	k[plen] = 0;
	if (blen)
		memcpy(k + plen + 1, hit->build_id, blen);
	err = profile_intern_get(&p->mappings, key,
				 (uint32_t)(PROFILE_MAPPING_FILE_BYTES + plen +
					    1 + blen),
				 id, &added);
	if (err || !added)
		return err;
	m = (struct fxt_stacks_mapping){ .id = p->id_base + *id,
					 .path_len = (uint16_t)plen,
					 .build_id_len = (uint8_t)blen,
					 .path = hit->path,
					 .build_id = hit->build_id };
	err = pending_room(p, TABLE_MAPPINGS,
			   fxt_stacks_mapping_words(plen, blen), emit, ctx,
			   &at);
	if (!err)
		fxt_stacks_put_mapping(at, &m);
	return err;
}

/* Room in frame[] for one more interned frame, before interning it. */
static int frame_reserve(struct profile_ingest *p)
{
	size_t cap = p->frame_cap ? p->frame_cap * 2 : 1024;
	struct profile_frame *f;

	if (p->frames.count < p->frame_cap)
		return 0;
	f = realloc(p->frame, cap * sizeof(*f));
	if (!f)
		return -ENOMEM;
	p->frame = f;
	p->frame_cap = cap;
	return 0;
}

static int frame_write(struct profile_ingest *p, uint32_t id,
		       profile_emit_fn emit, void *ctx)
{
	const struct profile_frame *f = &p->frame[id - 1];
	size_t len = f->name ? strlen(f->name) : 0;
	struct fxt_stacks_frame e = {
		.id = p->id_base + id,
		.kind = f->kind,
		.name_len = (uint16_t)len,
		.mapping_id = f->mapping ? p->id_base + f->mapping : 0,
		.addr = f->addr,
		.name = f->name,
	};
	uint64_t *at;
	int err;

	err = pending_room(p, TABLE_FRAMES, fxt_stacks_frame_words(len), emit,
			   ctx, &at);
	if (!err)
		fxt_stacks_put_frame(at, &e);
	return err;
}

/* A new frame: its fields, its name copied, its entry queued. */
static int frame_new(struct profile_ingest *p, uint32_t id, uint8_t kind,
		     uint32_t mapping, uint64_t addr, const char *name,
		     profile_emit_fn emit, void *ctx)
{
	struct profile_frame *f = &p->frame[id - 1];

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->mapping = mapping;
	f->addr = addr;
	if (name) {
		f->name = strndup(name, PROFILE_NAME_MAX);
		if (!f->name)
			return -ENOMEM;
	}
	return frame_write(p, id, emit, ctx);
}

/*
 * The kernel frame of key (a pc, or KERNEL_HIDDEN_KEY): interned, and
 * when new named from kallsyms (named false: "[kernel]", no offset).
 */
static int kernel_frame_keyed(struct profile_ingest *p, uint64_t key,
			      bool named, profile_emit_fn emit, void *ctx,
			      uint32_t *id)
{
	struct frame_key k = { .kind = FXT_STACKS_FRAME_KERNEL,
			       .pc_or_addr = key };
	const char *name = FXT_STACKS_KERNEL_UNKNOWN;
	uint64_t off = 0;
	int added, err;

	err = frame_reserve(p);
	if (!err)
		err = profile_intern_get(&p->frames, &k, sizeof(k), id, &added);
	if (err || !added)
		return err;
	if (named && p->r.kernel_lookup(p->r.ctx, key, &name, &off)) {
		name = FXT_STACKS_KERNEL_UNKNOWN;
		off = 0;
	}
	return frame_new(p, *id, FXT_STACKS_FRAME_KERNEL, 0, off, name, emit,
			 ctx);
}

static int kernel_frame(struct profile_ingest *p, uint64_t pc,
			profile_emit_fn emit, void *ctx, uint32_t *id)
{
	return kernel_frame_keyed(p, pc, true, emit, ctx, id);
}

/* The one key of kernel addresses met in user stacks: no kernel pc. */
#define KERNEL_HIDDEN_KEY (PROFILE_KERNEL_HALF - 1)

/*
 * The frame of user pc; for the leaf (leaf not NULL), what is known of
 * it (profile_leaf.c), else left as it is.
 */
static int user_frame(struct profile_ingest *p, const struct fxt_ksample *s,
		      uint64_t pc, profile_emit_fn emit, void *ctx,
		      uint32_t *id, struct profile_leaf *leaf)
{
	struct frame_key k = { .kind = FXT_STACKS_FRAME_USER,
			       .pc_or_addr = pc };
	const char *name = FXT_STACKS_USER_UNKNOWN;
	struct profile_user_hit hit;
	int added, err;

	/*
	 * A user stack's word in the kernel's half of the address space (the
	 * return into an entry trampoline a walk can meet, or an address a
	 * user planted there): "[kernel]", one frame for all, with neither
	 * name nor offset: naming it would tell that user where the
	 * kernel's text is.
	 */
	if (pc >= PROFILE_KERNEL_HALF)
		return kernel_frame_keyed(p, KERNEL_HIDDEN_KEY, false, emit,
					  ctx, id);
	if (!p->r.user_find(p->r.ctx, (uint32_t)s->pid, pc, s->ts, &hit) &&
	    hit.path) {
		err = mapping_id(p, &hit, emit, ctx, &k.mapping);
		if (err)
			return err;
		k.pc_or_addr = hit.vaddr;
		if (leaf)
			profile_leaf_caller(p, s, k.mapping, &hit, leaf);
	} else if (p->r.user_jit &&
		   !p->r.user_jit(p->r.ctx, (uint32_t)s->pid,
				  pc - (!leaf && pc), s->ts, &name)) {
		/* A caller's pc returns past its call: the byte before. */
		k.jit_pid = (uint32_t)s->pid;
	}
	err = frame_reserve(p);
	if (!err)
		err = profile_intern_get(&p->frames, &k, sizeof(k), id, &added);
	if (err || !added)
		return err;
	return frame_new(p, *id, FXT_STACKS_FRAME_USER, k.mapping, k.pc_or_addr,
			 k.mapping ? NULL : name, emit, ctx);
}

/*
 * Where an off-CPU kernel stack starts: past the glue that took it (the
 * probe, the tracepoint) and the scheduler's own frames, as the kernel's
 * in_sched_functions() would. A stack without scheduler frames is whole.
 */
static uint32_t offcpu_first(const struct profile_ingest *p,
			     const struct fxt_ksample *s)
{
	uint32_t i = 0;

	while (i < s->nk && !p->r.in_sched_text(p->r.ctx, s->pcs[i]))
		i++;
	if (i == s->nk)
		return 0;
	while (i < s->nk && p->r.in_sched_text(p->r.ctx, s->pcs[i]))
		i++;
	return i;
}

/*
 * ids: leaf first, kernel frames then user frames (with the caller of a
 * user leaf without a frame, profile_leaf.c).
 */
static int sample_frames(struct profile_ingest *p, const struct fxt_ksample *s,
			 profile_emit_fn emit, void *ctx, uint32_t *ids,
			 uint16_t *n)
{
	uint32_t i = s->kind == FXT_KSAMPLE_OFFCPU ? offcpu_first(p, s) : 0;
	struct profile_leaf leaf = { 0 };
	int err;

	*n = 0;
	for (; i < s->nk; i++) {
		err = kernel_frame(p, s->pcs[i], emit, ctx, &ids[*n]);
		if (err)
			return err;
		(*n)++;
	}
	for (i = 0; i < s->nu; i++) {
		uint64_t pc = s->pcs[s->nk + i];

		/*
		 * Over a leaf that keeps no frame, the walk followed whatever
		 * the frame pointer register held (a release build's hot
		 * loop uses it for data): a word in the kernel's half there
		 * is that junk, no return, and ends the walk. Over a leaf
		 * with its frame, it stays the one hidden "[kernel]" frame.
		 */
		if (i && leaf.frameless && pc >= PROFILE_KERNEL_HALF)
			break;
		err = user_frame(p, s, pc, emit, ctx, &ids[*n],
				 i ? NULL : &leaf);
		if (err)
			return err;
		if (i)
			p->frame[ids[*n] - 1].nonleaf = true;
		(*n)++;
		if (i || !leaf.caller)
			continue;
		/* The caller the walk skipped, right after the leaf. */
		err = user_frame(p, s, leaf.caller, emit, ctx, &ids[*n], NULL);
		if (err)
			return err;
		p->frame[ids[*n] - 1].nonleaf = true;
		(*n)++;
	}
	return 0;
}

static int stack_id(struct profile_ingest *p, const uint32_t *ids, uint16_t n,
		    profile_emit_fn emit, void *ctx, uint32_t *id)
{
	uint32_t written[PROFILE_STACK_FRAMES_MAX];
	uint64_t *at;
	uint16_t i;
	int added, err;

	err = profile_intern_get(&p->stacks, ids, n * (uint32_t)sizeof(*ids),
				 id, &added);
	if (err || !added)
		return err;
	for (i = 0; i < n; i++)
		written[i] = p->id_base + ids[i];
	err = pending_room(p, TABLE_STACKS, fxt_stacks_stack_words(n), emit,
			   ctx, &at);
	if (!err)
		fxt_stacks_put_stack(at, p->id_base + *id, written, n);
	return err;
}

/* Kept for the Perfetto pass, up to its bound (then counted). */
static void keep(struct profile_ingest *p, const struct fxt_ksample *s,
		 uint32_t stack)
{
	struct profile_sample_kept *k;

	if (p->nkept >= p->kept_max) {
		p->st.perfetto_dropped++;
		return;
	}
	if (p->nkept == p->kept_cap) {
		size_t cap = p->kept_cap ? p->kept_cap * 2 : 4096;

		k = realloc(p->kept, cap * sizeof(*k));
		if (!k) {
			p->st.perfetto_dropped++;
			return;
		}
		p->kept = k;
		p->kept_cap = cap;
	}
	p->kept[p->nkept++] = (struct profile_sample_kept){
		.ts = s->ts,
		.weight_ns = s->weight_ns,
		.pid = (uint32_t)s->pid,
		.tid = (uint32_t)s->tid,
		.stack = stack,
		.cpu = s->cpu < UINT16_MAX ? (uint16_t)s->cpu : UINT16_MAX,
		.offcpu = s->kind == FXT_KSAMPLE_OFFCPU,
		.kernel_mode = s->nk > 0,
	};
}

static int write_sample(struct profile_ingest *p, const uint64_t *rec,
			const struct fxt_ksample *s, uint32_t stack,
			profile_emit_fn emit, void *ctx)
{
	struct fxt_stacks_sample out = {
		.category_ref = (uint16_t)FXT_GET(rec[1], FXT_LBLOB_CATEGORY),
		.name_ref = (uint16_t)FXT_GET(rec[1], FXT_LBLOB_NAME),
		.cpu_ref = (uint16_t)FXT_GET(rec[5], FXT_ARG_NAME),
		.stack_ref = FXT_STACKS_STR_STACK,
		.weight_ref = (uint16_t)FXT_GET(rec[8], FXT_ARG_NAME),
		.ts = s->ts,
		.pid = s->pid,
		.tid = s->tid,
		.cpu = s->cpu,
		.stack_id = p->id_base + stack,
		.weight_ns = s->weight_ns,
	};
	uint64_t w[FXT_STACKS_SAMPLE_WORDS];
	int err;

	fxt_stacks_put_sample(w, &out);
	err = emit(ctx, w, FXT_STACKS_SAMPLE_WORDS);
	if (err)
		return err;
	p->st.samples++;
	keep(p, s, stack);
	return 0;
}

static void count_drop(struct profile_ingest *p, const uint64_t *rec)
{
	p->st.dropped++;
	if (rec[1] == fxt_ksample_format_word(FXT_KSAMPLE_OFFCPU))
		p->st.dropped_offcpu++;
}

int profile_ingest_record(struct profile_ingest *p, const uint64_t *rec,
			  size_t words, profile_emit_fn emit, void *ctx)
{
	uint32_t ids[PROFILE_STACK_FRAMES_MAX];
	struct fxt_ksample s;
	uint32_t stack;
	uint16_t n;
	int err;

	if (words < 2) {
		p->st.dropped++;
		return 0;
	}
	if (p->finished || !fxt_ksample_parse((const __u64 *)rec, words, &s)) {
		count_drop(p, rec);
		return 0;
	}
	err = sample_frames(p, &s, emit, ctx, ids, &n);
	if (!err)
		err = stack_id(p, ids, n, emit, ctx, &stack);
	/* What was interned is written all the same: later samples use it. */
	if (err == -ENOSPC || err == -ENOMEM) {
		count_drop(p, rec);
		return flush_pending(p, emit, ctx);
	}
	if (!err)
		err = flush_pending(p, emit, ctx);
	return err ? err : write_sample(p, rec, &s, stack, emit, ctx);
}
