// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mapping tracker's memory (daemon/fxtraced/kernel/mmap_store.c):
 * mappings valid over time windows, forks copying the parent's, execs
 * ending them, exits keeping them, events out of time order, files
 * interned by (path, build id), and the caps counted.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mmap_store.h"

static const struct mmap_store_limits roomy = { 1000, 100, 1 << 20 };
static const uint8_t id_a[20] = { 0xaa, 1, 2, 3 };
static const uint8_t id_b[20] = { 0xbb, 1, 2, 3 };

static int add(struct mmap_store *s, uint32_t pid, uint64_t ts, uint64_t start,
	       const char *path, const uint8_t *id)
{
	return mmap_store_add(s, pid, ts, start, 0x1000, 0x2000, path,
			      strlen(path), id, id ? 20 : 0);
}

static const char *path_at(struct mmap_store *s, uint32_t pid, uint64_t pc,
			   uint64_t ts)
{
	struct mmap_hit hit;

	return mmap_store_find(s, pid, pc, ts, &hit) ? NULL : hit.path;
}

static void finds_by_time(void **state)
{
	struct mmap_store *s = NULL;
	struct mmap_hit hit;

	(void)state;
	assert_int_equal(mmap_store_new(&roomy, &s), 0);
	assert_int_equal(add(s, 10, 0, 0x400000, "/usr/bin/old", id_a), 0);
	assert_int_equal(mmap_store_find(s, 10, 0x400010, 5, &hit), 0);
	assert_string_equal(hit.path, "/usr/bin/old");
	assert_int_equal(hit.file_offset, 0x2010);
	assert_int_equal(hit.build_id_len, 20);
	assert_memory_equal(hit.build_id, id_a, 20);
	assert_int_equal(hit.file_id, 1);
	assert_int_equal(mmap_store_find(s, 10, 0x401000, 5, &hit), -ENOENT);
	assert_int_equal(mmap_store_find(s, 11, 0x400010, 5, &hit), -ENOENT);
	/* exec at 100: the old program ends; the new one maps at 101. */
	mmap_store_exec(s, 10, 100);
	assert_int_equal(add(s, 10, 101, 0x400000, "/usr/bin/new", NULL), 0);
	assert_string_equal(path_at(s, 10, 0x400010, 99), "/usr/bin/old");
	assert_null(path_at(s, 10, 0x400010, 100));
	assert_string_equal(path_at(s, 10, 0x400010, 101), "/usr/bin/new");
	assert_int_equal(mmap_store_find(s, 10, 0x400010, 200, &hit), 0);
	assert_null(hit.build_id);
	assert_int_equal(hit.file_id, 2);
	/* Exited: still found. */
	mmap_store_exit(s, 10, 300);
	assert_string_equal(path_at(s, 10, 0x400010, 299), "/usr/bin/new");
	mmap_store_free(s);
}

static void forks_copy_the_parent(void **state)
{
	struct mmap_store *s = NULL;
	struct mmap_hit a, b;

	(void)state;
	assert_int_equal(mmap_store_new(&roomy, &s), 0);
	assert_int_equal(add(s, 10, 0, 0x7f0000, "/lib/libc.so.6", id_a), 0);
	/* pid 20 was another process before: it ends at the fork. */
	assert_int_equal(add(s, 20, 0, 0x600000, "/lib/other.so", NULL), 0);
	/* The parent's later exec (come first, from another CPU's ring)
	 * and mappings are not the child's. */
	mmap_store_exec(s, 10, 70);
	assert_int_equal(mmap_store_fork(s, 10, 20, 50), 0);
	assert_int_equal(add(s, 10, 60, 0x900000, "/lib/libm.so.6", NULL), 0);
	assert_string_equal(path_at(s, 20, 0x600001, 49), "/lib/other.so");
	assert_null(path_at(s, 20, 0x600001, 50));
	assert_null(path_at(s, 20, 0x7f0001, 49));
	assert_string_equal(path_at(s, 20, 0x7f0001, 50), "/lib/libc.so.6");
	assert_string_equal(path_at(s, 20, 0x7f0001, 1000), "/lib/libc.so.6");
	assert_null(path_at(s, 20, 0x900001, 65));
	assert_null(path_at(s, 10, 0x7f0001, 75));
	/* One file, one id. */
	assert_int_equal(mmap_store_find(s, 10, 0x7f0001, 5, &a), 0);
	assert_int_equal(mmap_store_find(s, 20, 0x7f0001, 55, &b), 0);
	assert_int_equal(a.file_id, b.file_id);
	assert_ptr_equal(a.path, b.path);
	mmap_store_free(s);
}

