// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which mount a path is on (daemon/symbols/mount_table.c), from a crafted
 * mountinfo: FUSE types, the longest point at a component boundary, the
 * last of equal points on top, \ooo escapes, a line too long refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mount_table.h"

static int load_text(const char *text, struct mount_table **m)
{
	char path[] = "/tmp/test-mountinfo-XXXXXX";
	int fd = mkstemp(path), r;
	size_t len = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	r = mount_table_load(path, m);
	unlink(path);
	return r;
}

static const char mountinfo[] =
	"21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
	"30 21 0:40 / /home/u/fuse rw,nosuid,nodev shared:5 - fuse.sshfs u@h: rw\n"
	"31 30 8:2 / /home/u/fuse/inner rw - ext4 /dev/sda2 rw\n"
	"32 21 0:41 / /mnt/with\\040space rw - fuse /dev/fuse rw\n"
	"33 21 8:17 / /media rw - fuseblk /dev/sdb1 rw\n"
	"34 21 8:3 / /srv rw - ext4 /dev/sda3 rw\n"
	"35 34 0:42 / /srv rw - fuse.evil evil rw\n"
	"36 21 0:43 / /fusefake rw - fusectl fusectl rw\n"
	"garbage without separator\n"
	"1 2 3 4 - fuse short\n";

static void finds_fuse_mounts(void **state)
{
	struct mount_table *m = NULL;

	(void)state;
	assert_int_equal(load_text(mountinfo, &m), 0);
	assert_true(mount_table_on_fuse(m, "/home/u/fuse/lib.so"));
	assert_true(mount_table_on_fuse(m, "/home/u/fuse"));
	assert_false(mount_table_on_fuse(m, "/home/u/fuselib.so"));
	assert_false(mount_table_on_fuse(m, "/home/u/fuse/inner/lib.so"));
	assert_true(mount_table_on_fuse(m, "/mnt/with space/lib.so"));
	assert_false(mount_table_on_fuse(m, "/mnt/with\\040space/lib.so"));
	assert_true(mount_table_on_fuse(m, "/media/lib.so"));
	assert_true(mount_table_on_fuse(m, "/srv/lib.so"));
	assert_false(mount_table_on_fuse(m, "/fusefake/x"));
	assert_false(mount_table_on_fuse(m, "/usr/lib/x86_64-linux-gnu/libc.so.6"));
	mount_table_free(m);
}

static void refuses_lines_too_long(void **state)
{
	struct mount_table *m = NULL;
	char *text = malloc(70000), *p = text;

	(void)state;
	p += sprintf(p, "21 1 8:1 / /");
	memset(p, 'a', 66000);
	p += 66000;
	sprintf(p, " rw - fuse x rw\n");
	assert_int_equal(load_text(text, &m), -E2BIG);
	assert_null(m);
	free(text);
	assert_int_equal(mount_table_load("/nonexistent/mountinfo", &m), -ENOENT);
}

static void live_table(void **state)
{
	struct mount_table *m = NULL;

	(void)state;
	assert_int_equal(mount_table_load("/proc/self/mountinfo", &m), 0);
	assert_false(mount_table_on_fuse(m, "/usr/lib"));
	mount_table_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_fuse_mounts),
		cmocka_unit_test(refuses_lines_too_long),
		cmocka_unit_test(live_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
