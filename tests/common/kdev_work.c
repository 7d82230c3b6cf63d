// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/loop.h>

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

int kdev_fault_rounds(long pages)
{
	const long chunk = 256, page = sysconf(_SC_PAGESIZE);
	uintptr_t base;
	long done, n;
	int err;

	for (done = 0; done < pages; done += chunk) {
		n = pages - done < chunk ? pages - done : chunk;
		err = kdev_touch_pages((size_t)n, &base);
		if (err)
			return err;
		munmap((void *)base, (size_t)(n * page));
	}
	return 0;
}

#define KDEV_LOOP_BYTES (16u << 20)

static int direct_io(const char *path, unsigned int count, size_t bytes,
		     bool writing)
{
	void *buf = NULL;
	unsigned int i;
	ssize_t n;
	off_t at;
	int fd, err = 0;

	if (posix_memalign(&buf, 4096, bytes))
		return -ENOMEM;
	memset(buf, 0x5a, bytes);
	fd = open(path, (writing ? O_WRONLY : O_RDONLY) | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	for (i = 0; i < count && !err; i++) {
		/* Writes from 0 on; reads cycle within the loop's size. */
		at = (off_t)(writing ? i * bytes :
				       i * bytes % (KDEV_LOOP_BYTES - bytes));
		n = writing ? pwrite(fd, buf, bytes, at) :
			      pread(fd, buf, bytes, at);
		if (n < 0)
			err = -errno;
		else if (n != (ssize_t)bytes)
			err = -EIO;
	}
	if (!err && writing && fdatasync(fd))
		err = -errno;
	close(fd);
out:
	free(buf);
	return err;
}

int kdev_direct_writes(const char *path, unsigned int count, size_t bytes)
{
	return direct_io(path, count, bytes, true);
}

int kdev_direct_reads(const char *path, unsigned int count, size_t bytes)
{
	return direct_io(path, count, bytes, false);
}

int kdev_loop_attach(const char *image, char *dev, size_t dev_len,
		     unsigned int *minor)
{
	int ctl, n, fd, file, err = 0;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	close(ctl);
	if (n < 0)
		return -errno;
	file = open(image, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (file < 0)
		return -errno;
	if (ftruncate(file, KDEV_LOOP_BYTES)) {
		err = -errno;
		close(file);
		return err;
	}
	snprintf(dev, dev_len, "/dev/loop%d", n);
	fd = open(dev, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, LOOP_SET_FD, file))
		err = -errno;
	close(file);
	if (fd >= 0)
		close(fd);
	*minor = (unsigned int)n;
	return err;
}

void kdev_loop_detach(const char *dev)
{
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		(void)ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
	}
}

int kdev_naps(unsigned int count)
{
	const struct timespec nap = { .tv_nsec = 50000 };
	cpu_set_t cpu0;
	unsigned int i;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		return -errno;
	for (i = 0; i < count; i++)
		if (nanosleep(&nap, NULL))
			return -errno;
	return 0;
}
