// SPDX-License-Identifier: GPL-2.0-only
/*
 * usyms_leaf_return_slot(): where a leaf function keeps its return
 * address, from its call frame information, for the frames a
 * frame-pointer walk misses (a leaf built without frame pointers);
 * usyms_cfi_table(): a file's unwinding rows, for a whole copied stack.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>

#include "cfi_rules.h"
#include "cfi_table.h"
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

/*
 * The slot of vaddr's frame in cfi (bias as libdwfl gives it): -ENODATA
 * when cfi has no frame for vaddr, -ENOENT when not sp-based.
 */
static int slot_in(Dwarf_CFI *cfi, Dwarf_Addr bias, uint64_t vaddr,
		   uint64_t *sp_offset)
{
	Dwarf_Frame *frame = NULL;
	int64_t cfa, ret;
	int r, reg, ra;

	if (!cfi || dwarf_cfi_addrframe(cfi, vaddr - bias, &frame))
		return -ENODATA;
	ra = dwarf_frame_info(frame, NULL, NULL, NULL);
	r = cfi_rules_cfa(frame, &reg, &cfa);
	if (!r && reg != USYMS_DWARF_SP)
		r = -ENOENT;
	if (!r && cfi_rules_at_cfa(frame, ra, &ret) != CFI_RULES_AT_CFA)
		r = -ENOENT;
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

/* The rows of mod's ELF into c: 0, or why not (kept unless transient). */
static int cfi_build(struct usyms *u, uint32_t id, Dwfl_Module *mod,
		     struct usyms_cfi *c)
{
	struct cfi_table *t;
	Dwarf_Addr bias;
	Elf *elf;
	int r;

	if (usyms_past_deadline(u))
		return usyms_count_refusal(u, -ETIME);
	elf = dwfl_module_getelf(mod, &bias);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	r = elf ? cfi_table_build(elf, t) : -ENOEXEC;
	if (!r && !t->nrows) {
		cfi_table_free(t);
		r = -ENOENT;
	}
	if (r < 0) {
		free(t);
		/* Memory may come back; the file stays what it is. */
		if (r != -ENOMEM)
			c->err = r;
		return r;
	}
	c->table = t;
	/* Held while the file is open, as its sections are. */
	usyms_charge(u, id, t->nrows * sizeof(*t->rows));
	return 0;
}

int usyms_cfi_table(struct usyms *u, uint32_t id, const uint8_t *build_id,
		    size_t build_id_len, const struct cfi_table **t)
{
	struct usyms_cfi *c;
	Dwfl_Module *mod;
	bool dwarf_ok;
	int r;

	r = usyms_module(u, id, build_id, build_id_len, &mod, &dwarf_ok);
	if (r < 0)
		return r;
	c = usyms_cfi_of(u, id);
	if (c->err)
		return c->err;
	if (!c->table) {
		r = cfi_build(u, id, mod, c);
		if (r < 0)
			return r;
	}
	*t = c->table;
	return 0;
}
