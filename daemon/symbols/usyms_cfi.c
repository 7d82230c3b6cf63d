// SPDX-License-Identifier: GPL-2.0-only
/*
 * usyms_leaf_return_slot(): where a leaf function keeps its return
 * address, from its call frame information, for the frames a
 * frame-pointer walk misses (a leaf built without frame pointers).
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>

#include "usyms.h"
#include "usyms_internal.h"

/* DWARF register numbers of the stack pointer (System V psABI). */
#if defined(__x86_64__)
#define USYMS_DWARF_SP 7
#elif defined(__aarch64__)
#define USYMS_DWARF_SP 31
#else
#define USYMS_DWARF_SP -1
#endif

/* The CFA as sp + *off; -ENOENT when it is computed otherwise. */
static int cfa_from_sp(Dwarf_Frame *frame, int64_t *off)
{
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 ||
	    ops[0].atom != DW_OP_bregx || ops[0].number != USYMS_DWARF_SP)
		return -ENOENT;
	*off = (int64_t)ops[0].number2;
	return 0;
}

/*
 * The return address's rule as the memory at CFA + *off (libdw gives
 * "offset(N)" as DW_OP_call_frame_cfa, then N added); -ENOENT otherwise.
 */
static int return_from_cfa(Dwarf_Frame *frame, int64_t *off)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	int ra = dwarf_frame_info(frame, NULL, NULL, NULL);

	if (ra < 0 || dwarf_frame_register(frame, ra, mem, &ops, &nops) ||
	    nops < 1 || nops > 3 || ops[0].atom != DW_OP_call_frame_cfa)
		return -ENOENT;
	*off = 0;
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst)
		*off = (int64_t)ops[1].number;
	else if (nops == 3 &&
		 (ops[1].atom == DW_OP_consts || ops[1].atom == DW_OP_constu) &&
		 ops[2].atom == DW_OP_plus)
		*off = (int64_t)ops[1].number;
	else if (nops != 1)
		return -ENOENT; /* a value rule, or an expression */
	return 0;
}

/*
 * The slot of vaddr's frame in cfi (bias as libdwfl gives it): -ENODATA
 * when cfi has no frame for vaddr, -ENOENT when not sp-based.
 */
static int slot_in(Dwarf_CFI *cfi, Dwarf_Addr bias, uint64_t vaddr,
		   uint64_t *sp_offset)
{
	Dwarf_Frame *frame = NULL;
	int64_t cfa, ret;
	int r;

	if (!cfi || dwarf_cfi_addrframe(cfi, vaddr - bias, &frame))
		return -ENODATA;
	r = cfa_from_sp(frame, &cfa);
	if (!r)
		r = return_from_cfa(frame, &ret);
	free(frame);
	/* Below the stack pointer is not the caller's. */
	if (!r && (cfa + ret < 0 || cfa > INT32_MAX || ret < -INT32_MAX))
		r = -ENOENT;
	if (!r)
		*sp_offset = (uint64_t)(cfa + ret);
	return r;
}

int usyms_leaf_return_slot(struct usyms *u, uint32_t id,
			   const uint8_t *build_id, size_t build_id_len,
			   uint64_t vaddr, uint64_t *sp_offset)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;
	bool dwarf_ok;
	int r;

	if (USYMS_DWARF_SP < 0)
		return -ENOENT;
	r = usyms_module(u, id, build_id, build_id_len, &mod, &dwarf_ok);
	if (r < 0)
		return r;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	r = slot_in(cfi, bias, vaddr, sp_offset);
	if (r == -ENODATA && dwarf_ok) {
		cfi = dwfl_module_dwarf_cfi(mod, &bias);
		r = slot_in(cfi, bias, vaddr, sp_offset);
	}
	return r == -ENODATA ? -ENOENT : r;
}
