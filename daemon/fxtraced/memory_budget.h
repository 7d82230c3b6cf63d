/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's memory budget (tracectl start --memory-budget BYTES): the
 * buffer data bytes of every provider buffer and of the kernel rings of
 * all CPUs together. The sizes the request leaves open come from it: the
 * kernel rings take at most half (per CPU the largest power of two that
 * fits), each provider buffer at most an eighth of what the kernel
 * leaves, so that eight providers fit. A provider whose buffer would go
 * over it gets none (it stays connected): a smaller buffer would keep
 * less of the past than the trace promises its other providers, and the
 * size of a buffer is the trace's, kept for a restart. In circular mode
 * the buffers of providers gone are given up first (trace_budget.c).
 */
#ifndef FXT_MEMORY_BUDGET_H
#define FXT_MEMORY_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Providers that fit in the budget when their buffer size is derived. */
#define MEMORY_BUDGET_PROVIDERS 8u

struct memory_plan {
	uint64_t kernel_bytes_per_cpu;	/* 0: the backend's default (no budget) */
	uint64_t buffer_size;		/* per provider */
};

/*
 * Sizes for a trace of budget bytes (0: none, the sizes as asked) over
 * ncpus CPUs. buffer_size, kernel_per_cpu: as asked (0: not given);
 * default_buffer: the manager's; kernel_min/max: a ring's bounds (powers
 * of two); kernel: whether a kernel capture is asked for. 0, or -EINVAL
 * with the reason in note.
 */
int memory_budget_plan(uint64_t budget, unsigned int ncpus, bool kernel,
		       uint64_t buffer_size, uint64_t kernel_per_cpu,
		       uint64_t default_buffer, uint64_t kernel_min,
		       uint64_t kernel_max, uint64_t buffer_min,
		       struct memory_plan *plan, char *note, size_t note_len);

/*
 * Whether one more buffer of buffer_size fits beside used bytes; a
 * budget of 0 always fits.
 */
bool memory_budget_fits(uint64_t budget, uint64_t used, uint64_t buffer_size);

#endif /* FXT_MEMORY_BUDGET_H */
