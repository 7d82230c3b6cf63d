// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file's functions by address, one compilation unit at a time, for the
 * inline frames (usyms_inline.c): finding the function that holds an
 * address by a walk of its unit's DIEs (what dwarf_getscopes() does) costs
 * a millisecond a lookup in a large unit; the unit's functions are read
 * once into a sorted array instead, at its first lookup. Entries hold
 * libdw's DIEs: the index lives as long as the file's Dwfl (usyms.c frees
 * it with it). A file's entries are capped: past the cap its other units
 * have no inline frames.
 */
#include <dwarf.h>
#include <errno.h>
#include <stdlib.h>

#include "usyms_internal.h"

/* Entries of a file's index at most (48 bytes each). */
#define USYMS_INLINE_ENTRIES_MAX (256u << 10)
/* How deep namespaces are looked into for functions. */
#define USYMS_INLINE_NEST_MAX 8
/* DIEs looked at in one unit's top levels at most. */
#define USYMS_INLINE_VISITS_MAX (4u << 20)

struct fn_range {
	uint64_t low, high;
	Dwarf_Die die;
};

struct cu_funcs {
	Dwarf_Off cu;
	struct fn_range *r;
	size_t n, cap;
};

struct usyms_inline_index {
	struct cu_funcs *cus;
	size_t n, cap;
	size_t entries;
	size_t last; /* the unit of the last lookup, tried first */
	size_t bytes, charged; /* allocated; told to the budget */
};

void usyms_inline_index_free(struct usyms_inline_index *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++)
		free(x->cus[i].r);
	free(x->cus);
	free(x);
}

static int add_range(struct usyms_inline_index *x, struct cu_funcs *c,
		     const Dwarf_Die *die, uint64_t low, uint64_t high)
{
	struct fn_range *r;

	if (x->entries >= USYMS_INLINE_ENTRIES_MAX)
		return -ENOSPC;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;

		r = reallocarray(c->r, cap, sizeof(*r));
		if (!r)
			return -ENOMEM;
		x->bytes += (cap - c->cap) * sizeof(*r);
		c->r = r;
		c->cap = cap;
	}
	c->r[c->n++] = (struct fn_range){ low, high, *die };
	x->entries++;
	return 0;
}

/*
 * The functions among parent's children (and its namespaces'), at most
 * *visits DIEs looked at: malformed DWARF's sibling chains end there.
 */
static int add_functions(struct usyms_inline_index *x, struct cu_funcs *c,
			 Dwarf_Die *parent, unsigned int nest, size_t *visits)
{
	Dwarf_Die die, next;
	int r = 0;

	if (dwarf_child(parent, &die) != 0)
		return 0;
	for (; *visits; (*visits)--) {
		int tag = dwarf_tag(&die);
		Dwarf_Addr base, low, high;
		ptrdiff_t off = 0;

		if (tag == DW_TAG_namespace && nest < USYMS_INLINE_NEST_MAX)
			r = add_functions(x, c, &die, nest + 1, visits);
		else if (tag == DW_TAG_subprogram)
			while (!r && (off = dwarf_ranges(&die, off, &base, &low,
							 &high)) > 0)
				if (low < high)
					r = add_range(x, c, &die, low, high);
		if (r < 0 || dwarf_siblingof(&die, &next) != 0)
			return r;
		die = next;
	}
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct fn_range *x = a, *y = b;

	return (x->low > y->low) - (x->low < y->low);
}

/* The index of cu's unit, built if new; NULL without memory. */
static struct cu_funcs *unit(struct usyms_inline_index *x, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	size_t i, visits = USYMS_INLINE_VISITS_MAX;
	struct cu_funcs *c;

	if (x->last < x->n && x->cus[x->last].cu == off)
		return &x->cus[x->last];
	for (i = 0; i < x->n; i++)
		if (x->cus[i].cu == off)
			return &x->cus[x->last = i];
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 16;

		c = reallocarray(x->cus, cap, sizeof(*c));
		if (!c)
			return NULL;
		x->bytes += (cap - x->cap) * sizeof(*c);
		x->cus = c;
		x->cap = cap;
	}
	c = &x->cus[x->n];
	*c = (struct cu_funcs){ .cu = off };
	/* Cut at the cap or without memory: what was read is kept. */
	add_functions(x, c, cu, 0, &visits);
	if (c->n)
		qsort(c->r, c->n, sizeof(*c->r), cmp_range);
	x->last = x->n++;
	return c;
}

int usyms_inline_index_find(struct usyms_inline_index **x, Dwarf_Die *cu,
			    Dwarf_Addr addr, Dwarf_Die *fn)
{
	struct cu_funcs *c;
	size_t lo = 0, hi;

	if (!*x) {
		*x = calloc(1, sizeof(**x));
		if (!*x)
			return -ENOMEM;
		(*x)->bytes = sizeof(**x);
	}
	c = unit(*x, cu);
	if (!c)
		return -ENOMEM;
	/* The last range starting at or below addr. */
	hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->r[mid].low <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= c->r[lo - 1].high)
		return 0;
	*fn = c->r[lo - 1].die;
	return 1;
}

size_t usyms_inline_index_growth(struct usyms_inline_index *x)
{
	size_t grown = x ? x->bytes - x->charged : 0;

	if (x)
		x->charged = x->bytes;
	return grown;
}
