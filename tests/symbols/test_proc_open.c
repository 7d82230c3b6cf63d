// SPDX-License-Identifier: GPL-2.0-only
/*
 * proc_open_mapped() against the real kernel, as root (skipped
 * otherwise): what an owner may not read is refused; a FIFO or a device
 * put where a mapped file was is never opened for reading (inotify sees
 * every open but O_PATH's); no symbolic link is followed, the last
 * component's or a directory's; a process's path is taken in its own
 * mount namespace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "proc_open.h"

static char dir[] = "/tmp/test-proc-open-XXXXXX";

static char *at(const char *name)
{
	static char path[4][PATH_MAX];
	static unsigned int next;
	char *p = path[next++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

static void write_file(const char *name, const char *text, mode_t mode)
{
	int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(at(name), mode), 0);
}

/* path (of no process) opened with the rights of anyone. */
static int open_as_anyone(const char *path)
{
	struct proc_owner anyone;
	struct proc_open_request rq = { .proc = "/proc",
					.path = path,
					.owner = &anyone };

	proc_owner_anyone(&anyone);
	return proc_open_mapped(&rq);
}

static int setup(void **state)
{
	if (geteuid())
		return 0;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 0755), 0);
	write_file("public", "public\n", 0644);
	write_file("secret", "secret\n", 0600);
	write_file("runnable", "runnable\n", 0711);
	assert_int_equal(mkfifo(at("fifo"), 0666), 0);
	assert_int_equal(mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(symlink("public", at("link")), 0);
	assert_int_equal(symlink(dir, at("dirlink")), 0);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	if (geteuid())
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void owner_rights(void **state)
{
	int fd;

	if (geteuid())
		skip();
	fd = open_as_anyone(at("public"));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(open_as_anyone(at("secret")), -EACCES);
	/* Runnable by all, readable by its owner alone. */
	assert_int_equal(open_as_anyone(at("runnable")), -EACCES);
}

/* Neither a FIFO nor a device is opened: no IN_OPEN on either. */
static void no_device_opened(void **state)
{
	char buf[4096];
	int in;

	if (geteuid())
		skip();
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(in >= 0);
	assert_true(inotify_add_watch(in, at("fifo"), IN_OPEN) >= 0);
	assert_true(inotify_add_watch(in, at("null"), IN_OPEN) >= 0);
	assert_int_equal(open_as_anyone(at("fifo")), -EINVAL);
	assert_int_equal(open_as_anyone(at("null")), -EINVAL);
	assert_int_equal(read(in, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EAGAIN);
	close(in);
}

static void no_symlink_followed(void **state)
{
	char path[PATH_MAX];

	if (geteuid())
		skip();
	/* The link itself (O_PATH, O_NOFOLLOW): not a regular file. */
	assert_int_equal(open_as_anyone(at("link")), -EINVAL);
	snprintf(path, sizeof(path), "%s/public", at("dirlink"));
	assert_int_equal(open_as_anyone(path), -ELOOP);
	assert_int_equal(open_as_anyone("relative/path"), -EINVAL);
}

/*
 * A child in a mount namespace of its own, where "public" is the secret
 * file: its path is opened there, as its owner (root) could.
 */
static void path_in_process_root(void **state)
{
	struct proc_owner owner;
	struct proc_open_request rq = { .proc = "/proc", .owner = &owner };
	int ready[2], go[2], fd, status;
	char buf[16] = "";
	pid_t child;

	if (geteuid())
		skip();
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(at("secret"), at("public"), NULL, MS_BIND, NULL))
			_exit(1);
		if (write(ready[1], "r", 1) != 1 || read(go[0], buf, 1) != 1)
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(ready[0], buf, 1), 1);
	assert_int_equal(proc_owner_read("/proc", (uint32_t)child, &owner), 0);
	assert_int_equal(owner.uid, 0);
	rq.pid = (uint32_t)child;
	rq.path = at("public");
	fd = proc_open_mapped(&rq);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 7);
	assert_memory_equal(buf, "secret\n", 7);
	close(fd);
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && !WEXITSTATUS(status));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(owner_rights),
		cmocka_unit_test(no_device_opened),
		cmocka_unit_test(no_symlink_followed),
		cmocka_unit_test(path_in_process_root),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
