/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a kernel capture backend (kmod, bpf) provides to kernel_session.c.
 * A backend hands out per-CPU streams of whole FXT records in the layout
 * of include/fxt/sched.h; the session merges them and writes the section.
 */
#ifndef FXT_KERNEL_BACKEND_H
#define FXT_KERNEL_BACKEND_H

#include <stdint.h>
#include <sys/types.h>

#include <fxt/ring.h>

#include "kernel_session.h"

struct kernel_backend_ops {
	const char *name;
	/* 0 if it can run here; else -errno and a one-line reason in why. */
	int (*probe)(char *why, size_t why_len);
	int (*open)(const struct kernel_session_config *cfg, void **state);
	/*
	 * Takes cfg->adopt_fds back, capturing (their roles are this
	 * backend's); on failure they stay the caller's. NULL: cannot.
	 */
	int (*adopt)(const struct kernel_session_config *cfg, void **state);
	/* kernel_session_keep_fds(); NULL: nothing outlives us. */
	size_t (*keep_fds)(void *state, struct kernel_kept_fd *out,
			   size_t max);
	int (*start)(void *state);
	int (*stop)(void *state);
	int (*event_fd)(void *state);
	unsigned int (*ncpus)(void *state);
	/*
	 * Moves whole records of one CPU, oldest first, into buf (at most
	 * cap bytes) and releases them from the kernel buffer. Returns the
	 * bytes copied, 0 when empty, or -errno.
	 */
	ssize_t (*read_cpu)(void *state, unsigned int cpu, void *buf,
			    size_t cap);
	/*
	 * Circular, while capture runs: the ring of one CPU, for
	 * fxt_ring_peek() (snapshots read it without releasing anything).
	 */
	int (*ring)(void *state, unsigned int cpu, struct fxt_ring_reader *r);
	/*
	 * While capture runs: a thread that waited longer than threshold_ns
	 * (0: off) from its wakeup for a CPU gets a sched_latency record
	 * and counts in its CPU's ctrl->latency_exceeded. NULL: cannot.
	 */
	int (*arm_latency)(void *state, uint64_t threshold_ns);
	void (*stats)(void *state, struct kernel_session_stats *st);
	void (*close)(void *state);
};

/*
 * read_cpu() of a backend that hands out its rings by ring(): whole
 * records, released; those of bad size it skipped add to *corrupt.
 */
static inline ssize_t kernel_backend_read_ring(
	void *state, unsigned int cpu, void *buf, size_t cap,
	int (*ring)(void *state, unsigned int cpu, struct fxt_ring_reader *r),
	uint64_t *corrupt)
{
	struct fxt_ring_reader r;
	size_t len;
	int err = ring(state, cpu, &r);

	if (err)
		return err;
	len = fxt_ring_read(&r, buf, cap, 1);
	*corrupt += r.corrupt;
	return len;
}

extern const struct kernel_backend_ops kernel_backend_kmod;
extern const struct kernel_backend_ops kernel_backend_bpf;

#endif /* FXT_KERNEL_BACKEND_H */
