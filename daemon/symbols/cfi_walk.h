/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A user stack walked with the rows of cfi_table.h, frame pointers where
 * no row applies: the walk a BPF program can do, written once in C, for
 * a stack the manager holds (a copy, or another process's memory) and
 * as the reference the in-kernel walker is held to.
 *
 * From the thread's ip, sp and bp: each frame's row gives its CFA; the
 * return address is at CFA - 8, the caller's sp is the CFA, its bp the
 * row's (unchanged, or read at CFA + fp_off). Where no table covers the
 * pc, the frame pointer chain is followed (return address at bp + 8,
 * the caller's bp at bp). The walk stops at the outermost frame, a zero
 * return address, a row it cannot follow, a read that faults, a stack
 * pointer that does not grow, or max frames: the reason is returned.
 */
#ifndef FXT_SYMBOLS_CFI_WALK_H
#define FXT_SYMBOLS_CFI_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "cfi_table.h"

struct cfi_regs {
	uint64_t ip, sp, bp;
};

enum cfi_walk_stop {
	CFI_WALK_END,		/* the outermost frame, or a zero return */
	CFI_WALK_DEPTH,		/* max frames taken */
	CFI_WALK_UNSUPPORTED,	/* a row of another rule (CFI_CFA_OTHER) */
	CFI_WALK_READ_FAULT,	/* a word of the stack could not be read */
	CFI_WALK_BAD_FRAME,	/* a stack pointer that did not grow */
};

struct cfi_walk_ops {
	/*
	 * The table of the file mapped at pc and pc's address in that file
	 * (*file_pc), or NULL: no table (frame pointers then).
	 */
	const struct cfi_table *(*table)(void *ctx, uint64_t pc,
					 uint64_t *file_pc);
	/* The 8 bytes at addr of the walked thread's memory: 0, or -EFAULT. */
	int (*read)(void *ctx, uint64_t addr, uint64_t *word);
};

/*
 * The return addresses of the stack in pcs, the first being regs->ip
 * itself: how many in *n; the reason the walk stopped.
 */
enum cfi_walk_stop cfi_walk(const struct cfi_regs *regs,
			    const struct cfi_walk_ops *ops, void *ctx,
			    uint64_t *pcs, size_t max, size_t *n);

#endif /* FXT_SYMBOLS_CFI_WALK_H */
