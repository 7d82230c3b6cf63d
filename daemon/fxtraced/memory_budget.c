// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arithmetic of a trace's memory budget (memory_budget.h): no state,
 * no system call, so that its unit test gives every case.
 */
#include <errno.h>
#include <stdio.h>

#include "memory_budget.h"

#define BUFFER_ALIGN 4096ull

static uint64_t floor_pow2(uint64_t v)
{
	uint64_t p = 1;

	if (!v)
		return 0;
	while (p <= v / 2)
		p <<= 1;
	return p;
}

static int plan_kernel(uint64_t budget, unsigned int ncpus,
		       uint64_t kernel_per_cpu, uint64_t kernel_min,
		       uint64_t kernel_max, uint64_t *per_cpu, char *note,
		       size_t note_len)
{
	uint64_t per;

	if (kernel_per_cpu) {
		if (kernel_per_cpu * ncpus >= budget) {
			snprintf(note, note_len,
				 "--kernel-buffer-size %llu x %u CPUs leaves nothing of the memory budget of %llu bytes to the providers",
				 (unsigned long long)kernel_per_cpu, ncpus,
				 (unsigned long long)budget);
			return -EINVAL;
		}
		*per_cpu = kernel_per_cpu;
		return 0;
	}
	per = floor_pow2(budget / 2 / ncpus);
	if (per > kernel_max)
		per = kernel_max;
	if (per < kernel_min) {
		snprintf(note, note_len,
			 "the memory budget of %llu bytes cannot hold the kernel rings of %u CPUs (%llu bytes each at least) in its half: give at least %llu bytes, or --kernel=off",
			 (unsigned long long)budget, ncpus,
			 (unsigned long long)kernel_min,
			 (unsigned long long)(2 * kernel_min * ncpus));
		return -EINVAL;
	}
	*per_cpu = per;
	return 0;
}

int memory_budget_plan(uint64_t budget, unsigned int ncpus, bool kernel,
		       uint64_t buffer_size, uint64_t kernel_per_cpu,
		       uint64_t default_buffer, uint64_t kernel_min,
		       uint64_t kernel_max, uint64_t buffer_min,
		       struct memory_plan *plan, char *note, size_t note_len)
{
	uint64_t per_cpu = 0, providers;
	int r;

	*plan = (struct memory_plan){
		.kernel_bytes_per_cpu = kernel_per_cpu,
		.buffer_size = buffer_size ? buffer_size : default_buffer,
	};
	if (!budget)
		return 0;
	if (!ncpus)
		ncpus = 1;
	if (kernel) {
		r = plan_kernel(budget, ncpus, kernel_per_cpu, kernel_min,
				kernel_max, &per_cpu, note, note_len);
		if (r < 0)
			return r;
	}
	providers = budget - per_cpu * ncpus;
	if (!buffer_size) {
		buffer_size = providers / MEMORY_BUDGET_PROVIDERS &
			      ~(BUFFER_ALIGN - 1);
		if (buffer_size > default_buffer)
			buffer_size = default_buffer;
		if (buffer_size < buffer_min)
			buffer_size = buffer_min;
	}
	if (buffer_size > providers) {
		snprintf(note, note_len,
			 "a provider buffer of %llu bytes does not fit the %llu bytes the memory budget of %llu leaves beside the kernel rings: give a larger --memory-budget or a smaller --buffer-size",
			 (unsigned long long)buffer_size,
			 (unsigned long long)providers,
			 (unsigned long long)budget);
		return -EINVAL;
	}
	plan->kernel_bytes_per_cpu = per_cpu;
	plan->buffer_size = buffer_size;
	return 0;
}

bool memory_budget_fits(uint64_t budget, uint64_t used, uint64_t buffer_size)
{
	return !budget || (used <= budget && buffer_size <= budget - used);
}
