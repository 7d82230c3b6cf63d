// SPDX-License-Identifier: GPL-2.0-only
/*
 * An archive's host and clock records (daemon/archive/host_clock.h): taken
 * only from the manager's provider and only whole, strings sanitized,
 * and the map between trace time and wall time exact at the readings,
 * on the line between them, saturating past the ends.
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

#include "host_clock.h"
#include "test_support.h"

#define MACHINE "0123456789abcdef0123456789abcdef"
#define BOOT "01234567-89ab-cdef-0123-456789abcdef"
#define TRACE "fedcba9876543210fedcba9876543210"

static const struct fxt_clock_reading start = {
	.boottime = 1000000000ull,
	.monotonic = 900000000ull,
	.realtime = 1700000000000000000ull,
	.error_ns = 40,
};

/* 10 s later; REALTIME ran 10 us (1 ppm) faster. */
static const struct fxt_clock_reading stop = {
	.boottime = 11000000000ull,
	.monotonic = 10900000000ull,
	.realtime = 1700000010000010000ull,
	.error_ns = 60,
};

static void write_instant(struct fxt_writer *w, const char *category,
			  const char *name, const struct fxt_arg_in *args,
			  unsigned int nargs)
{
	const struct fxt_writer_event ev = {
		.ts = 5,
		.thread = fxt_wthread(0, 0),
		.category = fxt_wstr(category),
		.name = fxt_wstr(name),
		.args = args,
		.nargs = nargs,
	};

	assert_int_equal(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD), 0);
}

static void write_host(struct fxt_writer *w, const char *hostname)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr("machine_id"), fxt_wstr(MACHINE)),
		fxt_warg_string(fxt_wstr("boot_id"), fxt_wstr(BOOT)),
		fxt_warg_string(fxt_wstr("hostname"), fxt_wstr(hostname)),
		fxt_warg_string(fxt_wstr("kernel"), fxt_wstr("6.1.0-test")),
		fxt_warg_string(fxt_wstr("trace_id"), fxt_wstr(TRACE)),
	};

	write_instant(w, "fxtrace", "host", args, 5);
}

static void write_clock(struct fxt_writer *w, const char *at,
			const struct fxt_clock_reading *c)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_uint64(fxt_wstr("boottime"), c->boottime),
		fxt_warg_uint64(fxt_wstr("monotonic"), c->monotonic),
		fxt_warg_uint64(fxt_wstr("realtime"), c->realtime),
		fxt_warg_uint64(fxt_wstr("error_ns"), c->error_ns),
		fxt_warg_string(fxt_wstr("at"), fxt_wstr(at)),
	};

	write_instant(w, "fxtrace", "clock", args, 5);
}

static void begin(struct fxt_writer *w, uint32_t id, const char *provider)
{
	assert_int_equal(
		fxt_write_provider_info(w, id, provider, strlen(provider)), 0);
	assert_int_equal(fxt_write_init(w, 1000000000), 0);
}

/* Reads w's records into hc; returns how many were taken. */
static unsigned int take_all(struct fxt_writer *w, struct fxt_host_clock *hc)
{
	struct fxt_reader *r = fxt_reader_open_mem(fxt_writer_data(w),
						   fxt_writer_size(w), NULL);
	struct fxt_record rec;
	unsigned int taken = 0;

	assert_non_null(r);
	memset(hc, 0, sizeof(*hc));
	while (fxt_reader_next(r, &rec) > 0)
		taken += (unsigned int)fxt_host_clock_take(hc, &rec);
	fxt_reader_close(r);
	return taken;
}

static void assert_reading(const struct fxt_clock_reading *got,
			   const struct fxt_clock_reading *want)
{
	assert_int_equal(got->boottime, want->boottime);
	assert_int_equal(got->monotonic, want->monotonic);
	assert_int_equal(got->realtime, want->realtime);
	assert_int_equal(got->error_ns, want->error_ns);
}

static void test_take_records(void **state)
{
	struct fxt_host_clock hc;
	struct fxt_writer w;

	(void)state;
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	begin(&w, 3, "fxtraced");
	write_host(&w, "node-1.example");
	write_clock(&w, "start", &start);
	write_instant(&w, "fxtrace", "command", NULL, 0);
	write_clock(&w, "stop", &stop);
	assert_int_equal(take_all(&w, &hc), 3);
	assert_true(hc.has_host && hc.has_start && hc.has_stop);
	assert_string_equal(hc.machine_id, MACHINE);
	assert_string_equal(hc.boot_id, BOOT);
	assert_string_equal(hc.hostname, "node-1.example");
	assert_string_equal(hc.kernel, "6.1.0-test");
	assert_string_equal(hc.trace_id, TRACE);
	assert_reading(&hc.start, &start);
	assert_reading(&hc.stop, &stop);
	fxt_writer_release(&w);
}

