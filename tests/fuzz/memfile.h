/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory files for the fuzz targets' outputs: emptied before each run,
 * read back whole afterwards. Failures abort (a broken harness, not a
 * finding).
 */
#ifndef FXT_FUZZ_MEMFILE_H
#define FXT_FUZZ_MEMFILE_H

#include <stddef.h>

struct memfile {
	int fd;
	char *text;		/* the content read back, NUL-terminated */
	size_t cap;
};

void memfile_open(struct memfile *m, const char *name);
/* Empty, and writing from the start again. */
void memfile_rewind(struct memfile *m);
/* Reads the whole content into m->text; returns its length. */
size_t memfile_read(struct memfile *m);

#endif /* FXT_FUZZ_MEMFILE_H */
