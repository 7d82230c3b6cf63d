// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace clock events read: CLOCK_BOOTTIME ns, from the TSC where the
 * kernel keeps time with it (clocksource tsc, or kvm-clock with the
 * host's stable-TSC promise), else clock_gettime(). Checked against
 * clock_gettime() read around it, with re-anchoring forced every
 * millisecond, on every CPU in turn; no assertion on speed.
 */
#include "provider_test.h"

#include <sched.h>
#include <time.h>

#include "pvclock.h"

#define READS 1000000
/* Generous: a sample taken while the VM was descheduled skews a line. */
#define BOUND_NS 100000ull
#define RESPAN_NS 1000000ull

static uint64_t gettime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool file_has(const char *path, const char *word)
{
	char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, word) != NULL;
}

/* What libprovider/clock.c requires of the machine to use the TSC. */
static enum fxt_test_clock machine_clock(void)
{
#if defined(__x86_64__)
	static const char source[] =
		"/sys/devices/system/clocksource/clocksource0/"
		"current_clocksource";
	const volatile struct fxt_pvclock_page *p;
	struct fxt_pvclock pv;

	if (!file_has("/proc/cpuinfo", " constant_tsc") ||
	    !file_has("/proc/cpuinfo", " nonstop_tsc"))
		return FXT_TEST_CLOCK_GETTIME;
	if (file_has(source, "tsc\n"))
		return FXT_TEST_CLOCK_TSC;
	p = file_has(source, "kvm-clock") ? fxt_pvclock_find() : NULL;
	if (p && fxt_pvclock_read(p, &pv) &&
	    (pv.flags & FXT_PVCLOCK_TSC_STABLE_BIT))
		return FXT_TEST_CLOCK_KVM_TSC;
#endif
	return FXT_TEST_CLOCK_GETTIME;
}

static void start_trace(struct test_buffer *t)
{
	assert_int_equal(test_buffer_layout(t, 0, 1 << 16, false), 0);
	test_buffer_attach(t, FXT_BUFFERING_ONESHOT, "", -1);
}

/* n reads monotonic, and within bound of clock_gettime() around them. */
static void check_n_reads(uint64_t (*now)(void), uint64_t bound, int n)
{
	uint64_t prev = 0;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t before = gettime_ns();
		uint64_t t = now();
		uint64_t after = gettime_ns();

		if (t < prev)
			fail_msg("read %d went back %llu ns", i,
				 (unsigned long long)(prev - t));
		if (t + bound < before || t > after + bound)
			fail_msg("read %d: %llu not within %llu ns of "
				 "[%llu, %llu]", i, (unsigned long long)t,
				 (unsigned long long)bound,
				 (unsigned long long)before,
				 (unsigned long long)after);
		prev = t;
	}
}

static void check_reads(uint64_t (*now)(void), uint64_t bound)
{
	check_n_reads(now, bound, READS);
}

static uint64_t inline_now(void)
{
	return fxt_internal_now();
}

static void test_trace_clock(void **state)
{
	struct test_buffer t = { .fd = -1 };

	(void)state;
	unsetenv("FXTRACE_CLOCK");
	fxt_test_clock_reset(RESPAN_NS);
	start_trace(&t);
	assert_int_equal(fxt_test_clock_kind(), machine_clock());
	print_message("trace clock: %s\n", fxt_test_clock_name());
	check_reads(inline_now, BOUND_NS);
	check_reads(fxt_now, BOUND_NS);
	test_buffer_free(&t);
}

/* The next trace re-anchors and stays monotonic with the last one. */
static void test_trace_restart(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t before = fxt_now();

	(void)state;
	start_trace(&t);
	assert_true(fxt_now() >= before);
	check_reads(inline_now, BOUND_NS);
	test_buffer_free(&t);
	fxt_test_clock_reset(0);
}

/*
 * Pinned to each CPU in turn, 100 times over: one thread's reads stay
 * monotonic and near clock_gettime() across every migration.
 */
static void test_across_cpus(void **state)
{
	struct test_buffer t = { .fd = -1 };
	uint64_t prev = 0;
	cpu_set_t all, one;
	int round, cpu = -1;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	fxt_test_clock_reset(RESPAN_NS);
	start_trace(&t);
	for (round = 0; round < 100 * CPU_COUNT(&all); round++) {
		uint64_t before, now;

		do
			cpu = (cpu + 1) % CPU_SETSIZE;
		while (!CPU_ISSET(cpu, &all));
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
		before = gettime_ns();
		now = fxt_internal_now();
		if (now < prev)
			fail_msg("CPU %d: went back %llu ns", cpu,
				 (unsigned long long)(prev - now));
		if (now + BOUND_NS < before)
			fail_msg("CPU %d: %llu ns behind clock_gettime()", cpu,
				 (unsigned long long)(before - now));
		check_n_reads(inline_now, BOUND_NS, READS / 1000);
		prev = fxt_internal_now();
	}
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	test_buffer_free(&t);
	fxt_test_clock_reset(0);
}

static void test_gettime_forced(void **state)
{
	struct test_buffer t = { .fd = -1 };

	(void)state;
	setenv("FXTRACE_CLOCK", "gettime", 1);
	fxt_test_clock_reset(0);
	start_trace(&t);
	assert_false(fxt_test_clock_tsc());
	check_reads(inline_now, 0);
	test_buffer_free(&t);
	unsetenv("FXTRACE_CLOCK");
	fxt_test_clock_reset(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_clock),
		cmocka_unit_test(test_trace_restart),
		cmocka_unit_test(test_across_cpus),
		cmocka_unit_test(test_gettime_forced),
	};

	fxt_test_disable_transport();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
