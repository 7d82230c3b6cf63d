// SPDX-License-Identifier: GPL-2.0-only
/* Memory files for the fuzz targets: see memfile.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK_ABORTS
#include "check.h"
#include "memfile.h"


void memfile_open(struct memfile *m, const char *name)
{
	m->fd = memfd_create(name, 0);
	m->text = NULL;
	m->cap = 0;
	CHECK(m->fd >= 0, "memfd_create");
}

void memfile_rewind(struct memfile *m)
{
	CHECK(ftruncate(m->fd, 0) == 0 && lseek(m->fd, 0, SEEK_SET) == 0,
	     "rewinding a memory file");
}

size_t memfile_read(struct memfile *m)
{
	off_t size = lseek(m->fd, 0, SEEK_END);

	CHECK(size >= 0, "lseek on a memory file");
	if ((size_t)size + 1 > m->cap) {
		free(m->text);
		m->cap = (size_t)size + 1;
		m->text = malloc(m->cap);
		CHECK(m->text != NULL, "allocation");
	}
	CHECK(pread(m->fd, m->text, (size_t)size, 0) == size,
	     "reading a memory file back");
	m->text[size] = 0;
	return (size_t)size;
}