/* Rings of several CPUs: the later mapping may come first. */
static void out_of_order_overlaps(void **state)
{
	struct mmap_store *s = NULL;

	(void)state;
	assert_int_equal(mmap_store_new(&roomy, &s), 0);
	assert_int_equal(add(s, 10, 200, 0x500000, "/tmp/second.so", NULL), 0);
	assert_int_equal(add(s, 10, 100, 0x500800, "/tmp/first.so", NULL), 0);
	assert_null(path_at(s, 10, 0x500900, 99));
	assert_string_equal(path_at(s, 10, 0x500900, 150), "/tmp/first.so");
	assert_string_equal(path_at(s, 10, 0x500900, 250), "/tmp/second.so");
	/* A mapping replaced in part ends whole (not split). */
	assert_null(path_at(s, 10, 0x501100, 250));
	assert_string_equal(path_at(s, 10, 0x501100, 199), "/tmp/first.so");
	mmap_store_free(s);
}

static void files_by_path_and_build_id(void **state)
{
	struct mmap_store *s = NULL;
	struct mmap_hit a, b;

	(void)state;
	assert_int_equal(mmap_store_new(&roomy, &s), 0);
	assert_int_equal(add(s, 1, 0, 0x1000, "/lib/x.so", id_a), 0);
	assert_int_equal(add(s, 2, 0, 0x1000, "/lib/x.so", id_b), 0);
	assert_int_equal(mmap_store_find(s, 1, 0x1000, 1, &a), 0);
	assert_int_equal(mmap_store_find(s, 2, 0x1000, 1, &b), 0);
	assert_int_not_equal(a.file_id, b.file_id);
	mmap_store_free(s);
}

static void caps_and_bad_input_counted(void **state)
{
	const struct mmap_store_limits tight = { 3, 2, 64 };
	struct mmap_store *s = NULL;
	struct mmap_tracker_stats st;
	char longpath[100];

	(void)state;
	memset(longpath, 'a', sizeof(longpath));
	longpath[0] = '/';
	assert_int_equal(mmap_store_new(&tight, &s), 0);
	assert_int_equal(add(s, 1, 0, 0x1000, "/a", NULL), 0);
	assert_int_equal(add(s, 1, 0, 0x3000, "/b", NULL), 0);
	/* Files cap. */
	assert_int_equal(add(s, 1, 0, 0x5000, "/c", NULL), -ENOSPC);
	assert_int_equal(add(s, 2, 0, 0x5000, "/a", NULL), 0);
	/* Mappings cap, counting copies at fork. */
	assert_int_equal(add(s, 2, 0, 0x7000, "/a", NULL), -E2BIG);
	assert_int_equal(mmap_store_fork(s, 1, 3, 5), -E2BIG);
	/* A NUL in the path, an empty range, a range that wraps. */
	assert_int_equal(mmap_store_add(s, 1, 0, 0x9000, 0x1000, 0, "/a\0b", 4, NULL, 0),
			 -EINVAL);
	assert_int_equal(mmap_store_add(s, 1, 0, 0x9000, 0, 0, "/a", 2, NULL, 0), -EINVAL);
	assert_int_equal(mmap_store_add(s, 1, 0, UINT64_MAX - 10, 0x1000, 0, "/a", 2,
					NULL, 0), -EINVAL);
	mmap_store_stats(s, &st);
	assert_int_equal(st.mappings, 3);
	assert_int_equal(st.dropped, 6);
	mmap_store_free(s);
	/* Path bytes cap. */
	assert_int_equal(mmap_store_new(&tight, &s), 0);
	assert_int_equal(mmap_store_add(s, 1, 0, 0x1000, 0x1000, 0, longpath,
					sizeof(longpath), NULL, 0), -ENOSPC);
	mmap_store_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_by_time),
		cmocka_unit_test(forks_copy_the_parent),
		cmocka_unit_test(out_of_order_overlaps),
		cmocka_unit_test(files_by_path_and_build_id),
		cmocka_unit_test(caps_and_bad_input_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