/* First host and start are kept, the last stop; others are not ours. */
static void test_which_are_kept(void **state)
{
	const struct fxt_clock_reading later = { 1, 2, 3, 4 };
	struct fxt_host_clock hc;
	struct fxt_writer w;

	(void)state;
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	begin(&w, 1, "app");
	write_host(&w, "impostor");
	write_clock(&w, "start", &later);
	begin(&w, 2, "fxtraced");
	write_instant(&w, "other", "clock", NULL, 0);
	write_host(&w, "first");
	write_clock(&w, "start", &start);
	write_clock(&w, "stop", &later);
	write_host(&w, "second");
	write_clock(&w, "start", &later);
	write_clock(&w, "stop", &stop);
	assert_int_equal(take_all(&w, &hc), 6);
	assert_string_equal(hc.hostname, "first");
	assert_reading(&hc.start, &start);
	assert_reading(&hc.stop, &stop);
	fxt_writer_release(&w);
}

/* A reading with an argument missing, mistyped or a bad "at": not one. */
static void test_broken_clock_not_taken(void **state)
{
	const struct fxt_arg_in mistyped[] = {
		fxt_warg_int64(fxt_wstr("boottime"), 1),
		fxt_warg_uint64(fxt_wstr("monotonic"), 2),
		fxt_warg_uint64(fxt_wstr("realtime"), 3),
		fxt_warg_uint64(fxt_wstr("error_ns"), 4),
		fxt_warg_string(fxt_wstr("at"), fxt_wstr("start")),
	};
	struct fxt_arg_in bad_at[5];
	struct fxt_host_clock hc;
	struct fxt_writer w;

	(void)state;
	memcpy(bad_at, mistyped, sizeof(bad_at));
	bad_at[0] = fxt_warg_uint64(fxt_wstr("boottime"), 1);
	bad_at[4] = fxt_warg_string(fxt_wstr("at"), fxt_wstr("starts"));
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	begin(&w, 2, "fxtraced");
	write_instant(&w, "fxtrace", "clock", mistyped, 5);
	write_instant(&w, "fxtrace", "clock", bad_at, 5);
	write_instant(&w, "fxtrace", "clock", bad_at, 4);
	assert_int_equal(take_all(&w, &hc), 0);
	assert_false(hc.has_start || hc.has_stop || hc.has_host);
	fxt_writer_release(&w);
}

/* Escapes, bytes past ASCII, too long, mistyped: empty, the rest kept. */
static void test_hostile_strings(void **state)
{
	static const char long_name[] =
		"a123456789b123456789c123456789d123456789"
		"e123456789f123456789g1234";
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr("machine_id"), fxt_wstr(MACHINE "0")),
		fxt_warg_string(fxt_wstr("boot_id"), fxt_wstr("\x1b[2Jboom")),
		fxt_warg_string(fxt_wstr("hostname"), fxt_wstr(long_name)),
		fxt_warg_string(fxt_wstr("kernel"), fxt_wstr("caf\xc3\xa9")),
		fxt_warg_uint64(fxt_wstr("trace_id"), 7),
	};
	const struct fxt_arg_in fits[] = {
		fxt_warg_string(fxt_wstr("hostname"),
				fxt_wstr_len(long_name, 64)),
		fxt_warg_string(fxt_wstr("kernel"), fxt_wstr("a\tb")),
		fxt_warg_string(fxt_wstr("machine_id"), fxt_wstr("a\x7f")),
		fxt_warg_string(fxt_wstr("boot_id"), fxt_wstr("~ !")),
	};
	struct fxt_host_clock hc;
	struct fxt_writer w;

	(void)state;
	assert_int_equal(strlen(long_name), 65);
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	begin(&w, 2, "fxtraced");
	write_instant(&w, "fxtrace", "host", args, 5);
	assert_int_equal(take_all(&w, &hc), 1);
	assert_true(hc.has_host);
	assert_string_equal(hc.machine_id, "");
	assert_string_equal(hc.boot_id, "");
	assert_string_equal(hc.hostname, "");
	assert_string_equal(hc.kernel, "");
	assert_string_equal(hc.trace_id, "");
	fxt_writer_release(&w);

	fxt_writer_init(&w);
	begin(&w, 2, "fxtraced");
	write_instant(&w, "fxtrace", "host", fits, 4);
	assert_int_equal(take_all(&w, &hc), 1);
	assert_memory_equal(hc.hostname, long_name, 64);
	assert_int_equal(hc.hostname[64], '\0');
	assert_string_equal(hc.kernel, "");
	assert_string_equal(hc.machine_id, "");
	assert_string_equal(hc.boot_id, "~ !");
	fxt_writer_release(&w);
}

