// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory budget's arithmetic (daemon/fxtraced/memory_budget.c): the
 * sizes it derives, what it keeps as asked, what it refuses and why, and
 * when one more buffer fits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "memory_budget.h"

#define K 1024ull
#define M (1024ull * 1024)

static int plan(uint64_t budget, unsigned int ncpus, bool kernel,
		uint64_t buffer, uint64_t kernel_per_cpu,
		struct memory_plan *p, char *note)
{
	note[0] = '\0';
	/* The manager's bounds: 1M default, rings 4K..256M, buffers >= 4K. */
	return memory_budget_plan(budget, ncpus, kernel, buffer,
				  kernel_per_cpu, 1 * M, 4 * K, 256 * M,
				  4 * K, p, note, 512);
}

static void test_no_budget_keeps_what_was_asked(void **state)
{
	struct memory_plan p;
	char note[512];

	(void)state;
	assert_int_equal(plan(0, 4, true, 0, 0, &p, note), 0);
	assert_int_equal(p.buffer_size, 1 * M);
	assert_int_equal(p.kernel_bytes_per_cpu, 0);
	assert_int_equal(plan(0, 4, true, 64 * K, 2 * M, &p, note), 0);
	assert_int_equal(p.buffer_size, 64 * K);
	assert_int_equal(p.kernel_bytes_per_cpu, 2 * M);
}

static void test_derived_sizes(void **state)
{
	struct memory_plan p;
	char note[512];

	(void)state;
	/* 64M over 2 CPUs: rings 16M each (half), buffers the 1M default. */
	assert_int_equal(plan(64 * M, 2, true, 0, 0, &p, note), 0);
	assert_int_equal(p.kernel_bytes_per_cpu, 16 * M);
	assert_int_equal(p.buffer_size, 1 * M);
	/* 6 CPUs: 64M/2/6 = 5.33M, the power of two below it. */
	assert_int_equal(plan(64 * M, 6, true, 0, 0, &p, note), 0);
	assert_int_equal(p.kernel_bytes_per_cpu, 4 * M);
	/* 4M over 4 CPUs: rings 512K, providers 2M / 8 = 256K each. */
	assert_int_equal(plan(4 * M, 4, true, 0, 0, &p, note), 0);
	assert_int_equal(p.kernel_bytes_per_cpu, 512 * K);
	assert_int_equal(p.buffer_size, 256 * K);
	/* No kernel: the providers have it all; 256K / 8. */
	assert_int_equal(plan(256 * K, 4, false, 0, 0, &p, note), 0);
	assert_int_equal(p.kernel_bytes_per_cpu, 0);
	assert_int_equal(p.buffer_size, 32 * K);
	/* An eighth rounded down to 4K, never under the smallest buffer. */
	assert_int_equal(plan(100000, 1, false, 0, 0, &p, note), 0);
	assert_int_equal(p.buffer_size, 12 * K);
	assert_int_equal(plan(4 * K, 1, false, 0, 0, &p, note), 0);
	assert_int_equal(p.buffer_size, 4 * K);
	/* A huge budget: rings capped at their largest size. */
	assert_int_equal(plan(8192 * M, 1, true, 0, 0, &p, note), 0);
	assert_int_equal(p.kernel_bytes_per_cpu, 256 * M);
}

static void test_given_sizes_kept(void **state)
{
	struct memory_plan p;
	char note[512];

	(void)state;
	assert_int_equal(plan(64 * M, 2, true, 4 * M, 1 * M, &p, note), 0);
	assert_int_equal(p.buffer_size, 4 * M);
	assert_int_equal(p.kernel_bytes_per_cpu, 1 * M);
	/* Given rings may take more than half. */
	assert_int_equal(plan(64 * M, 2, true, 0, 16 * M, &p, note), 0);
	assert_int_equal(p.kernel_bytes_per_cpu, 16 * M);
	assert_int_equal(p.buffer_size, 1 * M);
}

static void test_refused(void **state)
{
	struct memory_plan p;
	char note[512];

	(void)state;
	assert_int_equal(plan(8 * K, 1, false, 64 * K, 0, &p, note), -EINVAL);
	assert_string_equal(note,
		"a provider buffer of 65536 bytes does not fit the 8192 bytes the memory budget of 8192 leaves beside the kernel rings: give a larger --memory-budget or a smaller --buffer-size");
	assert_int_equal(plan(32 * K, 8, true, 0, 0, &p, note), -EINVAL);
	assert_string_equal(note,
		"the memory budget of 32768 bytes cannot hold the kernel rings of 8 CPUs (4096 bytes each at least) in its half: give at least 65536 bytes, or --kernel=off");
	assert_int_equal(plan(1 * M, 1, true, 0, 1 * M, &p, note), -EINVAL);
	assert_string_equal(note,
		"--kernel-buffer-size 1048576 x 1 CPUs leaves nothing of the memory budget of 1048576 bytes to the providers");
	/* The rings fit, a given buffer not beside them. */
	assert_int_equal(plan(1 * M, 2, true, 1 * M, 0, &p, note), -EINVAL);
}

static void test_fits(void **state)
{
	(void)state;
	assert_true(memory_budget_fits(0, 123 * M, 1 * M));
	assert_true(memory_budget_fits(3 * M, 2 * M, 1 * M));
	assert_false(memory_budget_fits(3 * M, 2 * M + 1, 1 * M));
	assert_false(memory_budget_fits(3 * M, 4 * M, 1 * M));
	assert_false(memory_budget_fits(200000, 196608, 65536));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_budget_keeps_what_was_asked),
		cmocka_unit_test(test_derived_sizes),
		cmocka_unit_test(test_given_sizes_kept),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
