// SPDX-License-Identifier: GPL-2.0-only
/*
 * The snapshot budget (daemon/fxtraced/snapshot_budget.c) on a real
 * directory: the oldest kept snapshots removed to stay within the files
 * and the bytes, one over the bytes by itself not kept, a snapshot its
 * owner removed or replaced forgotten and never removed, what a restart
 * takes back; and the snapshot directory's rule
 * (daemon/common/snapshot_dir.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "snapshot_budget.h"
#include "snapshot_dir.h"

static char dir[64];
static int dir_fd = -1;

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/fxt-budget-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	dir_fd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	return dir_fd < 0 ? -1 : 0;
}

/* Each test removes what it left: the directory is empty again. */
static int teardown(void **state)
{
	(void)state;
	close(dir_fd);
	return rmdir(dir);
}

/* A file of bytes named name in the directory; its stat in st. */
static void create(const char *name, size_t bytes, struct stat *st)
{
	char data[512] = { 0 };
	int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			0600);

	assert_true(fd >= 0);
	assert_true(bytes <= sizeof(data));
	assert_int_equal(write(fd, data, bytes), (ssize_t)bytes);
	assert_int_equal(fstat(fd, st), 0);
	close(fd);
}

/* As the trigger does: room first, then the file, then kept. */
static int take(struct snapshot_budget *b, const char *name, size_t bytes)
{
	struct stat st;
	int r = snapshot_budget_make_room(b, dir_fd, dir, bytes);

	if (r < 0)
		return r;
	create(name, bytes, &st);
	snapshot_budget_add(b, &st, name, bytes);
	return 0;
}

static bool exists(const char *name)
{
	return faccessat(dir_fd, name, F_OK, 0) == 0;
}

static void test_files(void **state)
{
	struct snapshot_budget b;

	(void)state;
	snapshot_budget_init(&b, dir_fd, 1 << 20, 2);
	assert_int_equal(take(&b, "f-1.fxt", 10), 0);
	assert_int_equal(take(&b, "f-2.fxt", 10), 0);
	assert_int_equal(take(&b, "f-3.fxt", 10), 0);
	assert_false(exists("f-1.fxt"));
	assert_true(exists("f-2.fxt") && exists("f-3.fxt"));
	assert_int_equal(b.nkept, 2);
	assert_int_equal(b.kept_bytes, 20);
	assert_int_equal(b.removed_files, 1);
	assert_int_equal(b.removed_bytes, 10);
	unlinkat(dir_fd, "f-2.fxt", 0);
	unlinkat(dir_fd, "f-3.fxt", 0);
}

static void test_bytes(void **state)
{
	struct snapshot_budget b;

	(void)state;
	snapshot_budget_init(&b, dir_fd, 100, 0);
	assert_int_equal(b.max_files, FXT_CTL_SNAPSHOT_FILES_DEFAULT);
	assert_int_equal(take(&b, "b-1.fxt", 40), 0);
	assert_int_equal(take(&b, "b-2.fxt", 40), 0);
	assert_int_equal(take(&b, "b-3.fxt", 40), 0);
	assert_false(exists("b-1.fxt"));
	assert_int_equal(b.kept_bytes, 80);
	/* Exactly the budget fits; one byte over it does not. */
	assert_int_equal(take(&b, "b-4.fxt", 100), 0);
	assert_int_equal(b.nkept, 1);
	assert_int_equal(take(&b, "b-5.fxt", 101), -EFBIG);
	assert_int_equal(b.not_kept, 1);
	assert_true(exists("b-4.fxt"));
	unlinkat(dir_fd, "b-4.fxt", 0);
}

