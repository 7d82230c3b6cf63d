// SPDX-License-Identifier: GPL-2.0-only
/*
 * cfi-dump FILE: the unwinding rows cfi_table.h compiles of FILE, a line
 * each ("PC CFA FP", CFA as rsp+N, rbp+N, none or other, FP as u, c+N or
 * other), then "end PC" and "fdes N unread N": what check_cfi_table.py
 * compares with readelf's own reading of the same .eh_frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <libelf.h>

#include "cfi_table.h"

static void print_row(const struct cfi_row *r)
{
	static const char *const base[] = { "none", "rsp", "rbp", "other",
					    "end" };

	printf("%016" PRIx64 " ", r->pc);
	if (r->cfa == CFI_CFA_SP || r->cfa == CFI_CFA_FP)
		printf("%s%+" PRId32, base[r->cfa], r->cfa_off);
	else
		printf("%s", r->cfa <= CFI_CFA_END ? base[r->cfa] : "?");
	if (r->fp == CFI_FP_SAME)
		printf(" u\n");
	else if (r->fp == CFI_FP_AT_CFA)
		printf(" c%+" PRId32 "\n", r->fp_off);
	else
		printf(" other\n");
}

int main(int argc, char **argv)
{
	struct cfi_table t;
	Elf *elf;
	size_t i;
	int fd, err;

	if (argc != 2) {
		fprintf(stderr, "usage: cfi-dump FILE\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		fprintf(stderr, "cfi-dump: %s: cannot read\n", argv[1]);
		return 1;
	}
	err = cfi_table_build(elf, &t);
	if (err) {
		fprintf(stderr, "cfi-dump: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	for (i = 0; i < t.nrows; i++)
		print_row(&t.rows[i]);
	printf("end %016" PRIx64 "\nfdes %" PRIu64 " unread %" PRIu64 "\n",
	       t.end, t.fdes, t.fdes_unread);
	cfi_table_free(&t);
	elf_end(elf);
	close(fd);
	return 0;
}
