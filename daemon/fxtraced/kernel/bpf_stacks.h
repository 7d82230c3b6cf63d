/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:sample and kernel:offcpu for the BPF backend: the stack walkers
 * of fxt_stacks.bpf.c, an object of their own. It is loaded after the
 * scheduling programs, into their ring maps (fxt_ring.bpf.h), so that a
 * kernel whose verifier refuses a walker loses the stacks alone: the
 * backend says which events were refused and goes on without them.
 * The sampling clock is bpf_sampler.h's, attached here; the walkers'
 * unwinding tables are bpf_unwind.h's, written while they are loaded.
 */
#ifndef FXT_BPF_STACKS_H
#define FXT_BPF_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_session.h"

struct bpf_stacks;
struct unwind_cache;
struct py_procs;

struct bpf_stacks_config {
	uint32_t events;	/* FXT_SCHED_EV_SAMPLE, _OFFCPU, or both */
	uint64_t ring_bytes;	/* as the scheduling programs' */
	uint32_t ring_mode;
	uint64_t offcpu_min_ns;
	uint32_t sample_hz;
	int ring_fd;		/* the scheduling object's fxt_ring */
	int nested_fd;		/* and its fxt_nested */
	/* A test of a refused walker: the programs then fail the verifier. */
	bool refuse_for_test;
	/* A benchmark of frame pointers alone: no unwinding tables. */
	bool no_unwind_tables;
	/* Files' rows kept from trace to trace (NULL: none). */
	struct unwind_cache *unwind_cache;
	/* The CPython processes found, for their frames' names (NULL). */
	struct py_procs *py_procs;
	/* A benchmark's baseline: no CPython process given frames. */
	bool no_python_frames;
};

/*
 * Opens and loads the walkers of cfg->events: 0, or -errno with nothing
 * kept (libbpf has said why on stderr: the verifier's log).
 */
int bpf_stacks_load(const struct bpf_stacks_config *cfg,
		    struct bpf_stacks **ret);
/* Attaches the off-CPU program and the sampler on CPUs 0..ncpus-1. */
int bpf_stacks_attach(struct bpf_stacks *s, unsigned int ncpus);
/* Detaches both; loaded still. NULL is fine. */
void bpf_stacks_detach(struct bpf_stacks *s);
/* The loaded programs' descriptors, at most max: how many. */
size_t bpf_stacks_prog_fds(const struct bpf_stacks *s, int *fds, size_t max);
/* The links' (the off-CPU program's, the sampler's), at most max. */
size_t bpf_stacks_link_fds(const struct bpf_stacks *s, int *fds, size_t max);
/* The unwinding tables' counters into *st (left as is without). */
void bpf_stacks_unwind_stats(struct bpf_stacks *s,
			     struct kernel_unwind_stats *st);
/* Detached and closed. NULL is fine. */
void bpf_stacks_free(struct bpf_stacks *s);

#endif /* FXT_BPF_STACKS_H */
