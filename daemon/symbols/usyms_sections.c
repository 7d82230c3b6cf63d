// SPDX-License-Identifier: GPL-2.0-only
/*
 * usyms_dwarf_size(): what a DWARF section holds once libdw has read it.
 * libdw inflates a compressed section (SHF_COMPRESSED, or GNU's
 * .zdebug_) whole, into a buffer of the size its header claims: a
 * hostile file's few bytes on disk can claim terabytes, so the claim,
 * not the size on disk, is what the bounds are checked against.
 */
#include <gelf.h>
#include <stdbool.h>
#include <string.h>

#include "usyms_internal.h"

/* The big-endian size after "ZLIB" heading a GNU .zdebug_ section. */
static uint64_t zdebug_size(const unsigned char *h)
{
	uint64_t size = 0;
	int i;

	if (memcmp(h, "ZLIB", 4))
		return UINT64_MAX;
	for (i = 4; i < 12; i++)
		size = size << 8 | h[i];
	return size;
}

static bool native_order(Elf *elf)
{
	const char *ident = elf_getident(elf, NULL);
	const unsigned char native = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
					     ELFDATA2LSB :
					     ELFDATA2MSB;

	return ident && (unsigned char)ident[EI_DATA] == native;
}

uint64_t usyms_dwarf_size(Elf *elf, const GElf_Shdr *sh, const char *name)
{
	Elf_Data *d;
	bool gnu = name && !strncmp(name, ".zdebug_", 8);

	if (!(sh->sh_flags & SHF_COMPRESSED) && !gnu)
		return sh->sh_size;
	/* The header in the file's byte order: only ours is read here. */
	if (!native_order(elf))
		return UINT64_MAX;
	/* Only the header is read: the data stays on disk. */
	if (sh->sh_size < 24)
		return UINT64_MAX;
	d = elf_getdata_rawchunk(elf, (int64_t)sh->sh_offset, 24, ELF_T_BYTE);
	if (!d || !d->d_buf || d->d_size < 24)
		return UINT64_MAX;
	if (gnu)
		return zdebug_size(d->d_buf);
	if (gelf_getclass(elf) == ELFCLASS32) {
		const Elf32_Chdr *c = d->d_buf;

		return c->ch_size;
	}
	return ((const Elf64_Chdr *)d->d_buf)->ch_size;
}