static void test_replaced_is_never_removed(void **state)
{
	struct snapshot_budget b;
	struct stat st;

	(void)state;
	snapshot_budget_init(&b, dir_fd, 1 << 20, 2);
	assert_int_equal(take(&b, "r-1.fxt", 10), 0);
	assert_int_equal(take(&b, "r-2.fxt", 10), 0);
	/* Its owner puts another file at the oldest's name. */
	create("other", 30, &st);
	assert_int_equal(renameat(dir_fd, "other", dir_fd, "r-1.fxt"), 0);
	assert_int_equal(take(&b, "r-3.fxt", 10), 0);
	assert_true(exists("r-1.fxt") && exists("r-2.fxt") &&
		    exists("r-3.fxt"));
	assert_int_equal(b.removed_files, 0);
	assert_int_equal(b.nkept, 2);
	/* Removed by hand: forgotten, nothing else goes. */
	assert_int_equal(unlinkat(dir_fd, "r-2.fxt", 0), 0);
	snapshot_budget_refresh(&b, dir_fd);
	assert_int_equal(b.nkept, 1);
	assert_int_equal(b.kept_bytes, 10);
	unlinkat(dir_fd, "r-1.fxt", 0);
	unlinkat(dir_fd, "r-3.fxt", 0);
}

static void test_restore(void **state)
{
	struct snapshot_budget b;
	struct snapshot_kept k = { 0 };
	struct stat st;

	(void)state;
	create("k-1.fxt", 20, &st);
	k.dev = st.st_dev;
	k.ino = st.st_ino;
	k.ctime_ns = (uint64_t)st.st_ctim.tv_sec * 1000000000ull +
		     (uint64_t)st.st_ctim.tv_nsec;
	snprintf(k.name, sizeof(k.name), "k-1.fxt");
	snapshot_budget_init(&b, dir_fd, 1 << 20, 4);
	snapshot_budget_restore(&b, dir_fd, &k, getuid());
	assert_int_equal(b.nkept, 1);
	assert_int_equal(b.kept_bytes, 20);
	/* Another inode or change time, a path, a hidden name: not ours. */
	k.ino++;
	snapshot_budget_restore(&b, dir_fd, &k, getuid());
	k.ino--;
	k.ctime_ns++;
	snapshot_budget_restore(&b, dir_fd, &k, getuid());
	k.ctime_ns--;
	snprintf(k.name, sizeof(k.name), "../k-1.fxt");
	snapshot_budget_restore(&b, dir_fd, &k, getuid());
	snprintf(k.name, sizeof(k.name), ".k-1.fxt");
	snapshot_budget_restore(&b, dir_fd, &k, getuid());
	assert_int_equal(b.nkept, 1);
	unlinkat(dir_fd, "k-1.fxt", 0);
}

static void test_default_bytes(void **state)
{
	struct snapshot_budget b;
	struct statvfs vfs;
	uint64_t share;

	(void)state;
	assert_int_equal(fstatvfs(dir_fd, &vfs), 0);
	share = (uint64_t)vfs.f_blocks * vfs.f_frsize / 100 * 10;
	snapshot_budget_init(&b, dir_fd, 0, 0);
	assert_int_equal(b.max_bytes, share < (1ull << 30) ? share : 1ull << 30);
	assert_int_equal(b.max_files, 100);
}

static void test_dir_rule(void **state)
{
	struct stat st = { .st_mode = S_IFDIR | 0755, .st_uid = 1000 };
	char why[300];

	(void)state;
	assert_int_equal(snapshot_dir_check(&st, 1000, why, sizeof(why)), 0);
	st.st_uid = 0;
	assert_int_equal(snapshot_dir_check(&st, 1000, why, sizeof(why)), 0);
	st.st_uid = 1001;
	assert_int_equal(snapshot_dir_check(&st, 1000, why, sizeof(why)),
			 -EPERM);
	assert_non_null(strstr(why, "belongs to uid 1001, not to root nor to you (uid 1000)"));
	st.st_uid = 1000;
	st.st_mode = S_IFDIR | 01777;
	assert_int_equal(snapshot_dir_check(&st, 1000, why, sizeof(why)),
			 -EPERM);
	assert_non_null(strstr(why, "writable by every user"));
	st.st_mode = S_IFDIR | 0775;
	st.st_gid = 424242;	/* no group tracing has it */
	assert_int_equal(snapshot_dir_check(&st, 1000, why, sizeof(why)),
			 -EPERM);
	assert_non_null(strstr(why, "writable by group 424242"));
	st.st_mode = S_IFREG | 0600;
	assert_int_equal(snapshot_dir_check(&st, 1000, why, sizeof(why)),
			 -ENOTDIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_replaced_is_never_removed),
		cmocka_unit_test(test_restore),
		cmocka_unit_test(test_default_bytes),
		cmocka_unit_test(test_dir_rule),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
