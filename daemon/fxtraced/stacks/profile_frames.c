// SPDX-License-Identifier: GPL-2.0-only
/*
 * Frames: interned by key (struct profile_frame_key), kept in frame[]
 * by id, and each new one's entry queued in the frames table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

/* Frame names written at most this long (kallsyms names are shorter). */
#define PROFILE_NAME_MAX 255u

int profile_frame_reserve(struct profile_ingest *p)
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
		.flags = f->inlined ? FXT_STACKS_FRAME_INLINED : 0,
		.name_len = (uint16_t)len,
		.mapping_id = f->mapping ? p->id_base + f->mapping : 0,
		.addr = f->addr,
		.name = f->name,
	};
	uint64_t *at;
	int err;

	err = profile_pending_room(p, PROFILE_TABLE_FRAMES,
				   fxt_stacks_frame_words(len), emit, ctx, &at);
	if (!err)
		fxt_stacks_put_frame(at, &e);
	return err;
}

int profile_frame_new(struct profile_ingest *p, uint32_t id, uint8_t kind,
		      uint32_t mapping, uint64_t addr, const char *name,
		      bool inlined, profile_emit_fn emit, void *ctx)
{
	struct profile_frame *f = &p->frame[id - 1];

	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->mapping = mapping;
	f->addr = addr;
	f->inlined = inlined;
	if (name) {
		f->name = strndup(name, PROFILE_NAME_MAX);
		if (!f->name)
			return -ENOMEM;
	}
	return frame_write(p, id, emit, ctx);
}

int profile_frame_get(struct profile_ingest *p,
		      const struct profile_frame_key *k, const char *name,
		      profile_emit_fn emit, void *ctx, uint32_t *id, int *added)
{
	int err = profile_frame_reserve(p);

	if (!err)
		err = profile_intern_get(&p->frames, k, sizeof(*k), id, added);
	if (err || !*added)
		return err;
	return profile_frame_new(p, *id, k->kind, k->mapping, k->pc_or_addr,
				 name, k->inline_depth != 0, emit, ctx);
}
