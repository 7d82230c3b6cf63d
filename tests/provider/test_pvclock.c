// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace clock's choice under kvm-clock, on fake pvclock pages: the
 * TSC line only with the host's stable-TSC promise, at the page's rate
 * (word-exact); a re-anchor across a changed version, mul or shift
 * starts a new line at the new rate, and reads stay monotonic and near
 * clock_gettime(); a withdrawn promise gives clock_gettime().
 */
#include "provider_test.h"

#include <time.h>

#include "pvclock.h"

#define READS 200000
/* Generous: a sample taken while the VM was descheduled skews a line. */
#define BOUND_NS 100000ull
#define RESPAN_NS 1000000ull
#define DEADLINE_NS 20000000000ull

static struct fxt_pvclock_page page __attribute__((aligned(64)));
/* The machine's TSC rate as a pvclock mul and shift (shift 0 or 1). */
static uint32_t real_mul;
static int8_t real_shift;

static uint64_t gettime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t inline_now(void)
{
	return fxt_internal_now();
}

/* ns per tick << 32 over 50 ms, as mul and shift. */
static int measure_rate(void **state)
{
	struct timespec wait = { .tv_nsec = 50000000 };
	uint64_t t0 = __builtin_ia32_rdtsc(), n0 = gettime_ns(), mult;

	(void)state;
	nanosleep(&wait, NULL);
	mult = (uint64_t)(((unsigned __int128)(gettime_ns() - n0) << 32) /
			  (__builtin_ia32_rdtsc() - t0));
	real_shift = mult >> 32 ? 1 : 0;
	real_mul = (uint32_t)(mult >> real_shift);
	fxt_test_disable_transport();
	return 0;
}

static void set_page(uint32_t version, uint32_t mul, int8_t shift,
		     uint8_t flags)
{
	__atomic_store_n(&page.version, page.version | 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	page.tsc_to_system_mul = mul;
	page.tsc_shift = shift;
	page.flags = flags;
	__atomic_store_n(&page.version, version, __ATOMIC_RELEASE);
}

static uint64_t page_mult(void)
{
	return page.tsc_shift >= 0 ?
		       (uint64_t)page.tsc_to_system_mul << page.tsc_shift :
		       (uint64_t)page.tsc_to_system_mul >> -page.tsc_shift;
}

/* A trace started on the fake page (or clocksource): the clock chosen. */
static enum fxt_test_clock start_on(const char *source, bool invariant,
				    const struct fxt_pvclock_page *p)
{
	struct test_buffer t = { .fd = -1 };
	enum fxt_test_clock k;

	fxt_test_clock_fake(source, invariant, p);
	assert_int_equal(test_buffer_layout(&t, 0, 1 << 16, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	k = fxt_test_clock_kind();
	test_buffer_free(&t);
	return k;
}

static void test_decision(void **state)
{
	(void)state;
	unsetenv("FXTRACE_CLOCK");
	fxt_test_clock_reset(0);
	set_page(2, real_mul, real_shift, FXT_PVCLOCK_TSC_STABLE_BIT);
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_KVM_TSC);
	/* The page's rate, word for word: no calibration. */
	assert_int_equal(fxt_internal_clock_params.mult, page_mult());
	assert_int_equal(start_on("kvm-clock", false, &page),
			 FXT_TEST_CLOCK_GETTIME);
	assert_int_equal(start_on("kvm-clock", true, NULL),
			 FXT_TEST_CLOCK_GETTIME);
	assert_int_equal(start_on("hpet", true, &page), FXT_TEST_CLOCK_GETTIME);
	assert_int_equal(start_on("tsc", true, NULL), FXT_TEST_CLOCK_TSC);
	set_page(4, real_mul, real_shift, 0);
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_GETTIME);
	set_page(6, 0, real_shift, FXT_PVCLOCK_TSC_STABLE_BIT);
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_GETTIME);
	set_page(8, real_mul, 32, FXT_PVCLOCK_TSC_STABLE_BIT);
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_GETTIME);
	/* A host forever in the middle of an update. */
	set_page(9, real_mul, real_shift, FXT_PVCLOCK_TSC_STABLE_BIT);
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_GETTIME);
	set_page(10, real_mul, real_shift, FXT_PVCLOCK_TSC_STABLE_BIT);
	setenv("FXTRACE_CLOCK", "gettime", 1);
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_GETTIME);
	unsetenv("FXTRACE_CLOCK");
	assert_int_equal(start_on("kvm-clock", true, &page),
			 FXT_TEST_CLOCK_KVM_TSC);
}

