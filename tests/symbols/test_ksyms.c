// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kallsyms snapshot (daemon/symbols/ksyms.c): text symbols only,
 * sorted, modules named "fn [mod]", the scheduler's text, the ranges; a
 * crafted file's hostile lines skipped whole; zero addresses are -EPERM;
 * and the live /proc/kallsyms names vfs_read back.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ksyms.h"

static char path[] = "/tmp/test-ksyms-XXXXXX";

static void write_file(const char *text)
{
	int fd = mkstemp(path);
	size_t len = strlen(text);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static int load(const char *text, struct ksyms **k)
{
	int r;

	strcpy(path, "/tmp/test-ksyms-XXXXXX");
	write_file(text);
	r = ksyms_load(path, k);
	unlink(path);
	return r;
}

static void assert_names(const struct ksyms *k, uint64_t addr,
			 const char *want, uint64_t want_off)
{
	const char *name = NULL;
	uint64_t off = 0;

	assert_int_equal(ksyms_lookup(k, addr, &name, &off), 0);
	assert_string_equal(name, want);
	assert_int_equal(off, want_off);
}

static void assert_unknown(const struct ksyms *k, uint64_t addr)
{
	const char *name;
	uint64_t off;

	assert_int_equal(ksyms_lookup(k, addr, &name, &off), -ENOENT);
}

static const char crafted[] =
	"ffffffff81000100 t second\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000080 W weak_one\n"
	"ffffffff81000180 D some_data\n"
	"ffffffff81000200 T __sched_text_start\n"
	"ffffffff81000200 T schedule\n"
	"ffffffff81000300 T __sched_text_end\n"
	"ffffffff81000400 T last_core\n"
	"ffffffff81000500 T _etext\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffffc0001000 t nvme_irq\t[nvme]\n"
	"ffffffffc0001040 T nvme_probe\t[nvme]\n"
	"ffffffffc0200000 t ext4_fn\t[ext4]\n";

static void names_text_symbols(void **state)
{
	struct ksyms *k = NULL;
	const uint64_t(*ranges)[2];

	(void)state;
	assert_int_equal(load(crafted, &k), 0);
	assert_names(k, 0xffffffff81000000, "_stext", 0);
	assert_names(k, 0xffffffff81000090, "weak_one", 0x10);
	/* Data is not text: the function before it goes on. */
	assert_names(k, 0xffffffff81000190, "second", 0x90);
	assert_names(k, 0xffffffff81000250, "__sched_text_start", 0x50);
	assert_names(k, 0xffffffff810004ff, "last_core", 0xff);
	assert_names(k, 0xffffffffc0001044, "nvme_probe [nvme]", 4);
	assert_names(k, 0xffffffffc0200001, "ext4_fn [ext4]", 1);
	assert_unknown(k, 0xffffffff80ffffff);
	/* Past the last function of a module. */
	assert_unknown(k, 0xffffffffc0001040 + 65536);
	assert_true(ksyms_in_sched_text(k, 0xffffffff81000200));
	assert_true(ksyms_in_sched_text(k, 0xffffffff810002ff));
	assert_false(ksyms_in_sched_text(k, 0xffffffff81000300));
	assert_false(ksyms_in_sched_text(k, 0xffffffff81000100));
	/* Core text, _etext on, nvme, ext4. */
	assert_int_equal(ksyms_ranges(k, &ranges), 4);
	assert_int_equal(ranges[0][0], 0xffffffff81000000);
	assert_int_equal(ranges[0][1], 0xffffffff81000500);
	assert_int_equal(ranges[2][0], 0xffffffffc0001000);
	assert_int_equal(ranges[2][1], 0xffffffffc0001040 + 65536);
	assert_int_equal(ranges[3][0], 0xffffffffc0200000);
	/* Duplicates of an address kept once. */
	assert_int_equal(ksyms_count(k), 10);
	ksyms_free(k);
}

static void zero_addresses_are_eperm(void **state)
{
	struct ksyms *k = NULL;

	(void)state;
	assert_int_equal(load("0000000000000000 T _stext\n"
			      "0000000000000000 t vfs_read\n", &k), -EPERM);
	assert_int_equal(load("ffffffff81000180 D some_data\n", &k), -EINVAL);
	assert_int_equal(ksyms_load("/nonexistent/kallsyms", &k), -ENOENT);
	assert_null(k);
}

static void hostile_lines_skipped(void **state)
{
	struct ksyms *k = NULL;
	char *text = malloc(8192);
	char *p = text;

	(void)state;
	p += sprintf(p, "ffffffff81000000 T good\n");
	/* A line too long, whose tail (past the reader's 639 bytes) would
	 * read as a symbol. */
	p += sprintf(p, "ffffffff81000100 T long_");
	memset(p, 'x', 639 - 24);
	p += 639 - 24;
	p += sprintf(p, "ffffffff81000200 T tail_trick\n");
	p += sprintf(p, "ffffffff81000300 T bad\x1b[31mname\n");
	p += sprintf(p, "ffffffff81000400 T badmod\t[mod\n");
	p += sprintf(p, "ffffffff81000500 TT twochar\n");
	p += sprintf(p, "1ffffffff81000600 T toolong_addr\n");
	p += sprintf(p, "zzzz T nothex\n");
	p += sprintf(p, "ffffffff81000700 T\n");
	p += sprintf(p, "ffffffff81000800 T last_no_newline");
	assert_int_equal(load(text, &k), 0);
	free(text);
	assert_int_equal(ksyms_count(k), 2);
	assert_names(k, 0xffffffff81000250, "good", 0x250);
	assert_names(k, 0xffffffff81000801, "last_no_newline", 1);
	ksyms_free(k);
}

/* The address of name in /proc/kallsyms, read here independently. */
static uint64_t live_address(const char *name)
{
	char line[700], type, sym[600];
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %599s", &addr, &type, sym) == 3 &&
		    !strcmp(sym, name) && strchr("tT", type)) {
			found = addr;
			break;
		}
	fclose(f);
	return found;
}

static void live_kallsyms(void **state)
{
	struct ksyms *k = NULL;
	uint64_t vfs_read = live_address("vfs_read");
	uint64_t schedule = live_address("schedule");
	int r = ksyms_load("/proc/kallsyms", &k);

	(void)state;
	if (r == -EPERM || !vfs_read) {
		assert_int_not_equal(geteuid(), 0);
		skip();
	}
	assert_int_equal(r, 0);
	assert_true(ksyms_count(k) > 1000);
	assert_names(k, vfs_read, "vfs_read", 0);
	assert_names(k, vfs_read + 0x10, "vfs_read", 0x10);
	assert_true(ksyms_in_sched_text(k, schedule));
	assert_false(ksyms_in_sched_text(k, vfs_read));
	ksyms_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_text_symbols),
		cmocka_unit_test(zero_addresses_are_eperm),
		cmocka_unit_test(hostile_lines_skipped),
		cmocka_unit_test(live_kallsyms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
