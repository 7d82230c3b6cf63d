/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test-side access to /dev/fxt_sched: configure, map every CPU's ring,
 * copy whole records out. Plain syscalls so it links statically.
 */
#ifndef KRING_H
#define KRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/fxt_sched_uapi.h>

struct kring_cpu {
	uint8_t *region;		/* ctrl, consumer, data: read-only */
	struct fxt_ring_consumer *consumer;	/* writable mapping */
};

struct kring {
	int fd;
	struct fxt_sched_info info;
	struct kring_cpu *cpus;		/* NULL until mapped */
	uint64_t corrupt;		/* reads that met a bad record size */
};

/* Each returns 0 or -errno. */
int kring_open(struct kring *k);
int kring_configure(struct kring *k, uint64_t bytes, uint32_t mode,
		    uint32_t events, uint64_t watermark);
int kring_map(struct kring *k);
void kring_unmap(struct kring *k);
void kring_close(struct kring *k);
int kring_ioctl(struct kring *k, unsigned long cmd);
int kring_stats(struct kring *k, struct fxt_sched_stats *st);

const struct fxt_ring_ctrl *kring_ctrl(const struct kring *k, unsigned int cpu);
/*
 * Copies whole records of cpu, oldest first, into buf (cap bytes); with
 * consume, releases them to the writer. Returns the bytes copied
 * (fxt_ring_read() of include/fxt/ring.h).
 */
size_t kring_read(struct kring *k, unsigned int cpu, uint64_t *buf,
		  size_t cap, bool consume);

#endif /* KRING_H */
