// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfi_table.h: an ELF file's .eh_frame compiled into unwinding rows.
 */
#include <dwarf.h>
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>

#include "cfi_table.h"
#include "cfi_rules.h"

/* DWARF register numbers of x86-64 (System V psABI). */
#define DWARF_RBP 6
#define DWARF_RSP 7

/* .eh_frame_hdr's encodings as the linkers write them. */
#define EH_PE_UDATA4 0x03
#define EH_PE_SDATA4 0x0b
#define EH_PE_PCREL 0x10
#define EH_PE_DATAREL 0x30
#define EH_HDR_HEAD 12u		/* version, encodings, two 4-byte fields */

struct eh_hdr {
	const uint8_t *table;	/* count pairs of sdata4 */
	uint32_t count;
	uint64_t vaddr;		/* what the table's addresses are relative to */
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The section named name: its data and address, or NULL. */
static Elf_Data *section(Elf *elf, const char *name, uint64_t *vaddr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && !strcmp(n, name)) {
			*vaddr = sh.sh_addr;
			return elf_getdata(scn, NULL);
		}
	}
	return NULL;
}

/*
 * -E2BIG when a section libdw or this file would read whole is over
 * CFI_TABLE_SECTION_MAX: another user's file may claim gigabytes (a
 * sparse file costs them nothing).
 */
static int sections_bounded(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *n;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EBADMSG;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (n && (!strcmp(n, ".eh_frame") || !strcmp(n, ".eh_frame_hdr")) &&
		    sh.sh_size > CFI_TABLE_SECTION_MAX)
			return -E2BIG;
	}
	return 0;
}

static int read_hdr(Elf *elf, struct eh_hdr *h)
{
	Elf_Data *d = section(elf, ".eh_frame_hdr", &h->vaddr);
	const uint8_t *p = d ? d->d_buf : NULL;

	if (!p)
		return -ENOENT;
	if (d->d_size < EH_HDR_HEAD || p[0] != 1)
		return -EBADMSG;
	if ((p[1] & 0x0f) != EH_PE_SDATA4 || p[2] != EH_PE_UDATA4 ||
	    p[3] != (EH_PE_DATAREL | EH_PE_SDATA4))
		return -EOPNOTSUPP;
	h->count = le32(p + 8);
	if (h->count > (d->d_size - EH_HDR_HEAD) / 8)
		return -EBADMSG;
	h->table = p + EH_HDR_HEAD;
	return 0;
}

/* The start of FDE i of the header's table. */
static uint64_t fde_start(const struct eh_hdr *h, uint32_t i)
{
	return h->vaddr + (uint64_t)(int64_t)(int32_t)le32(h->table + 8 * i);
}

/* The rule of one frame, as a row (its pc left to the caller). */
static struct cfi_row rule_of(Dwarf_Frame *frame)
{
	struct cfi_row r = { .cfa = CFI_CFA_OTHER, .fp = CFI_FP_OTHER };
	int ra = dwarf_frame_info(frame, NULL, NULL, NULL);
	int64_t cfa_off, ra_off, fp_off;
	int reg, fp, saved;

	if (cfi_rules_cfa(frame, &reg, &cfa_off) || cfa_off < INT32_MIN ||
	    cfa_off > INT32_MAX || (reg != DWARF_RSP && reg != DWARF_RBP))
		return r;
	saved = ra < 0 ? CFI_RULES_OTHER : cfi_rules_at_cfa(frame, ra, &ra_off);
	if (saved == CFI_RULES_UNDEFINED) {
		r.cfa = CFI_CFA_END;
		return r;
	}
	if (saved != CFI_RULES_AT_CFA || ra_off != -8)
		return r;	/* the return address elsewhere */
	r.cfa = reg == DWARF_RSP ? CFI_CFA_SP : CFI_CFA_FP;
	r.cfa_off = (int32_t)cfa_off;
	fp = cfi_rules_at_cfa(frame, DWARF_RBP, &fp_off);
	if (fp == CFI_RULES_SAME) {
		r.fp = CFI_FP_SAME;
	} else if (fp == CFI_RULES_AT_CFA && fp_off >= INT32_MIN &&
		   fp_off <= INT32_MAX) {
		r.fp = CFI_FP_AT_CFA;
		r.fp_off = (int32_t)fp_off;
	}
	return r;
}

