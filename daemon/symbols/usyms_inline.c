// SPDX-License-Identifier: GPL-2.0-only
/*
 * usyms_inline_chain(): the inline frames at an address. The function
 * holding it comes from its unit's index (usyms_inline_index.c; a walk
 * of the whole unit, as dwarf_getscopes() does, costs a millisecond a
 * lookup in a large one), then the inlined instances holding it are
 * found level by level down that function's DIEs. Each level is named
 * through its abstract origin (dwarf_diename() follows
 * DW_AT_abstract_origin, a bounded number of times). The DWARF is read
 * only when usyms.c found its sections within the bounds
 * (usyms_sections.c).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "usyms_inline.h"
#include "usyms_internal.h"

#define USYMS_INLINE_NAME_MAX 1024
/* DIEs looked at for one address at most (malformed sibling chains). */
#define USYMS_INLINE_VISITS 65536u

/*
 * The inlined instances holding pc inside function fn, outermost first,
 * into path (max at most): each level's child holding pc, through
 * lexical blocks, at most USYMS_INLINE_VISITS DIEs looked at.
 */
static int inlined_path(Dwarf_Die *fn, Dwarf_Addr pc, Dwarf_Die *path, int max)
{
	Dwarf_Die cur = *fn, child, next;
	unsigned int visits = USYMS_INLINE_VISITS;
	int n = 0;

	while (n < max && dwarf_child(&cur, &child) == 0) {
		int tag = 0;

		for (; visits; visits--) {
			tag = dwarf_tag(&child);
			if ((tag == DW_TAG_inlined_subroutine ||
			     tag == DW_TAG_lexical_block) &&
			    dwarf_haspc(&child, pc) > 0)
				break;
			if (dwarf_siblingof(&child, &next) != 0)
				return n;
			child = next;
		}
		if (!visits)
			break;
		if (tag == DW_TAG_inlined_subroutine)
			path[n++] = child;
		cur = child;
	}
	return n;
}

int usyms_inline_chain(struct usyms *u, uint32_t id, const uint8_t *build_id,
		       size_t build_id_len, uint64_t vaddr, const char **names,
		       size_t max)
{
	Dwarf_Die path[USYMS_INLINE_MAX], *cu, fn;
	struct usyms_inline_index **index;
	Dwfl_Module *mod;
	Dwarf_Addr bias = 0;
	bool dwarf_ok;
	int r = usyms_module(u, id, build_id, build_id_len, &mod, &dwarf_ok);
	int n, i;

	if (r < 0)
		return r;
	if (!dwarf_ok || !usyms_dwarf_read_ok(u, id))
		return 0;
	if (usyms_past_deadline(u))
		return usyms_count_refusal(u, -ETIME);
	cu = dwfl_module_addrdie(mod, vaddr, &bias);
	index = usyms_inline_index_of(u, id);
	r = cu ? usyms_inline_index_find(index, cu, vaddr - bias, &fn) : 0;
	/* The index is the file's, in the budget as its sections are. */
	usyms_charge(u, id, usyms_inline_index_growth(*index));
	if (r <= 0)
		return r == -ENOMEM ? r : 0;
	n = inlined_path(&fn, vaddr - bias, path,
			 max < USYMS_INLINE_MAX ? (int)max : USYMS_INLINE_MAX);
	/* Innermost first; each named through its abstract origin. */
	for (i = 0; i < n; i++) {
		const char *name = dwarf_diename(&path[n - 1 - i]);

		names[i] = usyms_copy_name(u, name ? name : "[inlined]",
					   USYMS_INLINE_NAME_MAX);
		if (!names[i])
			return -ENOMEM;
	}
	return n;
}
