// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JIT's perf map (daemon/symbols/perf_map.c), word-exact: Node.js's
 * lines, hostile ones (overlong, bad hex, size 0, past 2^64, a NUL,
 * invalid UTF-8 and control bytes escaped), overlapping ranges (the
 * later line stays), an unfinished last line, the entries' cap.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perf_map.h"
#include "perf_map_expect.h"

static struct perf_map *parse(const char *text, size_t len)
{
	struct perf_map *m;

	assert_int_equal(perf_map_new(&m), 0);
	assert_int_equal(perf_map_parse(m, text, len), 0);
	assert_int_equal(perf_map_finish(m), 0);
	return m;
}

static void test_node_lines(void **state)
{
	static const char text[] =
		"3b6f2a4c0 1c JS:*hotA /home/u/s.js:1:14\n"
		"0x3b6f2a500 0x40 LazyCompile:~hotB /home/u/s.js:5\n"
		"3B6F2A600 8 Builtin:ArgumentsAdaptorTrampoline\n";
	struct perf_map *m = parse(text, sizeof(text) - 1);
	struct perf_map_stats st;

	(void)state;
	expect_none(m, 0x3b6f2a4bf);
	expect_name(m, 0x3b6f2a4c0, "JS:*hotA /home/u/s.js:1:14");
	expect_name(m, 0x3b6f2a4db, "JS:*hotA /home/u/s.js:1:14");
	expect_none(m, 0x3b6f2a4dc);
	expect_name(m, 0x3b6f2a53f, "LazyCompile:~hotB /home/u/s.js:5");
	expect_none(m, 0x3b6f2a540);
	expect_name(m, 0x3b6f2a607, "Builtin:ArgumentsAdaptorTrampoline");
	expect_none(m, 0x3b6f2a608);
	perf_map_stats(m, &st);
	assert_int_equal(st.entries, 3);
	assert_int_equal(st.malformed, 0);
	/* three 32-byte entries and their names */
	assert_int_equal(st.memory, 3 * 32 + 27 + 33 + 35);
	perf_map_free(m);
}

static void test_hostile_lines(void **state)
{
	static const char text[] = "1000 10 good\n"
				   "2000 0 size zero\n"
				   "zz00 10 bad hex\n"
				   "3000 1g bad size\n"
				   "-4000 10 signed\n"
				   " 5000 10 leading space\n"
				   "6000 10\n"
				   "6000 10 \n"
				   "10000000000000000 10 past 2^64\n"
				   "ffffffffffffff00 100 end past 2^64\n"
				   "ffffffffffffff00 ff last page\n"
				   "7000 10 nul\0here\n"
				   "8000 10 caf\xc3\xa9 \xff\x01\\ tab\t\n"
				   "9000 10 unfinished";
	struct perf_map *m = parse(text, sizeof(text) - 1);
	struct perf_map_stats st;

	(void)state;
	expect_name(m, 0x100f, "good");
	expect_none(m, 0x2000);
	expect_none(m, 0x5000);
	expect_none(m, 0x6000);
	expect_none(m, 0x7000);
	expect_name(m, 0xfffffffffffffffe, "last page");
	expect_none(m, 0xffffffffffffffff);
	expect_name(m, 0x8000, "caf\\xc3\\xa9 \\xff\\x01\\x5c tab\\x09");
	expect_none(m, 0x9000);
	perf_map_stats(m, &st);
	assert_int_equal(st.entries, 3);
	assert_int_equal(st.malformed, 10);
	assert_int_equal(st.too_long, 0);
	perf_map_free(m);
}

static void test_overlong_line(void **state)
{
	size_t len = PERF_MAP_LINE_MAX + 64;
	char *text = malloc(len + 32);
	struct perf_map *m;
	struct perf_map_stats st;
	int n;

	(void)state;
	n = sprintf(text, "1000 10 ");
	memset(text + n, 'a', len - (size_t)n);
	n = sprintf(text + len, "\n2000 10 after\n");
	m = parse(text, len + (size_t)n);
	expect_none(m, 0x1000);
	expect_name(m, 0x2000, "after");
	perf_map_stats(m, &st);
	assert_int_equal(st.too_long, 1);
	assert_int_equal(st.entries, 1);
	perf_map_free(m);
	free(text);
}

static void test_overlaps(void **state)
{
	static const char text[] = "1000 100 old\n"
				   "1080 10 newer inside\n"
				   "3000 100 kept\n"
				   "2000 100 first\n"
				   "2000 100 second\n"
				   "4000 100 a\n"
				   "4100 100 adjacent\n";
	struct perf_map *m = parse(text, sizeof(text) - 1);
	struct perf_map_stats st;

	(void)state;
	expect_none(m, 0x1000);
	expect_name(m, 0x1088, "newer inside");
	expect_none(m, 0x1090);
	expect_name(m, 0x2000, "second");
	expect_name(m, 0x30ff, "kept");
	expect_name(m, 0x40ff, "a");
	expect_name(m, 0x4100, "adjacent");
	perf_map_stats(m, &st);
	assert_int_equal(st.overlaps, 2);
	assert_int_equal(st.entries, 5);
	perf_map_free(m);
}

static void test_read_fd(void **state)
{
	static const char text[] = "a000 20 from a file\n";
	char path[] = "/tmp/test-perf-map-XXXXXX";
	int fd = mkstemp(path);
	struct perf_map *m;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, text, sizeof(text) - 1),
			 (ssize_t)sizeof(text) - 1);
	assert_int_equal(perf_map_new(&m), 0);
	assert_int_equal(perf_map_read_fd(m, fd), 0);
	expect_name(m, 0xa01f, "from a file");
	expect_none(m, 0xa020);
	perf_map_free(m);
	close(fd);
}

static void test_entries_cap(void **state)
{
	size_t n = PERF_MAP_ENTRIES_MAX + 3, i, len = 0;
	char *text = malloc(n * 24);
	struct perf_map *m;
	struct perf_map_stats st;

	(void)state;
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%zx 1 f\n", i * 2);
	m = parse(text, len);
	perf_map_stats(m, &st);
	assert_int_equal(st.entries, PERF_MAP_ENTRIES_MAX);
	assert_int_equal(st.over_entries, 3);
	expect_name(m, (PERF_MAP_ENTRIES_MAX - 1) * 2, "f");
	expect_none(m, PERF_MAP_ENTRIES_MAX * 2);
	perf_map_free(m);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_lines),
		cmocka_unit_test(test_hostile_lines),
		cmocka_unit_test(test_overlong_line),
		cmocka_unit_test(test_overlaps),
		cmocka_unit_test(test_read_fd),
		cmocka_unit_test(test_entries_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
