// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfi_rules.h: one frame's CFA and saved registers from libdw.
 */
#include <dwarf.h>
#include <errno.h>

#include "cfi_rules.h"

int cfi_rules_cfa(Dwarf_Frame *frame, int *reg, int64_t *off)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || ops[0].number > INT32_MAX)
		return -ENOENT;
	*reg = (int)ops[0].number;
	*off = (int64_t)ops[0].number2;
	return 0;
}

/*
 * libdw gives "offset(N)" as DW_OP_call_frame_cfa, then N added (as
 * DW_OP_plus_uconst, or a constant and DW_OP_plus), "same value" as no
 * operation and no array.
 */
int cfi_rules_at_cfa(Dwarf_Frame *frame, int regno, int64_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;

	if (regno < 0 || dwarf_frame_register(frame, regno, mem, &ops, &nops))
		return CFI_RULES_OTHER;
	if (!nops)
		return ops ? CFI_RULES_UNDEFINED : CFI_RULES_SAME;
	if (nops > 3 || ops[0].atom != DW_OP_call_frame_cfa)
		return CFI_RULES_OTHER;
	*off = 0;
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst)
		*off = (int64_t)ops[1].number;
	else if (nops == 3 &&
		 (ops[1].atom == DW_OP_consts || ops[1].atom == DW_OP_constu) &&
		 ops[2].atom == DW_OP_plus)
		*off = (int64_t)ops[1].number;
	else if (nops != 1)
		return CFI_RULES_OTHER; /* a value rule, or an expression */
	return CFI_RULES_AT_CFA;
}
