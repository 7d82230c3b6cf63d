/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:sample's clock for the BPF backend: a cpu-clock perf event on
 * every online CPU, each attached to the sampling program (libbpf does
 * not attach perf_event programs by itself).
 */
#ifndef FXT_BPF_SAMPLER_H
#define FXT_BPF_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

struct bpf_program;
struct bpf_sampler;

/* The event's period for hz samples per second (at least 1). */
uint64_t bpf_sampler_period_ns(uint32_t hz);
/*
 * Opens the events of CPUs 0..ncpus-1 that are online and attaches prog
 * to each: -errno when none could be.
 */
int bpf_sampler_attach(struct bpf_program *prog, unsigned int ncpus,
		       uint32_t hz, struct bpf_sampler **ret);
/* The links' descriptors (they keep the events), at most max; how many. */
size_t bpf_sampler_link_fds(const struct bpf_sampler *s, int *fds,
			    size_t max);
/* Stops sampling: links and events closed. NULL is fine. */
void bpf_sampler_detach(struct bpf_sampler *s);

#endif /* FXT_BPF_SAMPLER_H */
