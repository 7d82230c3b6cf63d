// SPDX-License-Identifier: GPL-2.0-only
/*
 * The caller of a user leaf that keeps no frame pointer (a libc syscall
 * wrapper, memcpy): the frame-pointer walk starts at that caller's own
 * caller, so its return address is taken from the user stack words the
 * kernel side read at the stack pointer (include/fxt/ksample.h), where
 * the leaf's call frame information says it is. The words are used here
 * only: they never reach the archive.
 */
#include <errno.h>
#include <string.h>

#include "profile_internal.h"

/*
 * The slot of the leaf at vaddr of mapping: from the cache, else asked
 * and kept (replacing what was in its entry). -ENOENT: none.
 */
static int leaf_slot(struct profile_ingest *p, uint32_t mapping,
		     const struct profile_user_hit *hit, uint64_t *offset)
{
	uint64_t h = (hit->vaddr ^ (uint64_t)mapping * 0x9e3779b97f4a7c15ull) *
		     0x9e3779b97f4a7c15ull;
	struct profile_leaf_slot *e =
		&p->leaf_cache[h >> (64 - PROFILE_LEAF_CACHE_BITS)];
	int r;

	if (e->mapping != mapping || e->vaddr != hit->vaddr) {
		r = p->r.user_return_slot(p->r.ctx, hit->file, hit->build_id,
					  hit->build_id_len, hit->vaddr,
					  offset);
		*e = (struct profile_leaf_slot){
			.mapping = mapping,
			.vaddr = hit->vaddr,
			.offset = r ? PROFILE_LEAF_NO_SLOT : *offset,
		};
	}
	*offset = e->offset;
	return e->offset == PROFILE_LEAF_NO_SLOT ? -ENOENT : 0;
}

void profile_leaf_caller(struct profile_ingest *p, const struct fxt_ksample *s,
			 uint32_t mapping, const struct profile_user_hit *hit,
			 struct profile_leaf *leaf)
{
	struct profile_user_hit caller;
	uint64_t offset, ret;

	if (!mapping || !p->r.user_return_slot || !p->leaf_cache ||
	    leaf_slot(p, mapping, hit, &offset))
		return;
	leaf->frameless = true;
	/* A slot not read: the caller stays unknown. */
	if (offset % 8 || offset / 8 >= s->ns) {
		p->st.leaf_caller_unknown++;
		return;
	}
	ret = s->stack[offset / 8];
	/* Already the walk's next frame: nothing was skipped. */
	if (s->nu > 1 && s->pcs[s->nk + 1] == ret)
		return;
	if (!ret || p->r.user_find(p->r.ctx, (uint32_t)s->pid, ret, s->ts,
				   &caller)) {
		p->st.leaf_caller_unknown++;
		return;
	}
	leaf->caller = ret;
}
