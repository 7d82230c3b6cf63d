// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JIT's jitdump (daemon/symbols/jitdump.c) on files built byte by byte
 * here: loads and a move give their ranges and names exactly, other
 * kinds are stepped over; a last record being written is counted and
 * the whole ones kept; a record of size 0, under its fields, past the
 * end or too large, a name without NUL, a move of nothing are counted;
 * a wrong or byte-swapped magic, a later version, a header larger than
 * the file are refused; names escaped as a perf map's are.
 */
#include <byteswap.h>
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "jitdump.h"
#include "perf_map_expect.h"

/* A file being built: its bytes, in this machine's order. */
struct buf {
	uint8_t b[1 << 16];
	size_t len;
};

static void put(struct buf *f, const void *p, size_t n)
{
	assert_true(f->len + n <= sizeof(f->b));
	memcpy(f->b + f->len, p, n);
	f->len += n;
}

static void put32(struct buf *f, uint32_t v)
{
	put(f, &v, sizeof(v));
}

static void put64(struct buf *f, uint64_t v)
{
	put(f, &v, sizeof(v));
}

/* magic, version, total_size, elf_mach, pad1, pid, timestamp, flags */
static void header(struct buf *f, uint32_t magic, uint32_t version,
		   uint32_t size)
{
	put32(f, magic);
	put32(f, version);
	put32(f, size);
	put32(f, 62);
	put32(f, 0);
	put32(f, 4242);
	put64(f, 1000);
	put64(f, 0);
}

static void prefix(struct buf *f, uint32_t id, uint32_t size)
{
	put32(f, id);
	put32(f, size);
	put64(f, 2000);
}

/* A load of name (with its NUL) and code bytes of code_size (up to 16). */
static void load(struct buf *f, uint64_t addr, uint64_t code_size,
		 uint64_t index, const char *name)
{
	static const uint8_t code[16] = { 0xc3 };
	size_t len = strlen(name) + 1,
	       bytes = code_size < sizeof(code) ? code_size : sizeof(code);

	prefix(f, 0, (uint32_t)(56 + len + bytes));
	put32(f, 4242);
	put32(f, 4243);
	put64(f, addr);
	put64(f, addr);
	put64(f, code_size);
	put64(f, index);
	put(f, name, len);
	put(f, code, bytes);
}

static void move(struct buf *f, uint64_t from, uint64_t to, uint64_t size,
		 uint64_t index)
{
	prefix(f, 1, 64);
	put32(f, 4242);
	put32(f, 4243);
	put64(f, to);
	put64(f, from);
	put64(f, to);
	put64(f, size);
	put64(f, index);
}

static struct perf_map *parse(const struct buf *f, int want,
			      struct jitdump_stats *st)
{
	struct perf_map *m;

	memset(st, 0, sizeof(*st));
	assert_int_equal(perf_map_new(&m), 0);
	assert_int_equal(jitdump_parse(m, f->b, f->len, st), want);
	assert_int_equal(perf_map_finish(m), 0);
	return m;
}

static void expect_counts(const struct jitdump_stats *st, uint64_t records,
			  uint64_t malformed, uint64_t truncated)
{
	assert_int_equal(st->records, records);
	assert_int_equal(st->malformed, malformed);
	assert_int_equal(st->truncated, truncated);
	assert_int_equal(st->refused, 0);
}

static void test_loads_and_move(void **state)
{
	static struct buf f;
	struct jitdump_stats st;
	struct perf_map_stats ms;
	struct perf_map *m;

	(void)state;
	f.len = 0;
	header(&f, JITDUMP_MAGIC, 1, 40);
	load(&f, 0x10000, 0x40, 7, "JS:*hotA /home/u/s.js:7:14");
	prefix(&f, 2, 16 + 24); /* debug info: stepped over */
	put64(&f, 0x10000);
	put64(&f, 0);
	put64(&f, 0);
	load(&f, 0x20000, 0x10, 8, "JS:*hotB /home/u/s.js:14:14");
	prefix(&f, 4, 16 + 8); /* unwinding info */
	put64(&f, 0);
	prefix(&f, 99, 16); /* a kind not known yet */
	move(&f, 0x10000, 0x30000, 0x40, 7);
	prefix(&f, 3, 16); /* close */
	m = parse(&f, 0, &st);
	expect_none(m, 0x10000);
	expect_none(m, 0x1003f);
	expect_none(m, 0x2ffff);
	expect_name(m, 0x30000, "JS:*hotA /home/u/s.js:7:14");
	expect_name(m, 0x3003f, "JS:*hotA /home/u/s.js:7:14");
	expect_none(m, 0x30040);
	expect_none(m, 0x1ffff);
	expect_name(m, 0x20000, "JS:*hotB /home/u/s.js:14:14");
	expect_name(m, 0x2000f, "JS:*hotB /home/u/s.js:14:14");
	expect_none(m, 0x20010);
	expect_counts(&st, 7, 0, 0);
	perf_map_stats(m, &ms);
	assert_int_equal(ms.entries, 2);
	assert_int_equal(ms.malformed, 0);
	perf_map_free(m);
}

