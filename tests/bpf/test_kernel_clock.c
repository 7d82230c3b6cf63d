// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_clock.c: the boottime offset of /proc/PID/timens_offsets, and
 * the shift of every time a kernel record holds (timestamps, a raw
 * sample's word 2, sched_latency's wakeup_ts), word for word, leaving
 * untimed records and every other word as they were.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <fxt/ksample.h>
#include <fxt/sched.h>

#include "kernel_clock.h"
#include "check.h"

#define DAY_NS (86400ll * 1000000000ll)

static void check_offset(const char *text, int want_err, int64_t want)
{
	int64_t got = -1;
	int err = kernel_clock_parse_offsets(text, strlen(text), &got);

	CHECK(err == want_err, "\"%s\": %d, expected %d", text, err, want_err);
	if (!want_err)
		CHECK(got == want, "\"%s\": %" PRId64 ", expected %" PRId64,
		      text, got, want);
}

static void test_offsets(void)
{
	int64_t off = 1;

	check_offset("monotonic           0         0\n"
		     "boottime        86400         0\n",
		     0, DAY_NS);
	check_offset("monotonic 5 0\nboottime -86400 250\n", 0, -DAY_NS + 250);
	check_offset("boottime 0 999999999\n", 0, 999999999);
	check_offset("monotonic 5 0\n", -EINVAL, 0);
	check_offset("boottimes 1 0\n", -EINVAL, 0);
	check_offset("boottime 1 1000000000\n", -EINVAL, 0);
	check_offset("boottime x 0\n", -EINVAL, 0);
	check_offset("boottime 99999999999 0\n", -EINVAL, 0);
	CHECK(!kernel_clock_read_offset("/nonexistent/timens_offsets", &off) &&
		      !off,
	      "no file: offset %" PRId64 ", expected 0", off);
}

static void test_shift(void)
{
	__u64 buf[64] = { 0 }, want[64];
	size_t n = 0, sample, latency, name;

	fxt_sched_write_switch(buf + n, 1000, 0, FXT_THREAD_BLOCKED, 7, 8, 1024,
			       1024);
	n += FXT_SCHED_SWITCH_WORDS;
	name = n;
	fxt_sched_write_thread_object(buf + n, 7, 7, 3);
	memcpy(buf + n + 2, "abc", 3);
	n += fxt_sched_thread_words(3);
	latency = n;
	fxt_sched_write_latency(buf + n, 3000, 7, 7, 500, 2500);
	n += FXT_SCHED_LATENCY_WORDS;
	sample = n;
	fxt_ksample_write_head(buf + n, FXT_KSAMPLE_OFFCPU, 4000, 7, 7, 1, 1, 0,
			       0, 900);
	buf[n + FXT_KSAMPLE_HEAD_WORDS] = 0xffffffff81000000ull;
	n += fxt_ksample_words(1, 0, 0);
	memcpy(want, buf, sizeof(buf));
	want[1] += DAY_NS;
	want[latency + 1] += DAY_NS;
	want[latency + FXT_SCHED_LATENCY_WORDS - 1] += DAY_NS;
	want[sample + FXT_KSAMPLE_TS_WORD] += DAY_NS;

	kernel_clock_shift((uint64_t *)buf, n, DAY_NS);
	CHECK(!memcmp(buf, want, sizeof(buf)), "shifted records differ");
	CHECK(!memcmp(buf + name, want + name, 3 * 8), "the name moved");
	kernel_clock_shift((uint64_t *)buf, n, -DAY_NS);
	CHECK(buf[1] == 1000 && buf[latency + 7] == 2500 &&
		      buf[sample + 2] == 4000,
	      "back: %llu %llu %llu", (unsigned long long)buf[1],
	      (unsigned long long)buf[latency + 7],
	      (unsigned long long)buf[sample + 2]);
	/* A size past the end stops the walk: the words after stay. */
	memcpy(want, buf, sizeof(buf));
	kernel_clock_shift((uint64_t *)buf, FXT_SCHED_SWITCH_WORDS - 1, DAY_NS);
	CHECK(!memcmp(buf, want, sizeof(buf)), "a cut record was shifted");
}

int main(void)
{
	test_offsets();
	test_shift();
	return check_failures ? 1 : 0;
}
