// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfi_walk.h: a user stack walked with unwinding rows and frame pointers.
 */
#include "cfi_walk.h"

/* A step's result: the caller's registers in r, or why it stopped. */
#define STEPPED ((enum cfi_walk_stop)-1)

/*
 * One frame up with frame pointers: the return address at bp + 8, the
 * caller's bp at bp, its sp past both.
 */
static enum cfi_walk_stop fp_step(const struct cfi_walk_ops *ops, void *ctx,
				  struct cfi_regs *r)
{
	uint64_t ra, bp;

	if (!r->bp || r->bp < r->sp)
		return CFI_WALK_BAD_FRAME;
	if (ops->read(ctx, r->bp + 8, &ra) || ops->read(ctx, r->bp, &bp))
		return CFI_WALK_READ_FAULT;
	r->sp = r->bp + 16;
	r->bp = bp;
	r->ip = ra;
	return STEPPED;
}

/* One frame up with its row. */
static enum cfi_walk_stop row_step(const struct cfi_walk_ops *ops, void *ctx,
				   const struct cfi_row *row,
				   struct cfi_regs *r)
{
	uint64_t cfa, ra, bp = r->bp;

	if (row->cfa == CFI_CFA_END)
		return CFI_WALK_END;
	if (row->cfa != CFI_CFA_SP && row->cfa != CFI_CFA_FP)
		return CFI_WALK_UNSUPPORTED;
	cfa = (row->cfa == CFI_CFA_SP ? r->sp : r->bp) +
	      (uint64_t)(int64_t)row->cfa_off;
	if (cfa <= r->sp)
		return CFI_WALK_BAD_FRAME;
	if (ops->read(ctx, cfa - 8, &ra))
		return CFI_WALK_READ_FAULT;
	if (row->fp == CFI_FP_AT_CFA &&
	    ops->read(ctx, cfa + (uint64_t)(int64_t)row->fp_off, &bp))
		return CFI_WALK_READ_FAULT;
	if (row->fp == CFI_FP_OTHER)
		bp = 0;	/* unknown from here: no frame-pointer fallback */
	r->sp = cfa;
	r->bp = bp;
	r->ip = ra;
	return STEPPED;
}

enum cfi_walk_stop cfi_walk(const struct cfi_regs *regs,
			    const struct cfi_walk_ops *ops, void *ctx,
			    uint64_t *pcs, size_t max, size_t *n)
{
	struct cfi_regs r = *regs;
	const struct cfi_table *t;
	const struct cfi_row *row;
	enum cfi_walk_stop stop;
	uint64_t file_pc, lookup, sp;
	size_t i = 0;

	while (r.ip) {
		if (i == max) {
			*n = i;
			return CFI_WALK_DEPTH;
		}
		pcs[i] = r.ip;
		/* A return address is after its call: look up the call. */
		lookup = i ? r.ip - 1 : r.ip;
		t = ops->table(ctx, lookup, &file_pc);
		row = t ? cfi_table_find(t, file_pc) : NULL;
		i++;
		if (row && row->cfa == CFI_CFA_END)
			break;
		sp = r.sp;
		stop = row && row->cfa != CFI_CFA_NONE ?
			       row_step(ops, ctx, row, &r) :
			       fp_step(ops, ctx, &r);
		if (stop != STEPPED) {
			*n = i;
			return stop;
		}
		if (r.sp <= sp) {
			*n = i;
			return CFI_WALK_BAD_FRAME;
		}
	}
	*n = i;
	return CFI_WALK_END;
}
