// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:mem's counters at start (kernel_rss.h): the counters of a
 * /proc/<pid>/status text, including what is not one (a kernel thread,
 * a number too big, a line cut short), and the records of a /proc made
 * here: four "mem.rss" counters per process with memory, stamped as
 * asked, none for a kernel thread or an entry that is not a process.
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
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <fxt/kmem.h>

#include "kernel_rss.h"

static const char status[] =
	"Name:\tcat\nUmask:\t0022\nVmRSS:\t    1920 kB\n"
	"RssAnon:\t     128 kB\nRssFile:\t    1792 kB\nRssShmem:\t       0 kB\n"
	"VmSwap:\t      64 kB\nThreads:\t1\n";

static void parse(void **state)
{
	uint64_t b[4] = { 0 };

	assert_int_equal(kernel_rss_parse_status(status, strlen(status), b), 0xf);
	assert_int_equal(b[0], 1792 << 10);	/* file */
	assert_int_equal(b[1], 128 << 10);	/* anon */
	assert_int_equal(b[2], 64 << 10);	/* swap */
	assert_int_equal(b[3], 0);		/* shmem */
}

static void not_counters(void **state)
{
	static const char kthread[] = "Name:\tkworker/0:1\nThreads:\t1\n";
	static const char bad[] = "RssAnon:\t99999999999999999999 kB\n"
				  "RssFile:\t12 MB\nRssShmem:\t\nVmSwap:\t7 kB";
	uint64_t b[4] = { 0 };

	assert_int_equal(kernel_rss_parse_status(kthread, strlen(kthread), b), 0);
	/* Only the last line is a counter (cut short of its newline). */
	assert_int_equal(kernel_rss_parse_status(bad, strlen(bad), b), 1u << 2);
	assert_int_equal(b[2], 7 << 10);
	/* A text cut inside a line: what is there. */
	assert_int_equal(kernel_rss_parse_status(status, 40, b), 0);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/status", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dump(void **state)
{
	char root[] = "/tmp/fxt-rss-XXXXXX", cmd[600];
	struct kernel_names kn = { 0 };
	const __u64 *w;
	unsigned int i;

	assert_non_null(mkdtemp(root));
	put(root, "42", status);
	put(root, "7", "Name:\tkthreadd\n");
	put(root, "self", status);	/* not a process id */
	assert_int_equal(kernel_rss_dump(&kn, root, 1234), 0);
	assert_int_equal(kn.records, 4);
	assert_int_equal(kn.len, 4 * FXT_KMEM_RSS_WORDS);
	for (i = 0; i < 4; i++) {
		__u64 want[FXT_KMEM_RSS_WORDS];
		static const uint64_t bytes[4] = { 1792 << 10, 128 << 10,
						   64 << 10, 0 };

		w = kn.words + i * FXT_KMEM_RSS_WORDS;
		fxt_kmem_write_rss(want, 1234, 42, 42, i, bytes[i]);
		assert_memory_equal(w, want, sizeof(want));
	}
	kernel_names_free(&kn);
	assert_int_equal(kernel_rss_dump(&kn, "/nonexistent-proc", 1), -ENOENT);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(not_counters),
		cmocka_unit_test(dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