static void test_truncated_tail(void **state)
{
	static struct buf f;
	struct jitdump_stats st;
	struct perf_map *m;
	size_t whole;

	(void)state;
	f.len = 0;
	header(&f, JITDUMP_MAGIC, 1, 40);
	load(&f, 0x1000, 0x100, 1, "first");
	load(&f, 0x2000, 0x100, 2, "second");
	whole = f.len;
	load(&f, 0x3000, 0x100, 3, "being written");
	f.len -= 5;
	m = parse(&f, 0, &st);
	expect_name(m, 0x1000, "first");
	expect_name(m, 0x20ff, "second");
	expect_none(m, 0x3000);
	expect_counts(&st, 2, 0, 1);
	perf_map_free(m);

	/* A prefix cut short, and a file whose header is being written. */
	f.len = whole + 10;
	m = parse(&f, 0, &st);
	expect_name(m, 0x2000, "second");
	expect_counts(&st, 2, 0, 1);
	perf_map_free(m);
	f.len = 20;
	m = parse(&f, 0, &st);
	expect_counts(&st, 0, 0, 1);
	perf_map_free(m);
}

/* A good load, then the bad record `bad` makes, then another good load. */
static struct perf_map *after_good(struct buf *f, void (*bad)(struct buf *),
				   struct jitdump_stats *st)
{
	f->len = 0;
	header(f, JITDUMP_MAGIC, 1, 40);
	load(f, 0x1000, 0x10, 1, "good");
	bad(f);
	load(f, 0x5000, 0x10, 5, "after");
	return parse(f, 0, st);
}

static void size_zero(struct buf *f)
{
	prefix(f, 0, 0);
}

static void size_under_prefix(struct buf *f)
{
	prefix(f, 1, 15);
}

static void size_huge(struct buf *f)
{
	prefix(f, 0, JITDUMP_RECORD_MAX + 1);
}

/* Under the bound: a record being written, whatever follows. */
static void size_past_end(struct buf *f)
{
	prefix(f, 0, 4096);
	put64(f, 0);
}

static void load_under_fields(struct buf *f)
{
	prefix(f, 0, 16 + 8);
	put64(f, 0);
}

static void name_no_nul(struct buf *f)
{
	prefix(f, 0, 56 + 4);
	put32(f, 1);
	put32(f, 1);
	put64(f, 0x3000);
	put64(f, 0x3000);
	put64(f, 0x10);
	put64(f, 3);
	put(f, "abcd", 4); /* the next record's bytes follow */
}

static void move_of_nothing(struct buf *f)
{
	move(f, 0x9000, 0xa000, 0x10, 42); /* no such code_index */
	move(f, 0x9000, 0xa000, 0x10, 1); /* code 1 is at 0x1000 */
	prefix(f, 1, 32); /* under its fields */
	put64(f, 0);
	put64(f, 0);
}

static const struct {
	void (*bad)(struct buf *f);
	bool after; /* the load after it named */
	uint64_t records, malformed, truncated;
} bad_cases[] = {
	/* Sizes that cannot be stepped over end the reading, counted. */
	{ size_zero, false, 1, 1, 0 },
	{ size_under_prefix, false, 1, 1, 0 },
	{ size_huge, false, 1, 1, 0 },
	{ size_past_end, false, 1, 0, 1 },
	/* Others are stepped over, counted. */
	{ load_under_fields, true, 3, 1, 0 },
	{ name_no_nul, true, 3, 1, 0 },
	{ move_of_nothing, true, 5, 3, 0 },
};

