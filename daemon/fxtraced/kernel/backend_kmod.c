// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel capture through the fxt_sched module: /dev/fxt_sched's per-CPU
 * rings (include/fxt/ring.h), mapped read-only, with a writable consumer
 * page per CPU (include/fxt/fxt_sched_uapi.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fxt/fxt_sched_uapi.h>

#include "kernel_backend.h"

struct kmod_cpu {
	const uint8_t *region;	/* ctrl page, consumer page, data */
	struct fxt_ring_consumer *consumer;
};

struct kmod_state {
	int fd;
	struct fxt_sched_info info;
	struct kmod_cpu *cpus;
	uint64_t corrupt;	/* reads that skipped a record of bad size */
};

static int kmod_probe(char *why, size_t why_len)
{
	int fd, version;

	fd = open(FXT_SCHED_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;

		if (err == -ENOENT)
			snprintf(why, why_len, "%s does not exist: load the "
				 "module (modprobe fxt_sched)", FXT_SCHED_DEVICE);
		else if (err == -EBUSY)
			snprintf(why, why_len, "%s is in use by another trace "
				 "session", FXT_SCHED_DEVICE);
		else
			snprintf(why, why_len, "cannot open %s: %s (needs "
				 "CAP_PERFMON or CAP_SYS_ADMIN)",
				 FXT_SCHED_DEVICE, strerror(-err));
		return err;
	}
	version = ioctl(fd, FXT_SCHED_IOC_VERSION);
	close(fd);
	if (version != (int)FXT_SCHED_ABI_VERSION) {
		snprintf(why, why_len, "fxt_sched speaks ABI %d, this build "
			 "needs %u: install a matching module", version,
			 FXT_SCHED_ABI_VERSION);
		return -EPROTO;
	}
	return 0;
}

static void kmod_unmap(struct kmod_state *s)
{
	unsigned int cpu;

	if (!s->cpus)
		return;
	for (cpu = 0; cpu < s->info.ncpus; cpu++) {
		if (s->cpus[cpu].region)
			munmap((void *)s->cpus[cpu].region, s->info.cpu_stride);
		if (s->cpus[cpu].consumer)
			munmap(s->cpus[cpu].consumer, s->info.page_size);
	}
	free(s->cpus);
	s->cpus = NULL;
}

static int kmod_map(struct kmod_state *s)
{
	unsigned int cpu;

	s->cpus = calloc(s->info.ncpus, sizeof(*s->cpus));
	if (!s->cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < s->info.ncpus; cpu++) {
		off_t base = (off_t)(cpu * s->info.cpu_stride);
		void *p;

		p = mmap(NULL, s->info.cpu_stride, PROT_READ, MAP_SHARED,
			 s->fd, base);
		if (p == MAP_FAILED)
			return -errno;
		s->cpus[cpu].region = p;
		p = mmap(NULL, s->info.page_size, PROT_READ | PROT_WRITE,
			 MAP_SHARED, s->fd,
			 base + (off_t)s->info.consumer_offset);
		if (p == MAP_FAILED)
			return -errno;
		s->cpus[cpu].consumer = p;
	}
	return 0;
}

static void kmod_close(void *state)
{
	struct kmod_state *s = state;

	if (!s)
		return;
	kmod_unmap(s);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

static int kmod_info(struct kmod_state *s)
{
	if (ioctl(s->fd, FXT_SCHED_IOC_INFO, &s->info) < 0)
		return -errno;
	if (s->info.abi_version != FXT_SCHED_ABI_VERSION || !s->info.ncpus)
		return -EPROTO;
	return 0;
}

static int kmod_configure(struct kmod_state *s,
			  const struct kernel_session_config *cfg)
{
	struct fxt_sched_config kc = {
		.buffer_bytes = fxt_ring_data_bytes(cfg->buffer_bytes_per_cpu,
						    FXT_SCHED_BUFFER_MIN,
						    FXT_SCHED_BUFFER_MAX,
						    FXT_SCHED_BUFFER_DEFAULT),
		.mode = cfg->mode,
		.events = cfg->events,
		.sample_hz = cfg->sample_hz,
		.offcpu_min_ns = cfg->offcpu_min_ns,
	};
	int err;

	memcpy(kc.syscall_pids, cfg->syscall_pids, sizeof(kc.syscall_pids));
	if (ioctl(s->fd, FXT_SCHED_IOC_CONFIGURE, &kc) < 0)
		return -errno;
	err = kmod_info(s);
	if (err)
		return err;
	if (ioctl(s->fd, FXT_SCHED_IOC_RESET) < 0)
		return -errno;
	return kmod_map(s);
}

static int kmod_open(const struct kernel_session_config *cfg, void **state)
{
	struct kmod_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->fd = open(FXT_SCHED_DEVICE, O_RDWR | O_CLOEXEC);
	if (s->fd < 0) {
		err = -errno;
		free(s);
		return err;
	}
	err = kmod_configure(s, cfg);
	if (err) {
		kmod_close(s);
		return err;
	}
	*state = s;
	return 0;
}

/* A session a dead manager left running: its rings as they are. */
static int kmod_adopt(const struct kernel_session_config *cfg, void **state)
{
	struct kmod_state *s;
	int err;

	if (cfg->nadopt != 1 ||
	    strcmp(cfg->adopt_fds[0].role, KERNEL_KEPT_KMOD_SESSION))
		return -EBADF;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = cfg->adopt_fds[0].fd;
	err = kmod_info(s);
	if (!err)
		err = kmod_map(s);
	if (err) {
		s->fd = -1;	/* the caller's still */
		kmod_close(s);
		return err;
	}
	*state = s;
	return 0;
}

static size_t kmod_keep_fds(void *state, struct kernel_kept_fd *out,
			    size_t max)
{
	if (!max)
		return 0;
	out[0] = (struct kernel_kept_fd){
		.fd = ((struct kmod_state *)state)->fd,
		.role = KERNEL_KEPT_KMOD_SESSION,
	};
	return 1;
}

static int kmod_ioctl(void *state, unsigned long cmd)
{
	struct kmod_state *s = state;

	return ioctl(s->fd, cmd) < 0 ? -errno : 0;
}

static int kmod_start(void *state)
{
	return kmod_ioctl(state, FXT_SCHED_IOC_START);
}

static int kmod_stop(void *state)
{
	return kmod_ioctl(state, FXT_SCHED_IOC_STOP);
}

static int kmod_event_fd(void *state)
{
	return ((struct kmod_state *)state)->fd;
}

static unsigned int kmod_ncpus(void *state)
{
	return ((struct kmod_state *)state)->info.ncpus;
}

static int kmod_arm_latency(void *state, uint64_t threshold_ns)
{
	struct kmod_state *s = state;
	__u64 ns = threshold_ns;

	return ioctl(s->fd, FXT_SCHED_IOC_LATENCY, &ns) < 0 ? -errno : 0;
}

static int kmod_ring(void *state, unsigned int cpu, struct fxt_ring_reader *r)
{
	struct kmod_state *s = state;

	if (cpu >= s->info.ncpus)
		return -EINVAL;
	*r = (struct fxt_ring_reader){
		.ctrl = (const void *)(s->cpus[cpu].region +
				       s->info.ctrl_offset),
		.consumer = s->cpus[cpu].consumer,
		.data = s->cpus[cpu].region + s->info.data_offset,
		.mask = s->info.buffer_bytes - 1,
	};
	return 0;
}

static ssize_t kmod_read_cpu(void *state, unsigned int cpu, void *buf,
			     size_t cap)
{
	struct kmod_state *s = state;

	return kernel_backend_read_ring(s, cpu, buf, cap, kmod_ring,
					&s->corrupt);
}

static void kmod_stats(void *state, struct kernel_session_stats *st)
{
	struct kmod_state *s = state;
	struct fxt_sched_stats ks;
	unsigned int cpu;

	memset(st, 0, sizeof(*st));
	st->ncpus = s->info.ncpus;
	st->dropped = s->corrupt;
	st->missing = s->info.missing;
	for (cpu = 0; cpu < s->info.ncpus; cpu++)
		kernel_session_add_event_counts(
			st, (const void *)(s->cpus[cpu].region +
					   s->info.ctrl_offset));
	if (ioctl(s->fd, FXT_SCHED_IOC_STATS, &ks) < 0)
		return;
	st->records = ks.records;
	st->bytes = ks.bytes;
	st->dropped += ks.dropped + ks.overwritten;
}

const struct kernel_backend_ops kernel_backend_kmod = {
	.name = "kmod",
	.probe = kmod_probe,
	.open = kmod_open,
	.adopt = kmod_adopt,
	.keep_fds = kmod_keep_fds,
	.start = kmod_start,
	.stop = kmod_stop,
	.event_fd = kmod_event_fd,
	.ncpus = kmod_ncpus,
	.read_cpu = kmod_read_cpu,
	.ring = kmod_ring,
	.arm_latency = kmod_arm_latency,
	.stats = kmod_stats,
	.close = kmod_close,
};
