/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rules of one call frame, as libdw's CFI interpreter gives them
 * (dwarf_frame_cfa(), dwarf_frame_register()), read the one way every
 * user of them here needs: the CFA as a register plus an offset, a
 * register saved at CFA plus an offset. Anything else is "other".
 */
#ifndef FXT_SYMBOLS_CFI_RULES_H
#define FXT_SYMBOLS_CFI_RULES_H

#include <stdint.h>

#include <elfutils/libdw.h>

enum cfi_rules_saved {
	CFI_RULES_AT_CFA,	/* in memory at CFA + *off */
	CFI_RULES_SAME,		/* unchanged by this frame */
	CFI_RULES_UNDEFINED,	/* none: the return address of the outermost */
	CFI_RULES_OTHER,	/* a value, an expression */
};

/* The CFA as DWARF register *reg + *off: 0, or -ENOENT (an expression). */
int cfi_rules_cfa(Dwarf_Frame *frame, int *reg, int64_t *off);
/* Where the caller's DWARF register regno is (enum cfi_rules_saved). */
int cfi_rules_at_cfa(Dwarf_Frame *frame, int regno, int64_t *off);

#endif /* FXT_SYMBOLS_CFI_RULES_H */
