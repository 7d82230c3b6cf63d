// SPDX-License-Identifier: GPL-2.0-only
/*
 * JIT names by process (daemon/fxtraced/stacks/jit_maps.c), with this
 * test's own /tmp/perf-PID.map (root; skipped otherwise): read and named;
 * read again once grown, past the recheck interval; dropped once gone;
 * refused when another user's or a symlink to a root-only map; not kept
 * over the memory bound. A jitdump this test maps executable, as a JIT
 * does, found in its maps and read; refused once another user's. Each
 * refusal counted, word-exact.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "jit_maps.h"

static char map_path[64];

static void write_map(const char *text, const char *mode)
{
	FILE *f = fopen(map_path, mode);

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void past_recheck(void)
{
	struct timespec ts = { 0, (long)JIT_MAPS_RECHECK_NS + 50000000 };

	nanosleep(&ts, NULL);
}

static const char *name_of(struct jit_maps *j, uint64_t pc, int *r)
{
	const char *name = NULL;

	*r = jit_maps_name(j, (uint32_t)getpid(), pc, &name);
	return *r ? NULL : name;
}

static int setup(void **state)
{
	(void)state;
	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", getpid());
	unlink(map_path);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(map_path);
	return 0;
}

static void test_read_grow_drop(void **state)
{
	struct jit_maps *j;
	struct jit_maps_stats st;
	int r;

	(void)state;
	write_map("5000 100 JS:*hot /s.js:1:1\n", "w");
	assert_int_equal(jit_maps_new("/proc", 0, &j), 0);
	assert_string_equal(name_of(j, 0x50ff, &r), "JS:*hot /s.js:1:1");
	assert_null(name_of(j, 0x6000, &r));
	assert_int_equal(r, -ENOENT);
	write_map("6000 10 JS:*later /s.js:9:1\n", "a");
	past_recheck();
	assert_string_equal(name_of(j, 0x6000, &r), "JS:*later /s.js:9:1");
	unlink(map_path);
	past_recheck();
	assert_null(name_of(j, 0x7000, &r));
	assert_null(name_of(j, 0x5000, &r));
	jit_maps_stats(j, &st);
	assert_int_equal(st.read, 2);
	assert_int_equal(st.refused, 0);
	assert_int_equal(st.memory, 0);
	assert_int_equal(st.lines.entries, 3);
	jit_maps_free(j);
}

static void test_refused(void **state)
{
	char secret[] = "/tmp/test-jit-secret-XXXXXX";
	struct jit_maps *j;
	struct jit_maps_stats st;
	int fd, r;

	(void)state;
	write_map("5000 100 OTHER_USER\n", "w");
	assert_int_equal(chown(map_path, 4343, 4343), 0);
	assert_int_equal(jit_maps_new("/proc", 0, &j), 0);
	assert_null(name_of(j, 0x5000, &r));
	jit_maps_stats(j, &st);
	assert_int_equal(st.refused, 1);
	assert_int_equal(st.error, -EPERM);
	unlink(map_path);
	fd = mkstemp(secret);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "5000 100 ROOT_ONLY\n", 19), 19);
	close(fd);
	assert_int_equal(symlink(secret, map_path), 0);
	past_recheck();
	assert_null(name_of(j, 0x5000, &r));
	jit_maps_stats(j, &st);
	assert_int_equal(st.refused, 2);
	assert_int_equal(st.dumps_refused, 0);
	assert_int_equal(st.error, -ELOOP);
	assert_int_equal(st.read, 0);
	unlink(secret);
	jit_maps_free(j);
}

static void test_memory_bound(void **state)
{
	struct jit_maps *j;
	struct jit_maps_stats st;
	int r;

	(void)state;
	write_map("5000 100 a_name_of_some_length\n", "w");
	assert_int_equal(jit_maps_new("/proc", 40, &j), 0);
	assert_null(name_of(j, 0x5000, &r));
	jit_maps_stats(j, &st);
	assert_int_equal(st.read, 1);
	assert_int_equal(st.over_memory, 1);
	assert_int_equal(st.memory, 0);
	jit_maps_free(j);
}

/* A jitdump of one load: pc 0x5000..0x5100 named name. */
static size_t dump_bytes(uint8_t *b, const char *name)
{
	uint32_t h[6] = { JITDUMP_MAGIC, 1, 40, 62, 0, (uint32_t)getpid() };
	uint64_t zero[2] = { 0 }, load[5] = { 0x5000, 0x5000, 0x100, 1 };
	uint32_t prefix[2] = { 0, (uint32_t)(16 + 8 + 32 + strlen(name) + 1) };
	size_t n = 0;

	memcpy(b + n, h, sizeof(h));
	n += sizeof(h);
	memcpy(b + n, zero, sizeof(zero));
	n += sizeof(zero);
	memcpy(b + n, prefix, sizeof(prefix));
	n += sizeof(prefix) + 8;
	memcpy(b + n, (uint32_t[2]){ (uint32_t)getpid(), 1 }, 8);
	n += 8;
	memcpy(b + n, load, 32);
	n += 32;
	memcpy(b + n, name, strlen(name) + 1);
	return n + strlen(name) + 1;
}

static void test_jitdump(void **state)
{
	char dir[] = "/tmp/test-jit-dump-XXXXXX", path[64];
	uint8_t b[256] = { 0 };
	struct jit_maps *j;
	struct jit_maps_stats st;
	size_t len = dump_bytes(b, "JS:*dumped /s.js:1:1");
	void *marker;
	FILE *f;
	int r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, getpid());
	f = fopen(path, "w+");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, len, f), len);
	assert_int_equal(fflush(f), 0);
	/* The marker a JIT leaves for perf: the file mapped executable. */
	marker = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f),
		      0);
	assert_true(marker != MAP_FAILED);
	assert_int_equal(jit_maps_new("/proc", 0, &j), 0);
	assert_string_equal(name_of(j, 0x50ff, &r), "JS:*dumped /s.js:1:1");
	assert_null(name_of(j, 0x5100, &r));
	jit_maps_stats(j, &st);
	assert_int_equal(st.dumps_read, 1);
	assert_int_equal(st.read, 0);
	assert_int_equal(st.dump.records, 1);
	assert_int_equal(st.lines.entries, 1);
	assert_int_equal(chown(path, 4343, 4343), 0);
	past_recheck();
	assert_null(name_of(j, 0x6000, &r));
	jit_maps_stats(j, &st);
	assert_int_equal(st.refused, 1);
	assert_int_equal(st.dumps_refused, 1);
	assert_int_equal(st.error, -EPERM);
	assert_int_equal(st.dumps_read, 1);
	jit_maps_free(j);
	munmap(marker, 4096);
	fclose(f);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_grow_drop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_bound, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_jitdump, setup, teardown),
	};

	if (geteuid() != 0) {
		printf("skip: needs root\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
