/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The load bias of a file mapping, for tests that read another process
 * by the addresses of its ELF files: the mapping at start of file offset
 * off lies in the PT_LOAD that holds off, so a file address is the
 * process's minus start - (off - p_offset + p_vaddr).
 */
#ifndef FXT_TESTS_ELF_BIAS_H
#define FXT_TESTS_ELF_BIAS_H

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <unistd.h>

/* 0 and *bias, or -errno. */
static inline int elf_bias_of(Elf *elf, uint64_t start, uint64_t off,
			      uint64_t *bias)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -EBADMSG;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    off < ph.p_offset || off >= ph.p_offset + ph.p_filesz)
			continue;
		*bias = start - (off - ph.p_offset + ph.p_vaddr);
		return 0;
	}
	return -ENOENT;
}

/* The same for the file at path. */
static inline int elf_bias_of_path(const char *path, uint64_t start,
				   uint64_t off, uint64_t *bias)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = elf ? elf_bias_of(elf, start, off, bias) : -EBADMSG;
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

#endif /* FXT_TESTS_ELF_BIAS_H */
