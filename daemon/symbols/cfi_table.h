/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unwinding rows compiled from an ELF file's call frame information, for
 * a walker that cannot run a DWARF interpreter (a BPF program): for each
 * range of addresses, how the caller's frame is found on x86-64, where
 * compilers without frame pointers leave it:
 *   CFA = rsp + cfa_off, or rbp + cfa_off;
 *   the return address at CFA - 8 (rows where it is elsewhere are OTHER);
 *   the caller's rbp unchanged, or at CFA + fp_off.
 * Anything else (a DWARF expression, another register) is CFI_CFA_OTHER:
 * the walk stops there, counted. A return address the CFI says is
 * undefined is CFI_CFA_END: the outermost frame, where a walk ends. Addresses where no FDE applies are
 * CFI_CFA_NONE rows (a walker falls back to frame pointers there).
 *
 * The FDEs are found through .eh_frame_hdr's sorted table (as every
 * unwinder finds them), their rows by libdw (dwarf_cfi_addrframe(), the
 * same interpreter the manager's other CFI lookups use). The file is
 * another user's: the table's size is checked against its section, an
 * encoding other than the linkers' (sdata4 relative to the header) is
 * refused, and the sections read and the rows are bounded
 * (CFI_TABLE_SECTION_MAX, CFI_TABLE_ROWS_MAX).
 */
#ifndef FXT_SYMBOLS_CFI_TABLE_H
#define FXT_SYMBOLS_CFI_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include <libelf.h>

/* Rows of one file at most: -E2BIG past them. */
#define CFI_TABLE_ROWS_MAX (4u << 20)
/* .eh_frame and .eh_frame_hdr bytes at most (chromium's: 8 MiB): -E2BIG. */
#define CFI_TABLE_SECTION_MAX (64u << 20)

enum cfi_cfa {
	CFI_CFA_NONE,	/* no FDE covers the address */
	CFI_CFA_SP,	/* CFA = rsp + cfa_off */
	CFI_CFA_FP,	/* CFA = rbp + cfa_off */
	CFI_CFA_OTHER,	/* an expression, another register: unsupported */
	CFI_CFA_END,	/* the outermost frame (_start, a thread's start) */
};

enum cfi_fp {
	CFI_FP_SAME,	/* the caller's rbp is rbp */
	CFI_FP_AT_CFA,	/* saved at CFA + fp_off */
	CFI_FP_OTHER,	/* elsewhere: unknown after this frame */
};

/* From pc to the next row's pc (the last: to the end of its FDE). */
struct cfi_row {
	uint64_t pc;	/* an address of the ELF file (p_vaddr's space) */
	int32_t cfa_off;
	int32_t fp_off;
	uint8_t cfa;	/* enum cfi_cfa */
	uint8_t fp;	/* enum cfi_fp */
};

struct cfi_table {
	struct cfi_row *rows;	/* sorted by pc, no two alike in a row */
	size_t nrows;
	uint64_t end;		/* where the last FDE ends */
	uint64_t fdes;		/* FDEs compiled */
	uint64_t fdes_unread;	/* in the header's table, no rows by libdw */
};

/*
 * The rows of elf's .eh_frame: 0; -ENOENT without .eh_frame_hdr or
 * .eh_frame, -EBADMSG for a header that is malformed, -EOPNOTSUPP for
 * one of another encoding, -E2BIG (a section or the rows past their
 * bound), -ENOMEM. On error *t is empty.
 */
int cfi_table_build(Elf *elf, struct cfi_table *t);
/* The row that applies at pc, or NULL (before the first, past the end). */
const struct cfi_row *cfi_table_find(const struct cfi_table *t, uint64_t pc);
void cfi_table_free(struct cfi_table *t);

#endif /* FXT_SYMBOLS_CFI_TABLE_H */