/* Monotonic, and within bound of clock_gettime() read around it. */
static void check_reads(uint64_t (*now)(void), unsigned int n)
{
	uint64_t prev = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t before = gettime_ns();
		uint64_t t = now();
		uint64_t after = gettime_ns();

		if (t < prev)
			fail_msg("read %u went back %llu ns", i,
				 (unsigned long long)(prev - t));
		if (t + BOUND_NS < before || t > after + BOUND_NS)
			fail_msg("read %u: %llu not within %llu ns of "
				 "[%llu, %llu]",
				 i, (unsigned long long)t, BOUND_NS,
				 (unsigned long long)before,
				 (unsigned long long)after);
		prev = t;
	}
}

/* Read the clock until a re-anchor saw the page's change. */
static uint64_t wait_recalibrated(unsigned int before)
{
	uint64_t deadline = gettime_ns() + DEADLINE_NS, prev = fxt_now(), t;

	do {
		t = fxt_now();
		assert_true(t >= prev);
		prev = t;
		if (fxt_test_clock_recalibrations() != before)
			return t;
	} while (gettime_ns() < deadline);
	fail_msg("no re-anchor saw the new page in %llu s",
		 DEADLINE_NS / 1000000000ull);
	return 0;
}

static void test_reanchor_changed_page(void **state)
{
	struct test_buffer t = { .fd = -1 };
	unsigned int n;
	uint64_t before;

	(void)state;
	fxt_test_clock_reset(RESPAN_NS);
	set_page(2, real_mul, real_shift, FXT_PVCLOCK_TSC_STABLE_BIT);
	fxt_test_clock_fake("kvm-clock", true, &page);
	assert_int_equal(test_buffer_layout(&t, 0, 1 << 16, false), 0);
	test_buffer_attach(&t, FXT_BUFFERING_ONESHOT, "", -1);
	assert_int_equal(fxt_test_clock_kind(), FXT_TEST_CLOCK_KVM_TSC);
	check_reads(inline_now, READS);

	/* The same rate in another mul and shift (a restored snapshot). */
	n = fxt_test_clock_recalibrations();
	before = fxt_now();
	set_page(4, real_mul / 2, (int8_t)(real_shift + 1),
		 FXT_PVCLOCK_TSC_STABLE_BIT);
	assert_true(wait_recalibrated(n) >= before);
	assert_int_equal(fxt_test_clock_rate(), page_mult());
	check_reads(inline_now, READS);
	check_reads(fxt_now, READS);

	/* A new version alone: a new line too. */
	n = fxt_test_clock_recalibrations();
	set_page(6, real_mul / 2, (int8_t)(real_shift + 1),
		 FXT_PVCLOCK_TSC_STABLE_BIT);
	wait_recalibrated(n);
	assert_int_equal(fxt_test_clock_recalibrations(), n + 1);
	check_reads(inline_now, READS);

	/* The promise withdrawn: clock_gettime() at the next re-anchor. */
	set_page(8, real_mul / 2, (int8_t)(real_shift + 1), 0);
	before = gettime_ns();
	while (fxt_test_clock_tsc() && gettime_ns() - before < DEADLINE_NS)
		(void)fxt_now();
	assert_false(fxt_test_clock_tsc());
	assert_int_equal(fxt_test_clock_kind(), FXT_TEST_CLOCK_GETTIME);
	check_reads(inline_now, READS);
	test_buffer_free(&t);
	fxt_test_clock_fake(NULL, false, NULL);
	fxt_test_clock_reset(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decision),
		cmocka_unit_test(test_reanchor_changed_page),
	};

#if defined(__x86_64__)
	return cmocka_run_group_tests(tests, measure_rate, NULL);
#else
	(void)tests;
	return 77; /* skipped: no TSC */
#endif
}
