// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inline frames: a user PC in code the compiler inlined becomes, in the
 * stack written, the inlined functions (innermost first, each a frame of
 * its own flagged FXT_STACKS_FRAME_INLINED and named here) followed by
 * the frame of the function that holds the PC, as before. The stack
 * gains frames, so every reader (summary, report, convert, export,
 * Perfetto) shows them without knowing of them.
 *
 * The chain has to be known when the stack is interned, during the
 * trace, not at its end as the functions' names are: it is looked up
 * once per function frame and address kind (a leaf's PC, or a return
 * address, whose call is the byte before it and may be in another
 * inlined scope), and kept as links between the frames.
 */
#include <errno.h>

#include "profile_internal.h"

/*
 * The chain of inline frames of function frame id (caller: at addr - 1),
 * interned outermost first so that each links to the one it is inlined
 * into; inline_first[caller] set to the innermost, or 0.
 */
static int chain_build(struct profile_ingest *p, uint32_t id, bool caller,
		       profile_emit_fn emit, void *ctx)
{
	const char *names[PROFILE_INLINE_MAX];
	const struct profile_frame *f = &p->frame[id - 1];
	struct profile_frame_key k = { .kind = FXT_STACKS_FRAME_USER,
				       .inline_caller = caller,
				       .mapping = f->mapping,
				       .pc_or_addr = f->addr };
	const uint8_t *bid;
	const char *path;
	size_t plen, blen;
	uint32_t next = id, inl;
	int n, added, err;

	profile_mapping(p, f->mapping, &path, &plen, &bid, &blen);
	n = p->r.user_inline(p->r.ctx, profile_mapping_file(p, f->mapping), bid,
			     blen, f->addr - (caller && f->addr), names,
			     PROFILE_INLINE_MAX);
	/* No chain (no DWARF, past the bounds): the function alone. */
	for (; n > 0; n--) {
		k.inline_depth = (uint8_t)n;
		err = profile_frame_get(p, &k, names[n - 1], emit, ctx, &inl,
					&added);
		if (err)
			return err;
		p->frame[inl - 1].next = next;
		next = inl;
	}
	/* frame[] may have moved while the chain was interned. */
	p->frame[id - 1].inline_first[caller] = next == id ? 0 : next;
	p->frame[id - 1].inline_known |= 1u << caller;
	return 0;
}

int profile_inline_push(struct profile_ingest *p, uint32_t id, bool caller,
			profile_emit_fn emit, void *ctx, uint32_t *ids,
			uint16_t *n)
{
	const struct profile_frame *f = &p->frame[id - 1];
	uint32_t at;
	int err;

	if (caller)
		p->frame[id - 1].nonleaf = true;
	if (f->kind == FXT_STACKS_FRAME_USER && f->mapping && !f->inlined &&
	    p->r.user_inline && !(f->inline_known & (1u << caller))) {
		err = chain_build(p, id, caller, emit, ctx);
		if (err)
			return err;
	}
	f = &p->frame[id - 1];
	/* Room kept for every frame of a record that may follow. */
	for (at = f->inline_first[caller];
	     at && at != id &&
	     *n < PROFILE_STACK_IDS_MAX - PROFILE_STACK_FRAMES_MAX;
	     at = p->frame[at - 1].next)
		ids[(*n)++] = at;
	ids[(*n)++] = id;
	return 0;
}
