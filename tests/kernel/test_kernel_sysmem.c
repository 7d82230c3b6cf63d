// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:mem's system counters (kernel_sysmem.h): meminfo's and vmstat's
 * values from their text, including what is not one; samples of a /proc
 * made here: the meminfo record from the first, vmstat's rates per
 * second from the second on; the queue handed out in whole records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel_sysmem.h"

static const char meminfo[] =
	"MemTotal:       24684092 kB\nMemFree:        23565576 kB\n"
	"MemAvailable:   24090524 kB\nBuffers:           12 kB\n"
	"Cached:           900000 kB\nSwapCached:            0 kB\n"
	"Dirty:               100 kB\nSwapTotal:        1000 kB\n"
	"SwapFree:          400 kB\n";

static void parse(void **state)
{
	__u64 b[FXT_KMEM_MEMINFO_VALUES];
	uint64_t c[FXT_KMEM_VMSTAT_VALUES];
	static const char vmstat[] = "pgpgin 10\npgpgout 20\npswpin 0\n"
				     "pgmajfault 30\npgmajfault_x 99\n";

	assert_int_equal(kernel_sysmem_parse_meminfo(meminfo, strlen(meminfo), b),
			 0x1f);
	assert_int_equal(b[0], 24090524ull << 10);	/* available */
	assert_int_equal(b[1], 23565576ull << 10);	/* free, not total */
	assert_int_equal(b[2], 900000ull << 10);	/* cached, not swap */
	assert_int_equal(b[3], 100ull << 10);
	assert_int_equal(b[4], 600ull << 10);	/* swap used */
	assert_int_equal(kernel_sysmem_parse_vmstat(vmstat, strlen(vmstat), c),
			 7);
	assert_int_equal(c[0], 30);
	assert_int_equal(c[1], 10);
	assert_int_equal(c[2], 20);
}

static void not_values(void **state)
{
	static const char bad[] = "MemAvailable: lots\nMemFree:\nSwapTotal: 5 kB\n";
	__u64 b[FXT_KMEM_MEMINFO_VALUES] = { 0 };
	uint64_t c[FXT_KMEM_VMSTAT_VALUES];

	/* swap_used needs SwapFree too. */
	assert_int_equal(kernel_sysmem_parse_meminfo(bad, strlen(bad), b), 0);
	assert_int_equal(kernel_sysmem_parse_vmstat("", 0, c), 0);
	assert_int_equal(kernel_sysmem_parse_vmstat("pgpgin 99999999999999999999\n",
						    28, c), 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void samples(void **state)
{
	char root[] = "/tmp/fxt-sysmem-XXXXXX", path[512];
	struct kernel_sysmem sm = { 0 };
	__u64 buf[64], want[FXT_KMEM_MEMINFO_WORDS];
	__u64 b[FXT_KMEM_MEMINFO_VALUES];
	size_t n;

	assert_non_null(mkdtemp(root));
	write_file(root, "meminfo", meminfo);
	write_file(root, "vmstat", "pgmajfault 100\npgpgin 1000\npgpgout 0\n");
	kernel_sysmem_sample(&sm, root, 1000000000ull);
	write_file(root, "vmstat", "pgmajfault 150\npgpgin 3000\npgpgout 0\n");
	kernel_sysmem_sample(&sm, root, 1500000000ull);	/* 0.5 s later */
	assert_int_equal(sm.records, 3);

	/* The first meminfo alone fits: whole records only. */
	n = kernel_sysmem_read(&sm, buf, (FXT_KMEM_MEMINFO_WORDS + 1) * 8);
	assert_int_equal(n, FXT_KMEM_MEMINFO_WORDS * 8);
	kernel_sysmem_parse_meminfo(meminfo, strlen(meminfo), b);
	fxt_kmem_write_meminfo(want, 1000000000ull, b);
	assert_memory_equal(buf, want, sizeof(want));
	n = kernel_sysmem_read(&sm, buf, sizeof(buf));
	assert_int_equal(n, (FXT_KMEM_MEMINFO_WORDS + FXT_KMEM_VMSTAT_WORDS) * 8);
	/* vmstat: 50 faults and 2000 KiB in 0.5 s. */
	assert_int_equal(buf[FXT_KMEM_MEMINFO_WORDS + 1], 1500000000ull);
	assert_int_equal(buf[FXT_KMEM_MEMINFO_WORDS + 5], 100);
	assert_int_equal(buf[FXT_KMEM_MEMINFO_WORDS + 7], 4000);
	assert_int_equal(buf[FXT_KMEM_MEMINFO_WORDS + 9], 0);
	assert_int_equal(kernel_sysmem_read(&sm, buf, sizeof(buf)), 0);

	/* A counter that went back (a reset) is a rate of 0, not a wrap. */
	write_file(root, "vmstat", "pgmajfault 1\npgpgin 3000\npgpgout 0\n");
	kernel_sysmem_sample(&sm, root, 2500000000ull);
	n = kernel_sysmem_read(&sm, buf, sizeof(buf));
	assert_int_equal(n, (FXT_KMEM_MEMINFO_WORDS + FXT_KMEM_VMSTAT_WORDS) * 8);
	assert_int_equal(buf[FXT_KMEM_MEMINFO_WORDS + 5], 0);
	kernel_sysmem_free(&sm);

	/* No /proc: nothing queued. */
	kernel_sysmem_sample(&sm, "/nonexistent-proc", 1);
	assert_int_equal(sm.records, 0);
	kernel_sysmem_free(&sm);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(not_values),
		cmocka_unit_test(samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
