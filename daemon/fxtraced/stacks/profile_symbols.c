// SPDX-License-Identifier: GPL-2.0-only
/*
 * The end of a profile: each user frame in a known file named by its
 * symbol ("fxtrace:symbols", after every frame it names), and each a JIT
 * had not named while the trace ran by its name now, if it has one;
 * then the Perfetto blobs, then how many samples these left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/stacks.h>

#include "profile_internal.h"
#include "profile_perfetto.h"

#define PROFILE_SYMBOL_MAX 1024u

static int symbol_write(struct profile_table *t, uint32_t id, const char *name,
			profile_emit_fn emit, void *ctx)
{
	size_t len = strnlen(name, PROFILE_SYMBOL_MAX);
	struct fxt_stacks_symbol s = { .frame_id = id,
				       .name_len = (uint16_t)len,
				       .name = name };
	uint64_t *at;
	int err;

	err = profile_table_room(t, fxt_stacks_symbol_words(len), emit, ctx,
				 &at);
	if (!err)
		fxt_stacks_put_symbol(at, &s);
	return err;
}

/* A caller's pc is a return address: its call is the byte before. */
static int frame_symbol(const struct profile_ingest *p,
			const struct profile_frame *f, const char **name)
{
	const uint8_t *bid;
	const char *path;
	size_t plen, blen;

	profile_mapping(p, f->mapping, &path, &plen, &bid, &blen);
	return p->r.user_symbol(p->r.ctx, profile_mapping_file(p, f->mapping),
				bid, blen,
				f->addr - (f->nonleaf && f->addr), name);
}

/*
 * The name a JIT gives f at the end, in place of "[unknown]" (the
 * Perfetto blobs take it there): 0, or -ENOENT still unnamed.
 */
static int frame_jit_late(struct profile_ingest *p, struct profile_frame *f)
{
	const char *name;
	char *copy;

	if (!f->jit_pid || !p->r.user_jit_late ||
	    p->r.user_jit_late(p->r.ctx, f->jit_pid,
			       f->addr - (f->nonleaf && f->addr), &name))
		return -ENOENT;
	copy = strndup(name, PROFILE_SYMBOL_MAX);
	if (!copy)
		return -ENOENT;
	free(f->name);
	f->name = copy;
	f->jit_pid = 0;
	return 0;
}

int profile_symbols_write(struct profile_ingest *p, profile_emit_fn emit,
			  void *ctx, const char ***names)
{
	struct profile_table *t = calloc(1, sizeof(*t));
	const char **n =
		calloc(p->frames.count ? p->frames.count : 1, sizeof(*n));
	uint32_t id;
	int err = 0;

	if (!t || !n) {
		free(t);
		free(n);
		return -ENOMEM;
	}
	t->name_ref = FXT_STACKS_STR_SYMBOLS;
	for (id = 1; id <= p->frames.count && !err; id++) {
		struct profile_frame *f = &p->frame[id - 1];

		if (f->kind == FXT_STACKS_FRAME_USER && !f->mapping &&
		    !frame_jit_late(p, f))
			err = symbol_write(t, p->id_base + id, f->name, emit,
					   ctx);
		/* An inline frame carries its own name. */
		if (err || f->kind != FXT_STACKS_FRAME_USER || !f->mapping ||
		    f->inlined || frame_symbol(p, f, &n[id - 1]))
			continue;
		err = symbol_write(t, p->id_base + id, n[id - 1], emit, ctx);
	}
	if (!err)
		err = profile_table_flush(t, emit, ctx);
	free(t);
	if (err)
		free(n);
	else
		*names = n;
	return err;
}

static int write_dropped(const struct profile_ingest *p, profile_emit_fn emit,
			 void *ctx)
{
	uint64_t rec[2] = {
		fxt_blob_header(2, FXT_STACKS_STR_PERFETTO_DROPPED,
				FXT_WORD_BYTES, FXT_BLOB_DATA),
		p->st.perfetto_dropped,
	};

	return emit(ctx, rec, 2);
}

int profile_ingest_finish(struct profile_ingest *p, profile_emit_fn emit,
			  void *ctx)
{
	const char **names = NULL;
	int err;

	if (p->finished)
		return 0;
	p->finished = true;
	if (!p->st.samples && !p->st.dropped)
		return 0;
	err = profile_symbols_write(p, emit, ctx, &names);
	if (!err)
		err = profile_perfetto_write(p, names, emit, ctx);
	if (!err)
		err = write_dropped(p, emit, ctx);
	free(names);
	return err;
}
