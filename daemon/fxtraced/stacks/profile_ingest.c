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
#include <fxt/pyframes.h>
#include <fxt/stacks.h>

#include "profile_internal.h"

#define PROFILE_INTERN_BUDGET (256u << 20)
/* Paths kept at most this long (PATH_MAX). */
#define PROFILE_PATH_MAX 4096u

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
	err = profile_pending_room(p, PROFILE_TABLE_MAPPINGS,
				   fxt_stacks_mapping_words(plen, blen), emit,
				   ctx, &at);
	if (!err)
		fxt_stacks_put_mapping(at, &m);
	return err;
}

/*
 * The kernel frame of key (a pc, or KERNEL_HIDDEN_KEY): interned, and
 * when new named from kallsyms (named false: "[kernel]", no offset).
 */
static int kernel_frame_keyed(struct profile_ingest *p, uint64_t key,
			      bool named, profile_emit_fn emit, void *ctx,
			      uint32_t *id)
{
	struct profile_frame_key k = { .kind = FXT_STACKS_FRAME_KERNEL,
				       .pc_or_addr = key };
	const char *name = FXT_STACKS_KERNEL_UNKNOWN;
	uint64_t off = 0;
	int added, err;

	err = profile_frame_reserve(p);
	if (!err)
		err = profile_intern_get(&p->frames, &k, sizeof(k), id, &added);
	if (err || !added)
		return err;
	if (named && p->r.kernel_lookup(p->r.ctx, key, &name, &off)) {
		name = FXT_STACKS_KERNEL_UNKNOWN;
		off = 0;
	}
	return profile_frame_new(p, *id, FXT_STACKS_FRAME_KERNEL, 0, off, name,
				 false, emit, ctx);
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
	struct profile_frame_key k = { .kind = FXT_STACKS_FRAME_USER,
				       .pc_or_addr = pc };
	const char *name = FXT_STACKS_USER_UNKNOWN;
	struct profile_user_hit hit;
	bool late = false;
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
		/* A walk with tables found the leaf's caller already. */
		if (leaf && !s->unwound && !leaf->walked)
			profile_leaf_caller(p, s, k.mapping, &hit, leaf);
	} else if (p->r.user_jit) {
		/* A caller's pc returns past its call: the byte before. */
		err = p->r.user_jit(p->r.ctx, (uint32_t)s->pid,
				    pc - (!leaf && pc), s->ts, &name);
		late = err && p->r.user_jit_late;
		/* Named, or unnamed yet: its process's, named at the end. */
		if (!err || late)
			k.jit_pid = (uint32_t)s->pid;
		k.jit_late = late;
	}
	err = profile_frame_get(p, &k, k.mapping ? NULL : name, emit, ctx, id,
				&added);
	/* Unnamed yet: its process's JIT may name it at the end. */
	if (!err && added && late) {
		p->frame[*id - 1].jit_pid = (uint32_t)s->pid;
		p->frame[*id - 1].nonleaf = !leaf;
	}
	return err;
}

/* What a Python frame no name was read for is called. */
#define PYTHON_UNNAMED "[python]"

/*
 * The frame of Python word w of s (include/fxt/pyframes.h): its code
 * object's, of s's process, named when first met.
 */
static int python_frame(struct profile_ingest *p, const struct fxt_ksample *s,
			uint64_t w, profile_emit_fn emit, void *ctx,
			uint32_t *id)
{
	struct profile_frame_key k = {
		.kind = FXT_STACKS_FRAME_USER,
		.pc_or_addr = fxt_py_word(fxt_py_word_code(w), 0),
		.jit_pid = (uint32_t)s->pid,
	};
	const char *name = PYTHON_UNNAMED;
	int added, err;

	err = profile_frame_reserve(p);
	if (!err)
		err = profile_intern_get(&p->frames, &k, sizeof(k), id, &added);
	if (err || !added)
		return err;
	if (!p->r.user_python ||
	    p->r.user_python(p->r.ctx, (uint32_t)s->pid, fxt_py_word_code(w),
			     &name)) {
		name = PYTHON_UNNAMED;
		p->st.python_unnamed++;
	}
	p->st.python_frames++;
	/* No address: the code object's is no frame's pc. */
	return profile_frame_new(p, *id, FXT_STACKS_FRAME_USER, 0, 0, name,
				 false, emit, ctx);
}

/*
 * The Python frames of s that stand for its native user frame native
 * (FXT_PY_NATIVE_NONE: those placed nowhere), appended to ids: how many.
 */
