/* SPDX-License-Identifier: GPL-2.0-only */
/* Inside daemon/symbols: how files named by other users are opened. */
#ifndef FXT_SYMBOLS_USYMS_INTERNAL_H
#define FXT_SYMBOLS_USYMS_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cfi_table.h"

/*
 * A module's functions sorted by address: libdwfl's own lookup
 * (dwfl_module_addrinfo) scans the whole symbol table each time, far too
 * slow for the frames of a trace. Names point into libdwfl's tables:
 * valid while the module's Dwfl is.
 */
struct usyms_sym {
	uint64_t addr, size;
	const char *name;
	size_t name_max; /* bytes of name's string table from name on */
	const char *copy; /* the name handed out, once copied */
	uint32_t rank; /* global, weak, local; then table order */
	uint32_t index;
};

struct usyms_symtab {
	struct usyms_sym *syms;
	size_t n;
};

int usyms_symtab_build(Dwfl_Module *mod, struct usyms_symtab *t);
/* The function holding addr, or NULL. */
struct usyms_sym *usyms_symtab_find(const struct usyms_symtab *t, uint64_t addr);
void usyms_symtab_clear(struct usyms_symtab *t);

struct usyms;
/*
 * The libdwfl module of file id (at its own addresses, bias 0), as
 * usyms_lookup() checks it; valid until the next call on u. *dwarf_ok:
 * its DWARF sections are within the bounds, and may be read.
 */
int usyms_module(struct usyms *u, uint32_t id, const uint8_t *build_id,
		 size_t build_id_len, Dwfl_Module **mod, bool *dwarf_ok);

/* Whether the budget's deadline has passed. */
bool usyms_past_deadline(const struct usyms *u);
/* r, a refusal by the budget or the section bound counted. */
int usyms_count_refusal(struct usyms *u, int r);
/*
 * A copy of name (max bytes at most, USYMS_NAME_MAX in all), control
 * bytes replaced, valid until usyms_free(); NULL without memory.
 */
const char *usyms_copy_name(struct usyms *u, const char *name, size_t max);

/*
 * The bytes DWARF section sh (named name) of elf holds once read: its
 * size, or for a compressed one (SHF_COMPRESSED, GNU .zdebug_) the size
 * its header says it expands to (UINT64_MAX when unreadable).
 */
uint64_t usyms_dwarf_size(Elf *elf, const GElf_Shdr *sh, const char *name);

/*
 * Whether file id's DWARF may be read for inline frames: yes once read
 * by its current opening; else only if fewer than USYMS_DWARF_READS_MAX
 * openings read it (a file closed to make room and opened again reads
 * its DWARF again: a decompressed debug file costs 100 ms each time).
 * A yes counts a read.
 */
bool usyms_dwarf_read_ok(struct usyms *u, uint32_t id);

/* A file's functions by address for its inline frames, unit by unit. */
struct usyms_inline_index;
/*
 * The function of cu holding addr, into *fn: 1, 0 when none, -ENOMEM.
 * *x is built as units are asked for (allocated at the first).
 */
int usyms_inline_index_find(struct usyms_inline_index **x, Dwarf_Die *cu,
			    Dwarf_Addr addr, Dwarf_Die *fn);
void usyms_inline_index_free(struct usyms_inline_index *x);
/* The bytes x grew by since the last call (for usyms_charge()). */
size_t usyms_inline_index_growth(struct usyms_inline_index *x);
/*
 * bytes more held for file id (open): counted in the budget with its
 * sections, until it is closed; the next files opened make room.
 */
void usyms_charge(struct usyms *u, uint32_t id, uint64_t bytes);
/* File id's index (as usyms_module() found it ready), freed with it. */
struct usyms_inline_index **usyms_inline_index_of(struct usyms *u, uint32_t id);

/*
 * A file's unwinding rows (usyms_cfi_table()): kept while it is open,
 * counted in the budget; why they could not be built, kept for good.
 */
struct usyms_cfi {
	struct cfi_table *table;
	int err;
};

/* File id's rows (as usyms_module() found it ready), freed with it. */
struct usyms_cfi *usyms_cfi_of(struct usyms *u, uint32_t id);

/*
 * The rows freed (the file closed), the error kept. Here, not in
 * usyms_cfi.c: usyms.c calls it, and usyms_cfi.c calls usyms.c.
 */
static inline void usyms_cfi_clear(struct usyms_cfi *c)
{
	if (!c->table)
		return;
	cfi_table_free(c->table);
	free(c->table);
	c->table = NULL;
}

#endif /* FXT_SYMBOLS_USYMS_INTERNAL_H */
