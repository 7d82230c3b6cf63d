// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kdev_work.h"

int kdev_touch_pages(size_t pages, uintptr_t *base)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;
	size_t i;

	p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* One fault per page: no transparent huge page for the range. */
	(void)madvise((void *)p, pages * page, MADV_NOHUGEPAGE);
	for (i = 0; i < pages; i++)
		p[i * page] = 1;
	*base = (uintptr_t)p;
	return 0;
}

int kdev_direct_writes(const char *path, unsigned int count, size_t bytes)
{
	void *buf = NULL;
	unsigned int i;
	int fd, err = 0;

	if (posix_memalign(&buf, 4096, bytes))
		return -ENOMEM;
	memset(buf, 0x5a, bytes);
	fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < count && !err; i++)
		if (pwrite(fd, buf, bytes, (off_t)i * bytes) != (ssize_t)bytes)
			err = errno ? -errno : -EIO;
	if (!err && fdatasync(fd))
		err = -errno;
	close(fd);
out:
	free(buf);
	return err;
}
