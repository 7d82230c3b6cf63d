// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kring.h"

int kring_open(struct kring *k)
{
	memset(k, 0, sizeof(*k));
	k->fd = open(FXT_SCHED_DEVICE, O_RDWR | O_CLOEXEC);
	if (k->fd < 0)
		return -errno;
	if (ioctl(k->fd, FXT_SCHED_IOC_INFO, &k->info) < 0) {
		int err = -errno;

		close(k->fd);
		k->fd = -1;
		return err;
	}
	return 0;
}

int kring_ioctl(struct kring *k, unsigned long cmd)
{
	return ioctl(k->fd, cmd) < 0 ? -errno : 0;
}

int kring_configure(struct kring *k, uint64_t bytes, uint32_t mode,
		    uint32_t events, uint64_t watermark)
{
	struct fxt_sched_config cfg = {
		.buffer_bytes = bytes,
		.mode = mode,
		.events = events,
		.watermark = watermark,
	};

	if (ioctl(k->fd, FXT_SCHED_IOC_CONFIGURE, &cfg) < 0)
		return -errno;
	return ioctl(k->fd, FXT_SCHED_IOC_INFO, &k->info) < 0 ? -errno : 0;
}

int kring_stats(struct kring *k, struct fxt_sched_stats *st)
{
	return ioctl(k->fd, FXT_SCHED_IOC_STATS, st) < 0 ? -errno : 0;
}

int kring_map(struct kring *k)
{
	const struct fxt_sched_info *in = &k->info;
	unsigned int cpu;

	k->cpus = calloc(in->ncpus, sizeof(*k->cpus));
	if (!k->cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < in->ncpus; cpu++) {
		struct kring_cpu *c = &k->cpus[cpu];
		off_t base = (off_t)(cpu * in->cpu_stride);
		void *p;

		p = mmap(NULL, in->cpu_stride, PROT_READ, MAP_SHARED, k->fd,
			 base);
		if (p == MAP_FAILED)
			goto fail;
		c->region = p;
		p = mmap(NULL, in->page_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, k->fd, base + (off_t)in->consumer_offset);
		if (p == MAP_FAILED)
			goto fail;
		c->consumer = p;
	}
	return 0;
fail:
	{
		int err = -errno;

		kring_unmap(k);
		return err;
	}
}

void kring_unmap(struct kring *k)
{
	unsigned int cpu;

	if (!k->cpus)
		return;
	for (cpu = 0; cpu < k->info.ncpus; cpu++) {
		if (k->cpus[cpu].region)
			munmap(k->cpus[cpu].region, k->info.cpu_stride);
		if (k->cpus[cpu].consumer)
			munmap(k->cpus[cpu].consumer, k->info.page_size);
	}
	free(k->cpus);
	k->cpus = NULL;
}

void kring_close(struct kring *k)
{
	kring_unmap(k);
	if (k->fd >= 0)
		close(k->fd);
	k->fd = -1;
}

const struct fxt_ring_ctrl *kring_ctrl(const struct kring *k, unsigned int cpu)
{
	return (const void *)(k->cpus[cpu].region + k->info.ctrl_offset);
}

size_t kring_read(struct kring *k, unsigned int cpu, uint64_t *buf,
		  size_t cap, bool consume)
{
	struct fxt_ring_reader r = {
		.ctrl = kring_ctrl(k, cpu),
		.consumer = k->cpus[cpu].consumer,
		.data = k->cpus[cpu].region + k->info.data_offset,
		.mask = k->info.buffer_bytes - 1,
	};
	size_t len = fxt_ring_read(&r, buf, cap, consume);

	k->corrupt += r.corrupt;
	return len;
}
