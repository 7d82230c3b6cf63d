// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
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

/* The wakeup-latency workload's threads, all pinned to one CPU. */
struct wake_latency {
	int cpu;
	unsigned int rounds, hog_ms;
	int wake[2], hog[2], done[2];	/* pipes */
	volatile int wakee_tid;
	struct timespec woken;		/* when the waker woke the wakee */
	uint64_t max_wait_us;		/* as the wakee saw it */
};

static uint64_t ts_us(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000 + (uint64_t)t->tv_nsec / 1000;
}

static int pin_fifo(int cpu, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	cpu_set_t set;
	int r;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	r = prio ? pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) : 0;
	return -r;
}

static void *wakee_main(void *arg)
{
	struct wake_latency *w = arg;
	struct timespec now;
	uint64_t wait;
	char c;

	if (pin_fifo(w->cpu, 0))
		return NULL;
	w->wakee_tid = gettid();
	while (read(w->wake[0], &c, 1) == 1 && c != 'q') {
		clock_gettime(CLOCK_MONOTONIC, &now);
		wait = ts_us(&now) - ts_us(&w->woken);
		if (wait > w->max_wait_us)
			w->max_wait_us = wait;
		if (write(w->done[1], "d", 1) != 1)
			break;
	}
	return NULL;
}

static void *hog_main(void *arg)
{
	struct wake_latency *w = arg;
	struct timespec start, now;
	char c;

	if (pin_fifo(w->cpu, 20))
		return NULL;
	while (read(w->hog[0], &c, 1) == 1 && c != 'q') {
		clock_gettime(CLOCK_MONOTONIC, &start);
		do
			clock_gettime(CLOCK_MONOTONIC, &now);
		while (ts_us(&now) - ts_us(&start) < w->hog_ms * 1000ull);
	}
	return NULL;
}

/* The waker: SCHED_FIFO below the hog, so the wakee cannot preempt it. */
static void *waker_main(void *arg)
{
	const struct timespec pause = { .tv_nsec = 50000000 };
	struct wake_latency *w = arg;
	unsigned int i;
	char c;
	int r;

	r = pin_fifo(w->cpu, 10);
	for (i = 0; !r && i < w->rounds; i++) {
		clock_gettime(CLOCK_MONOTONIC, &w->woken);
		if (write(w->wake[1], "w", 1) != 1 ||
		    (w->hog_ms && write(w->hog[1], "h", 1) != 1) ||
		    read(w->done[0], &c, 1) != 1)
			r = -EIO;
		nanosleep(&pause, NULL);
	}
	(void)!write(w->wake[1], "q", 1);
	(void)!write(w->hog[1], "q", 1);
	return (void *)(intptr_t)r;
}

int kdev_wakeup_latency(unsigned int rounds, unsigned int hog_ms,
			int *wakee_tid, uint64_t *max_wait_us)
{
	struct wake_latency w = { .rounds = rounds, .hog_ms = hog_ms };
	pthread_t wakee, hog, waker;
	void *ret = NULL;
	int r = 0;

	w.cpu = sched_getcpu();
	if (w.cpu < 0 || pipe(w.wake) || pipe(w.hog) || pipe(w.done))
		return -errno;
	if (pthread_create(&wakee, NULL, wakee_main, &w))
		return -EAGAIN;
	if (pthread_create(&hog, NULL, hog_main, &w)) {
		(void)!write(w.wake[1], "q", 1);
		pthread_join(wakee, NULL);
		return -EAGAIN;
	}
	while (!w.wakee_tid)
		usleep(1000);
	if (pthread_create(&waker, NULL, waker_main, &w)) {
		(void)!write(w.wake[1], "q", 1);
		(void)!write(w.hog[1], "q", 1);
		r = -EAGAIN;
	} else {
		pthread_join(waker, &ret);
		r = (int)(intptr_t)ret;
	}
	pthread_join(wakee, NULL);
	pthread_join(hog, NULL);
	close(w.wake[0]);
	close(w.wake[1]);
	close(w.hog[0]);
	close(w.hog[1]);
	close(w.done[0]);
	close(w.done[1]);
	*wakee_tid = w.wakee_tid;
	*max_wait_us = w.max_wait_us;
	return r;
}

struct renamed {
	const char *name;
	int go[2]; /* a pipe: the thread blocks on it */
	int tid;
	int err;
};

/* Pins the calling thread to cpu; a CPU it may not use leaves it put. */
static void try_pin(long cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set);
}

static void *renamed_main(void *arg)
{
	const struct timespec nap = { .tv_nsec = 1000000 };
	struct renamed *r = arg;
	char c;

	try_pin(0);
	r->tid = gettid();
	if (read(r->go[0], &c, 1) != 1) {
		r->err = -EIO;
		return NULL;
	}
	r->err = -pthread_setname_np(pthread_self(), r->name);
	if (!r->err && nanosleep(&nap, NULL))
		r->err = -errno;
	return NULL;
}

int kdev_rename_thread(const char *name, int *tid)
{
	struct renamed r = { .name = name };
	pthread_t t;
	int err;

	if (pipe(r.go))
		return -errno;
	/*
	 * The first name is written on the creator's CPU, the last; the new
	 * one on CPU 0, drained first: the order a merge that put each CPU's
	 * names out as it came to them got wrong.
	 */
	try_pin(sysconf(_SC_NPROCESSORS_ONLN) - 1);
	err = -pthread_create(&t, NULL, renamed_main, &r);
	if (!err) {
		err = write(r.go[1], "x", 1) == 1 ? 0 : -errno;
		pthread_join(t, NULL);
	}
	close(r.go[0]);
	close(r.go[1]);
	*tid = r.tid;
	return err ? err : r.err;
}

static void *napper_main(void *arg)
{
	const struct timespec nap = { .tv_nsec = 50000 };
	atomic_bool *stop = arg;

	while (!atomic_load(stop))
		nanosleep(&nap, NULL);
	return NULL;
}

int kdev_nested_wakeups(unsigned int syscalls)
{
	atomic_bool stop = false;
	unsigned int i;
	cpu_set_t cpu0;
	pthread_t t;
	int err;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0))
		return -errno;
	/* The thread inherits the affinity. */
	err = -pthread_create(&t, NULL, napper_main, &stop);
	if (err)
		return err;
	for (i = 0; i < syscalls; i++)
		syscall(SYS_getppid);
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	return 0;
}