static struct fxt_host_clock both(void)
{
	return (struct fxt_host_clock){
		.has_start = true,
		.has_stop = true,
		.start = start,
		.stop = stop,
	};
}

/* Exact at both readings and on the line between and past them. */
static void test_map_on_the_line(void **state)
{
	const struct fxt_host_clock hc = both();
	double ppm;

	(void)state;
	assert_int_equal(fxt_host_clock_to_realtime(&hc, start.boottime),
			 start.realtime);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, stop.boottime),
			 stop.realtime);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 6000000000ull),
			 1700000005000005000ull);
	/* 1 s before the start: 1 us more before it */
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 0),
			 1699999998999999000ull);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 21000000000ull),
			 1700000020000020000ull);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, start.realtime),
			 start.boottime);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, stop.realtime),
			 stop.boottime);
	assert_int_equal(fxt_host_clock_from_realtime(&hc,
						      1700000005000005000ull),
			 6000000000ull);
	/* to the nearest ns: 499999.499999 down, 500000.5 up */
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 1000499999ull),
			 1700000000000499999ull);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 1000500000ull),
			 1700000000000500001ull);
	assert_true(fxt_host_clock_drift_ppm(&hc, &ppm));
	assert_true(ppm > 0.999 && ppm < 1.001);
}

/* One reading, or a stop not after the start: the offset alone. */
static void test_map_by_offset(void **state)
{
	struct fxt_host_clock hc = both();
	const uint64_t offset = start.realtime - start.boottime;
	double ppm;

	(void)state;
	hc.has_stop = false;
	assert_int_equal(fxt_host_clock_to_realtime(&hc, stop.boottime),
			 stop.boottime + offset);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, offset + 5), 5);
	assert_false(fxt_host_clock_drift_ppm(&hc, &ppm));
	hc.has_stop = true;
	hc.stop.realtime = start.realtime;
	assert_int_equal(fxt_host_clock_to_realtime(&hc, stop.boottime),
			 stop.boottime + offset);
	hc = both();
	hc.has_start = false;
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 7),
			 7 + stop.realtime - stop.boottime);
	memset(&hc, 0, sizeof(hc));
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 42), 42);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, 42), 42);
}

/* Past the ends of uint64 and with a hostile slope: saturated. */
static void test_map_saturates(void **state)
{
	struct fxt_host_clock hc = both();

	(void)state;
	assert_int_equal(fxt_host_clock_to_realtime(&hc, UINT64_MAX),
			 UINT64_MAX);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, 0), 0);
	hc.start = (struct fxt_clock_reading){ .boottime = 10, .realtime = 0 };
	hc.stop = (struct fxt_clock_reading){ .boottime = 11,
					      .realtime = UINT64_MAX };
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 10), 0);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 11), UINT64_MAX);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, UINT64_MAX),
			 UINT64_MAX);
	assert_int_equal(fxt_host_clock_to_realtime(&hc, 0), 0);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, UINT64_MAX), 11);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, 0), 10);
	hc.start.boottime = 0;
	hc.stop.boottime = UINT64_MAX;
	hc.stop.realtime = 1;
	assert_int_equal(fxt_host_clock_to_realtime(&hc, UINT64_MAX), 1);
	assert_int_equal(fxt_host_clock_from_realtime(&hc, UINT64_MAX),
			 UINT64_MAX);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void test_scan(void **state)
{
	char path[] = "/tmp/test_host_clock.XXXXXX";
	struct fxt_host_clock hc;
	struct fxt_writer w;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	fxt_writer_init(&w);
	fxt_write_magic(&w);
	begin(&w, 2, "fxtraced");
	write_host(&w, "scanned");
	write_clock(&w, "start", &start);
	write_file(path, fxt_writer_data(&w), fxt_writer_size(&w));
	assert_int_equal(fxt_host_clock_scan(path, &hc), 0);
	assert_string_equal(hc.hostname, "scanned");
	assert_true(hc.has_start && !hc.has_stop);
	fxt_writer_release(&w);

	fxt_writer_init(&w);
	sample_archive(&w);
	write_file(path, fxt_writer_data(&w), fxt_writer_size(&w));
	assert_int_equal(fxt_host_clock_scan(path, &hc), -ENODATA);
	assert_false(hc.has_host);
	fxt_writer_release(&w);

	write_file(path, "not an archive at all, words of text\n", 37);
	assert_int_equal(fxt_host_clock_scan(path, &hc), -EBADMSG);
	unlink(path);
	assert_int_equal(fxt_host_clock_scan(path, &hc), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_records),
		cmocka_unit_test(test_which_are_kept),
		cmocka_unit_test(test_broken_clock_not_taken),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_map_on_the_line),
		cmocka_unit_test(test_map_by_offset),
		cmocka_unit_test(test_map_saturates),
		cmocka_unit_test(test_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
