/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inline frames from DWARF: the functions a compiler inlined at an
 * address, innermost first, up to (not including) the function the
 * symbol table names there. Read from the file's own DWARF, else from
 * its separate debug file (/usr/lib/debug/.build-id/xx/yyyy.debug),
 * within usyms.h's bounds: no DWARF section over USYMS_SECTION_MAX, nor
 * all of them together, counting a compressed section by the size it
 * expands to; the budget's bytes and deadline as usyms_lookup().
 */
#ifndef FXT_SYMBOLS_USYMS_INLINE_H
#define FXT_SYMBOLS_USYMS_INLINE_H

#include <stddef.h>
#include <stdint.h>

#include "usyms.h"

/* Levels of inlining kept at one address, innermost first. */
#define USYMS_INLINE_MAX 16

/*
 * Openings of a file whose DWARF is read at most: a file closed to make
 * room in the budget and opened again reads its DWARF again (100 ms for
 * libc's compressed debug file), so one that keeps being closed has no
 * inline frames past its fourth.
 */
#define USYMS_DWARF_READS_MAX 4

/*
 * The names of the functions inlined at vaddr in file id (build id
 * checked as usyms_lookup()), innermost first, at most max of them: the
 * count (0 when vaddr is in no inlined code, or the file has no DWARF,
 * or its DWARF is over the bounds or malformed), or -ESTALE, -ETIME and
 * -errno as usyms_lookup(). names[i] is valid until usyms_free(). A
 * caller's address is a return address: the caller passes its call's.
 */
int usyms_inline_chain(struct usyms *u, uint32_t id, const uint8_t *build_id,
		       size_t build_id_len, uint64_t vaddr, const char **names,
		       size_t max);

#endif /* FXT_SYMBOLS_USYMS_INLINE_H */
