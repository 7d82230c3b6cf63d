// SPDX-License-Identifier: GPL-2.0-only
/* Memory files for the fuzz targets: see memfile.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "memfile.h"

static void need(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz: %s failed\n", what);
		abort();
	}
}

void memfile_open(struct memfile *m, const char *name)
{
	m->fd = memfd_create(name, 0);
	m->text = NULL;
	m->cap = 0;
	need(m->fd >= 0, "memfd_create");
}

void memfile_rewind(struct memfile *m)
{
	need(ftruncate(m->fd, 0) == 0 && lseek(m->fd, 0, SEEK_SET) == 0,
	     "rewinding a memory file");
}

size_t memfile_read(struct memfile *m)
{
	off_t size = lseek(m->fd, 0, SEEK_END);

	need(size >= 0, "lseek on a memory file");
	if ((size_t)size + 1 > m->cap) {
		free(m->text);
		m->cap = (size_t)size + 1;
		m->text = malloc(m->cap);
		need(m->text != NULL, "allocation");
	}
	need(pread(m->fd, m->text, (size_t)size, 0) == size,
	     "reading a memory file back");
	m->text[size] = 0;
	return (size_t)size;
}
