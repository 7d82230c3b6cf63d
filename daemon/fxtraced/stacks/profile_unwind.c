// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user stack the module copied (include/fxt/ksample.h: up to
 * FXT_KSAMPLE_STACK_MAX words at the stack pointer) unwound here, after
 * the fact, with the call frame information of each file it passes
 * through (cfi_walk.h over the rows usyms compiles of the file, opened
 * as its process's owner could): as perf record --call-graph dwarf
 * does. Code built without frame pointers, whose callers the kernel
 * side's frame-pointer walk loses, gets them back. The copy is read
 * here only: it never reaches the archive.
 */
#include <errno.h>
#include <string.h>

#include "cfi_walk.h"
#include "profile_internal.h"

struct unwind_ctx {
	struct profile_ingest *p;
	const struct fxt_ksample *s;
};

/* The rows of the file s's process mapped at pc, and pc in that file. */
static const struct cfi_table *table_at(void *ctx, uint64_t pc,
					uint64_t *file_pc)
{
	struct unwind_ctx *c = ctx;
	const struct profile_resolver *r = &c->p->r;
	struct profile_user_hit hit;
	const struct cfi_table *t;

	if (pc >= PROFILE_KERNEL_HALF ||
	    r->user_find(r->ctx, (uint32_t)c->s->pid, pc, c->s->ts, &hit) ||
	    !hit.path ||
	    r->user_cfi(r->ctx, hit.file, hit.build_id, hit.build_id_len, &t))
		return NULL;
	*file_pc = hit.vaddr;
	return t;
}

/*
 * A word of the copy: the stack as it was at sp; past its end (the
 * stack's top, or a page the module could not read) is a fault.
 */
static int read_copy(void *ctx, uint64_t addr, uint64_t *word)
{
	const struct fxt_ksample *s = ((struct unwind_ctx *)ctx)->s;
	uint64_t bytes = (uint64_t)s->ns * 8;

	if (bytes < 8 || addr < s->user_sp || addr - s->user_sp > bytes - 8)
		return -EFAULT;
	memcpy(word, (const uint8_t *)s->stack + (addr - s->user_sp),
	       sizeof(*word));
	return 0;
}

static void count_stop(struct profile_ingest *p, enum cfi_walk_stop stop)
{
	p->st.unwind_walks++;
	/* The record's own walk was shorter: its depth was not the limit. */
	p->st.user_depth_limit += stop == CFI_WALK_DEPTH;
	p->st.unwind_unsupported += stop == CFI_WALK_UNSUPPORTED;
	p->st.unwind_read_fault += stop == CFI_WALK_READ_FAULT;
	p->st.unwind_bad_frame += stop == CFI_WALK_BAD_FRAME;
}

uint32_t profile_unwind(struct profile_ingest *p, const struct fxt_ksample *s,
			uint64_t *pcs)
{
	const struct cfi_walk_ops ops = { table_at, read_copy };
	struct unwind_ctx c = { p, s };
	struct cfi_regs regs;
	enum cfi_walk_stop stop;
	size_t n;

	/*
	 * A leaf's frame only (the BPF program's words where it had no
	 * tables) is profile_leaf.c's to read, not a stack to walk.
	 */
	if (!p->r.user_cfi || s->unwound || !s->nu ||
	    s->ns <= FXT_KSAMPLE_STACK_LEAF)
		return 0;
	regs = (struct cfi_regs){ .ip = s->pcs[s->nk], .sp = s->user_sp,
				  .bp = s->user_bp };
	stop = cfi_walk(&regs, &ops, &c, pcs, FXT_KSAMPLE_USER_MAX, &n);
	if (n <= s->nu)
		return 0;
	count_stop(p, stop);
	return (uint32_t)n;
}
