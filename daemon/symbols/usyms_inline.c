// SPDX-License-Identifier: GPL-2.0-only
/*
 * usyms_inline_chain(): the inline frames at an address, as eu-addr2line
 * -i finds them. dwarf_getscopes() gives the scopes holding the address
 * only up to the innermost inlined instance (then its abstract origin's
 * scopes); the concrete chain of callers is that instance's parents,
 * from dwarf_getscopes_die(). Each level is named through its abstract
 * origin (dwarf_diename() follows DW_AT_abstract_origin, a bounded
 * number of times). The DWARF is read only when usyms.c found its
 * sections within the bounds (usyms_sections.c).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "usyms_inline.h"
#include "usyms_internal.h"

#define USYMS_INLINE_NAME_MAX 1024

/* A scope that names a function: an inlined instance or the function. */
static bool function_scope(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram ||
	       tag == DW_TAG_entry_point;
}

/*
 * From the innermost inlined instance inl, outwards: the names of the
 * inlined levels (up to max), stopping at the function they are in.
 */
static int chain_names(struct usyms *u, Dwarf_Die *inl, const char **names,
		       size_t max)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes_die(inl, &scopes), i, count = 0;

	for (i = 0; i < n && (size_t)count < max; i++) {
		const char *name;

		if (!function_scope(&scopes[i]))
			continue;
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			break;
		name = dwarf_diename(&scopes[i]);
		names[count] = usyms_copy_name(u, name ? name : "[inlined]",
					       USYMS_INLINE_NAME_MAX);
		if (!names[count]) {
			count = -ENOMEM;
			break;
		}
		count++;
	}
	free(scopes);
	return n < 0 ? 0 : count;
}

/* The innermost inlined instance holding addr in cu, into *inl. */
static bool innermost_inlined(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *inl)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes), i;
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine) {
			*inl = scopes[i];
			found = true;
		}
	}
	free(scopes);
	return found;
}

int usyms_inline_chain(struct usyms *u, uint32_t id, const uint8_t *build_id,
		       size_t build_id_len, uint64_t vaddr, const char **names,
		       size_t max)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu, inl;
	bool dwarf_ok;
	int r = usyms_module(u, id, build_id, build_id_len, &mod, &dwarf_ok);

	if (r < 0)
		return r;
	if (!dwarf_ok)
		return 0;
	if (usyms_past_deadline(u))
		return usyms_count_refusal(u, -ETIME);
	cu = dwfl_module_addrdie(mod, vaddr, &bias);
	if (!cu || !innermost_inlined(cu, vaddr - bias, &inl))
		return 0;
	return chain_names(u, &inl, names,
			   max < USYMS_INLINE_MAX ? max : USYMS_INLINE_MAX);
}