static int python_push(struct profile_ingest *p, const struct fxt_ksample *s,
		       uint32_t native, profile_emit_fn emit, void *ctx,
		       uint32_t *ids, uint16_t *n, uint32_t *pushed)
{
	const uint64_t *py = (const uint64_t *)s->pcs + s->nk + s->nu;
	uint32_t i, id;
	int err;

	*pushed = 0;
	for (i = 0; i < s->npy; i++) {
		if (!fxt_py_word_is(py[i]) ||
		    fxt_py_word_native(py[i]) != native)
			continue;
		if (*n >= PROFILE_STACK_IDS_MAX)
			return -ENOSPC;
		err = python_frame(p, s, py[i], emit, ctx, &id);
		if (err)
			return err;
		ids[(*n)++] = id;
		(*pushed)++;
	}
	return 0;
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
 * ids: leaf first, kernel frames then user frames: those unwound from
 * the copy of the user stack where that found more (profile_unwind.c),
 * else the record's, with the caller of a user leaf without a frame
 * (profile_leaf.c).
 */
static int sample_frames(struct profile_ingest *p, const struct fxt_ksample *s,
			 profile_emit_fn emit, void *ctx, uint32_t *ids,
			 uint16_t *n)
{
	uint32_t i = s->kind == FXT_KSAMPLE_OFFCPU ? offcpu_first(p, s) : 0;
	uint64_t walked[FXT_KSAMPLE_USER_MAX];
	struct profile_leaf leaf = { 0 };
	const uint64_t *upcs = (const uint64_t *)s->pcs + s->nk;
	uint32_t id, pushed, nu = profile_unwind(p, s, walked);
	int err;

	if (nu) {
		upcs = walked;
		leaf.walked = true;
	} else {
		nu = s->nu;
	}

	*n = 0;
	for (; i < s->nk; i++) {
		err = kernel_frame(p, s->pcs[i], emit, ctx, &ids[*n]);
		if (err)
			return err;
		(*n)++;
	}
	for (i = 0; i < nu; i++) {
		uint64_t pc = upcs[i];

		/*
		 * Over a leaf that keeps no frame, the walk followed whatever
		 * the frame pointer register held (a release build's hot
		 * loop uses it for data): a word in the kernel's half there
		 * is that junk, no return, and ends the walk. Over a leaf
		 * with its frame, it stays the one hidden "[kernel]" frame.
		 */
		if (i && leaf.frameless && pc >= PROFILE_KERNEL_HALF) {
			p->st.junk_frame_word++;
			break;
		}
		err = python_push(p, s, i, emit, ctx, ids, n, &pushed);
		if (err)
			return err;
		if (pushed)
			continue;	/* in place of the evaluation's frame */
		err = user_frame(p, s, pc, emit, ctx, &id, i ? NULL : &leaf);
		if (!err)
			err = profile_inline_push(p, id, i, emit, ctx, ids, n);
		if (err)
			return err;
		if (i || !leaf.caller)
			continue;
		/* The caller the walk skipped, right after the leaf. */
		err = user_frame(p, s, leaf.caller, emit, ctx, &id, NULL);
		if (!err)
			err = profile_inline_push(p, id, true, emit, ctx, ids,
						  n);
		if (err)
			return err;
	}
	/* Those whose evaluation frame the native walk did not reach. */
	return python_push(p, s, FXT_PY_NATIVE_NONE, emit, ctx, ids, n,
			   &pushed);
}

static int stack_id(struct profile_ingest *p, const uint32_t *ids, uint16_t n,
		    profile_emit_fn emit, void *ctx, uint32_t *id)
{
	uint32_t written[PROFILE_STACK_IDS_MAX];
	uint64_t *at;
	uint16_t i;
	int added, err;

	err = profile_intern_get(&p->stacks, ids, n * (uint32_t)sizeof(*ids),
				 id, &added);
	if (err || !added)
		return err;
	for (i = 0; i < n; i++)
		written[i] = p->id_base + ids[i];
	err = profile_pending_room(p, PROFILE_TABLE_STACKS,
				   fxt_stacks_stack_words(n), emit, ctx, &at);
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

/*
 * Why a written sample's walk may have stopped early, from what the
 * kernel side recorded: a full record is as deep as it goes (the walk
 * may have gone on), and user frames without the words at the stack
 * pointer mean reading them faulted (both backends read them whenever
 * there are user frames).
 */
static void count_walk_ends(struct profile_ingest *p,
			    const struct fxt_ksample *s)
{
	p->st.kernel_depth_limit += s->nk == FXT_KSAMPLE_KERNEL_MAX;
	p->st.user_depth_limit += s->nu + s->npy == FXT_KSAMPLE_USER_MAX;
	/* A walk with tables counts its own stops (kernel capture). */
	p->st.user_read_fault += s->nu && !s->ns && !s->unwound;
}

int profile_ingest_record(struct profile_ingest *p, const uint64_t *rec,
			  size_t words, profile_emit_fn emit, void *ctx)
{
	uint32_t ids[PROFILE_STACK_IDS_MAX];
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
		return profile_pending_flush(p, emit, ctx);
	}
	if (!err)
		err = profile_pending_flush(p, emit, ctx);
	if (!err)
		count_walk_ends(p, &s);
	return err ? err : write_sample(p, rec, &s, stack, emit, ctx);
}
