// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mapping tracker on this machine's perf events (root): this process,
 * mapped before the start, is found from /proc; a child that dlopen()s
 * libm after the start and exits before the drain is still resolved, and
 * its PC in libm named back through usyms. And /proc/[pid]/maps text,
 * crafted, is read as hostile.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "mmap_proc_maps.h"
#include "mmap_tracker.h"
#include "usyms.h"

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static struct mmap_tracker *start_or_skip(void)
{
	struct mmap_tracker *t = NULL;
	int r = mmap_tracker_start(&t);

	if (r == -EACCES || r == -EPERM) {
		assert_int_not_equal(geteuid(), 0);
		skip();
	}
	assert_int_equal(r, 0);
	return t;
}

__attribute__((noinline)) static int own_function(int x)
{
	return x + 1;
}

static void finds_processes_of_before(void **state)
{
	struct mmap_tracker *t = start_or_skip();
	struct mmap_hit hit;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	assert_true(n > 0);
	self[n] = '\0';
	assert_int_equal(mmap_tracker_find(t, (uint32_t)getpid(),
					   (uintptr_t)own_function, boottime_ns(), &hit), 0);
	assert_string_equal(hit.path, self);
	/* Read through /proc/self/map_files. */
	assert_true(hit.build_id_len >= 16);
	mmap_tracker_free(t);
}

/* The child: maps libm, says where cos is, exits. */
static void child_maps_libm(int fd)
{
	void *lib = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	void *fn = lib ? dlsym(lib, "cos") : NULL;
	uintptr_t pc = (uintptr_t)fn;

	_exit(write(fd, &pc, sizeof(pc)) == sizeof(pc) ? 0 : 1);
}

static void resolves_a_child_that_exited(void **state)
{
	struct mmap_tracker *t = start_or_skip();
	struct mmap_tracker_stats st;
	struct mmap_hit hit;
	struct usyms *u = NULL;
	const char *name = NULL;
	uintptr_t pc = 0;
	uint64_t vaddr;
	uint32_t file;
	int fds[2], status;
	pid_t child;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0)
		child_maps_libm(fds[1]);
	close(fds[1]);
	assert_int_equal(read(fds[0], &pc, sizeof(pc)), sizeof(pc));
	close(fds[0]);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_not_equal(pc, 0);
	assert_int_equal(mmap_tracker_drain(t), 0);
	assert_int_equal(mmap_tracker_find(t, (uint32_t)child, pc, boottime_ns(), &hit), 0);
	assert_non_null(strstr(hit.path, "/libm.so.6"));
	assert_true(hit.file_id >= 1);
	/* Not in the parent, unless it maps libm itself (ASan's runtime). */
	if (!dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD))
		assert_int_equal(mmap_tracker_find(t, (uint32_t)getpid(), pc,
						   boottime_ns(), &hit), -ENOENT);
	assert_int_equal(mmap_tracker_find(t, (uint32_t)child, pc, boottime_ns(), &hit), 0);
	/* Named back, its build id (from the kernel, 5.12+) checked. */
	assert_int_equal(usyms_new(&u), 0);
	assert_int_equal(usyms_add_path(u, hit.path, &file), 0);
	assert_int_equal(usyms_file_offset_to_vaddr(u, file, hit.file_offset, &vaddr), 0);
	assert_int_equal(usyms_lookup(u, file, hit.build_id, hit.build_id_len, vaddr,
				      &name), 0);
	assert_non_null(strstr(name, "cos"));
	usyms_free(u);
	mmap_tracker_stats(t, &st);
	assert_true(st.mappings > 0);
	mmap_tracker_free(t);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A crafted /proc: only executable file mappings kept; a line too long
 * skipped whole; garbage counted. */
static void reads_crafted_maps(void **state)
{
	const struct mmap_store_limits limits = { 100, 100, 1 << 20 };
	char dir[] = "/tmp/test-procmaps-XXXXXX", sub[64], maps[80], *text;
	struct mmap_store *s = NULL;
	struct mmap_tracker_stats st;
	struct mmap_hit hit;
	char *p;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/42", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(maps, sizeof(maps), "%s/maps", sub);
	text = p = malloc(16384);
	p += sprintf(p, "00400000-00401000 r-xp 00001000 08:01 12 /opt/a b.so\n");
	p += sprintf(p, "00500000-00501000 r--p 00000000 08:01 12 /opt/data.so\n");
	p += sprintf(p, "7ffd0000-7ffd2000 r-xp 00000000 00:00 0 [vdso]\n");
	p += sprintf(p, "garbage line\n");
	p += sprintf(p, "00600000-00601000 r-xp 00000000 08:01 13 /");
	memset(p, 'x', 8000);
	p += 8000;
	p += sprintf(p, "\n00700000-00701000 r-xp 00000000 08:01 14 /opt/last.so");
	write_text(maps, text);
	free(text);
	assert_int_equal(mmap_store_new(&limits, &s), 0);
	assert_int_equal(mmap_proc_maps_scan(s, dir), 1);
	assert_int_equal(mmap_store_find(s, 42, 0x400010, 1, &hit), 0);
	assert_string_equal(hit.path, "/opt/a b.so");
	assert_int_equal(hit.file_offset, 0x1010);
	assert_null(hit.build_id);
	assert_int_equal(mmap_store_find(s, 42, 0x500010, 1, &hit), -ENOENT);
	assert_int_equal(mmap_store_find(s, 42, 0x7ffd0010, 1, &hit), -ENOENT);
	assert_int_equal(mmap_store_find(s, 42, 0x600010, 1, &hit), -ENOENT);
	assert_int_equal(mmap_store_find(s, 42, 0x700010, 1, &hit), 0);
	assert_string_equal(hit.path, "/opt/last.so");
	mmap_store_stats(s, &st);
	assert_int_equal(st.mappings, 2);
	assert_int_equal(st.dropped, 1);
	mmap_store_free(s);
	unlink(maps);
	rmdir(sub);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_processes_of_before),
		cmocka_unit_test(resolves_a_child_that_exited),
		cmocka_unit_test(reads_crafted_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
