// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module's functions sorted by address, from whichever symbol table
 * libdwfl chose (.symtab, the debug file's, .gnu_debugdata, .dynsym).
 * Of symbols at one address the global one is kept, then the weak, then
 * the first; a lookup takes the last function at or below the address,
 * within its size. libdwfl hands out a name as a pointer into its
 * string table without checking that a NUL ends it there: each name is
 * bounded by the end of the string table holding it, and a name in none
 * is not taken.
 */
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>

#include "usyms_internal.h"

/* Beyond this many symbols a table is cut (a hostile file's). */
#define USYMS_SYMTAB_MAX (16u << 20)

static int bind_rank(unsigned char bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct usyms_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static bool is_function(const GElf_Sym *sym, GElf_Word shndx)
{
	int type = GELF_ST_TYPE(sym->st_info);

	return shndx != SHN_UNDEF && sym->st_value &&
	       (type == STT_FUNC || type == STT_GNU_IFUNC);
}

/* A function without a size (hand-written assembly) is taken to end
 * with its section; 1 when that is not known.
 */
static uint64_t sizeless_span(Elf *elf, GElf_Word shndx, uint64_t addr,
			      GElf_Addr bias)
{
	GElf_Shdr mem, *sh;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
	uint64_t start, end;

	sh = scn ? gelf_getshdr(scn, &mem) : NULL;
	if (!sh)
		return 1;
	start = sh->sh_addr + bias;
	end = start + sh->sh_size;
	return addr >= start && addr < end ? end - addr : 1;
}

/* The string tables of the ELF files a module's symbols come from. */
#define STRTABS_MAX 16

struct strtabs {
	Elf *elf[4]; /* the files whose tables are in range[] */
	size_t nelf;
	struct {
		const char *start;
		size_t size;
	} range[STRTABS_MAX];
	size_t n;
};

/* elf's string tables, as libelf holds them (read once, cached). */
static void strtabs_add(struct strtabs *t, Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t i;

	for (i = 0; i < t->nelf; i++)
		if (t->elf[i] == elf)
			return;
	if (t->nelf == sizeof(t->elf) / sizeof(t->elf[0]))
		return;
	t->elf[t->nelf++] = elf;
	while ((scn = elf_nextscn(elf, scn)) && t->n < STRTABS_MAX) {
		GElf_Shdr mem, *sh = gelf_getshdr(scn, &mem);
		Elf_Data *d;

		if (!sh || sh->sh_type != SHT_STRTAB)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && d->d_size) {
			t->range[t->n].start = d->d_buf;
			t->range[t->n++].size = d->d_size;
		}
	}
}

/* The bytes from name to the end of its string table, or 0. */
static size_t strtabs_room(struct strtabs *t, Elf *elf, const char *name)
{
	size_t i;

	if (elf)
		strtabs_add(t, elf);
	for (i = 0; i < t->n; i++) {
		const char *start = t->range[i].start;

		if (name >= start && name < start + t->range[i].size)
			return (size_t)(start + t->range[i].size - name);
	}
	return 0;
}

/* Sorts by address, then rank, and keeps the first of each address. */
static void sort_unique(struct usyms_symtab *t)
{
	size_t i, n = 0;

	qsort(t->syms, t->n, sizeof(*t->syms), cmp_sym);
	for (i = 0; i < t->n; i++)
		if (!n || t->syms[i].addr != t->syms[n - 1].addr)
			t->syms[n++] = t->syms[i];
	t->n = n;
}

int usyms_symtab_build(Dwfl_Module *mod, struct usyms_symtab *t)
{
	int count = dwfl_module_getsymtab(mod), i;
	struct strtabs tabs = { .n = 0 };
	size_t n = 0, room;

	t->syms = NULL;
	t->n = 0;
	if (count <= 0)
		return 0;
	if ((unsigned int)count > USYMS_SYMTAB_MAX)
		count = USYMS_SYMTAB_MAX;
	t->syms = calloc((size_t)count, sizeof(*t->syms));
	if (!t->syms)
		return -ENOMEM;
	for (i = 1; i < count; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Addr bias;
		Elf *elf;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr,
							   &shndx, &elf, &bias);

		if (!name || !is_function(&sym, shndx))
			continue;
		room = strtabs_room(&tabs, elf, name);
		if (!room || !*name)
			continue;
		if (!sym.st_size)
			sym.st_size = sizeless_span(elf, shndx, addr, bias);
		t->syms[n++] = (struct usyms_sym){
			.addr = addr, .size = sym.st_size, .name = name,
			.name_max = room,
			.rank = bind_rank(GELF_ST_BIND(sym.st_info)),
			.index = (uint32_t)i,
		};
	}
	t->n = n;
	sort_unique(t);
	return 0;
}

struct usyms_sym *usyms_symtab_find(const struct usyms_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	struct usyms_sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->syms[lo - 1];
	if (addr - s->addr >= s->size)
		return NULL;
	return s;
}

void usyms_symtab_clear(struct usyms_symtab *t)
{
	free(t->syms);
	t->syms = NULL;
	t->n = 0;
}