static void test_malformed(void **state)
{
	static struct buf f;
	struct jitdump_stats st;
	struct perf_map *m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		m = after_good(&f, bad_cases[i].bad, &st);
		expect_name(m, 0x1000, "good");
		expect_none(m, 0x3000);
		expect_none(m, 0xa000);
		if (bad_cases[i].after)
			expect_name(m, 0x5000, "after");
		else
			expect_none(m, 0x5000);
		expect_counts(&st, bad_cases[i].records, bad_cases[i].malformed,
			      bad_cases[i].truncated);
		perf_map_free(m);
	}
}

/* f refused whole with err, counted once, nothing named. */
static void expect_refused(const struct buf *f, int err)
{
	struct jitdump_stats st;
	struct perf_map_stats ms;
	struct perf_map *m = parse(f, err, &st);

	expect_none(m, 0x1000);
	assert_int_equal(st.refused, 1);
	assert_int_equal(st.records, 0);
	perf_map_stats(m, &ms);
	assert_int_equal(ms.entries, 0);
	perf_map_free(m);
}

/* A file of one load at 0x1000 behind a header of these. */
static void one_load(struct buf *f, uint32_t magic, uint32_t version,
		     uint32_t size)
{
	f->len = 0;
	header(f, magic, version, size);
	load(f, 0x1000, 0x10, 1, "never");
}

static void test_refused(void **state)
{
	static struct buf f;

	(void)state;
	one_load(&f, 0x44546949, 1, 40); /* a wrong magic */
	expect_refused(&f, -EBADMSG);
	one_load(&f, bswap_32(JITDUMP_MAGIC), 1, 40); /* the other order */
	expect_refused(&f, -EPROTO);
	one_load(&f, JITDUMP_MAGIC, 2, 40);
	expect_refused(&f, -EPROTONOSUPPORT);
	one_load(&f, JITDUMP_MAGIC, 1, 4096); /* larger than the file */
	expect_refused(&f, -EBADMSG);
	one_load(&f, JITDUMP_MAGIC, 1, 39); /* under its own fields */
	expect_refused(&f, -EBADMSG);
}

static void test_escaped_and_bounded(void **state)
{
	static struct buf f;
	static char longname[PERF_MAP_LINE_MAX + 1];
	struct jitdump_stats st;
	struct perf_map_stats ms;
	struct perf_map *m;

	(void)state;
	memset(longname, 'a', sizeof(longname) - 1);
	f.len = 0;
	header(&f, JITDUMP_MAGIC, 1, 48); /* a larger header: skipped */
	put64(&f, 0);
	load(&f, 0x1000, 0x10, 1, "caf\xc3\xa9 \x1b[31m\\\x7f\ttab");
	load(&f, 0x2000, 0, 2, "empty function");
	load(&f, 0x3000, 0x10, 3, longname);
	load(&f, 0xfffffffffffffff0, 0x20, 4, "past 2^64");
	m = parse(&f, 0, &st);
	expect_name(m, 0x100f, "caf\\xc3\\xa9 \\x1b[31m\\x5c\\x7f\\x09tab");
	expect_none(m, 0x2000);
	expect_none(m, 0x3000);
	expect_none(m, 0xfffffffffffffff0);
	assert_int_equal(st.records, 4);
	assert_int_equal(st.malformed, 0);
	perf_map_stats(m, &ms);
	assert_int_equal(ms.entries, 1);
	assert_int_equal(ms.too_long, 1);
	assert_int_equal(ms.malformed, 1);
	perf_map_free(m);
}

static void test_read_fd(void **state)
{
	static struct buf f;
	char path[] = "/tmp/test-jitdump-XXXXXX";
	struct jitdump_stats st = { 0 };
	struct perf_map *m;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	f.len = 0;
	header(&f, JITDUMP_MAGIC, 1, 40);
	load(&f, 0xa000, 0x20, 1, "from a file");
	assert_int_equal(write(fd, f.b, f.len), (ssize_t)f.len);
	assert_int_equal(perf_map_new(&m), 0);
	assert_int_equal(jitdump_read_fd(m, fd, &st), 0);
	expect_name(m, 0xa01f, "from a file");
	expect_none(m, 0xa020);
	assert_int_equal(st.records, 1);
	perf_map_free(m);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loads_and_move),
		cmocka_unit_test(test_truncated_tail),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_escaped_and_bounded),
		cmocka_unit_test(test_read_fd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