static bool same_rule(const struct cfi_row *a, const struct cfi_row *b)
{
	return a->cfa == b->cfa && a->fp == b->fp && a->cfa_off == b->cfa_off &&
	       a->fp_off == b->fp_off;
}

/* Appends r unless it repeats the last row's rule; -E2BIG, -ENOMEM. */
static int push(struct cfi_table *t, size_t *cap, const struct cfi_row *r)
{
	struct cfi_row *p;

	if (t->nrows && same_rule(&t->rows[t->nrows - 1], r))
		return 0;
	if (t->nrows && r->pc <= t->rows[t->nrows - 1].pc)
		return -EBADMSG;	/* the header's table out of order */
	if (t->nrows == *cap) {
		if (*cap >= CFI_TABLE_ROWS_MAX)
			return -E2BIG;
		*cap = *cap ? *cap * 2 : 256;
		p = realloc(t->rows, *cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->rows = p;
	}
	t->rows[t->nrows++] = *r;
	return 0;
}

/*
 * The rows of the FDE at start, up to its end or limit (the next FDE's
 * start): where they end in *end (start when libdw has none).
 */
static int fde_rows(Dwarf_CFI *cfi, struct cfi_table *t, size_t *cap,
		    uint64_t start, uint64_t limit, uint64_t *end)
{
	uint64_t addr = start;
	Dwarf_Addr from, to;
	Dwarf_Frame *frame;
	struct cfi_row r;
	int err;

	while (addr < limit) {
		frame = NULL;
		if (dwarf_cfi_addrframe(cfi, addr, &frame))
			break;
		if (dwarf_frame_info(frame, &from, &to, NULL) < 0)
			to = addr;
		r = rule_of(frame);
		free(frame);
		r.pc = addr;
		err = push(t, cap, &r);
		if (err)
			return err;
		if (to <= addr)
			break;	/* no progress: stop here */
		addr = to < limit ? to : limit;
	}
	*end = addr;
	return 0;
}

static int build_rows(Dwarf_CFI *cfi, const struct eh_hdr *h,
		      struct cfi_table *t)
{
	const struct cfi_row none = { .cfa = CFI_CFA_NONE };
	uint64_t start, limit, end = 0;
	struct cfi_row gap;
	size_t cap = 0;
	uint32_t i;
	int err;

	for (i = 0; i < h->count; i++) {
		start = fde_start(h, i);
		limit = i + 1 < h->count ? fde_start(h, i + 1) : UINT64_MAX;
		/* The table is sorted (binary searched by every unwinder). */
		if (start < end || limit < start)
			return -EBADMSG;
		if (t->nrows && start > end) {
			gap = none;
			gap.pc = end;
			err = push(t, &cap, &gap);
			if (err)
				return err;
		}
		err = fde_rows(cfi, t, &cap, start, limit, &end);
		if (err)
			return err;
		if (end == start)
			t->fdes_unread++;
		else
			t->fdes++;
	}
	t->end = end;
	return 0;
}

int cfi_table_build(Elf *elf, struct cfi_table *t)
{
	GElf_Ehdr eh;
	struct eh_hdr h;
	Dwarf_CFI *cfi;
	int err;

	memset(t, 0, sizeof(*t));
	if (!gelf_getehdr(elf, &eh))
		return -EBADMSG;
	if (eh.e_machine != EM_X86_64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return -EOPNOTSUPP;
	err = sections_bounded(elf);
	if (!err)
		err = read_hdr(elf, &h);
	if (err)
		return err;
	cfi = dwarf_getcfi_elf(elf);
	if (!cfi)
		return -ENOENT;
	err = build_rows(cfi, &h, t);
	dwarf_cfi_end(cfi);
	if (err)
		cfi_table_free(t);
	return err;
}

const struct cfi_row *cfi_table_find(const struct cfi_table *t, uint64_t pc)
{
	size_t lo = 0, hi = t->nrows, mid;

	if (!t->nrows || pc < t->rows[0].pc || pc >= t->end)
		return NULL;
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (t->rows[mid].pc <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return &t->rows[lo];
}

void cfi_table_free(struct cfi_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
