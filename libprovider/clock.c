// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The trace clock: CLOCK_BOOTTIME in ns, the time base of the kernel side.
 *
 * clock_gettime() costs about two thirds of an inline event, rdtsc a
 * third of that. Where the kernel's own clocksource is the TSC, and the
 * TSC is invariant (constant_tsc, nonstop_tsc), events read the TSC and
 * scale it along a line fitted to clock_gettime(CLOCK_BOOTTIME):
 *
 *   ns = ns_base + (tsc - tsc_base) * mult >> 32
 *
 * The line is re-anchored at every trace start and whenever a reader
 * finds it older than SPAN_NS of TSC time (fxt_now(), out of line). A
 * re-anchor never steps back: it starts the new line where the old one
 * is and tilts it to meet clock_gettime() at the end of the next span,
 * with the TSC rate measured over the last span (NTP's slewing of
 * CLOCK_BOOTTIME is followed a span late). An error of more than STEP_NS
 * (a suspend, a clock step) is corrected by a step forward, or by
 * running at half rate until the kernel's clock catches up.
 *
 * Under kvm-clock the same line is used when the host promises a TSC
 * synchronised across vCPUs (PVCLOCK_TSC_STABLE_BIT in the pvclock page
 * the vDSO reads, pvclock.c): the kernel's own clock is then that TSC
 * scaled by the page's mul and shift, which give the first rate (no
 * 10 ms calibration). Every re-anchor reads the page again: without the
 * promise, clock_gettime() until the next trace start checks again; a
 * new version, mul or shift (a host update, a restored snapshot) starts
 * a new line at the page's rate.
 *
 * FXTRACE_CLOCK=gettime, another clocksource or another CPU: every read
 * is clock_gettime(), as the inline reader does when tsc_span is 0.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "macro.h"
#include "pvclock.h"
#include "test_hooks.h"

#define SPAN_NS 100000000ull		/* 100 ms between re-anchors */
#define CALIBRATION_NS 10000000ull	/* the first rate: over 10 ms */
#define STEP_NS 1000000ll		/* larger errors are not slewed */
#define SAMPLE_TRIES 5
#define SEQ_TRIES 1000

FXT_EXPORT struct fxt_internal_clock fxt_internal_clock_params;

struct sample {
	uint64_t tsc, ns;
};

/* Rules: everything below under clock_lock (written by its holder only). */
static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static enum fxt_test_clock kind; /* chosen at each trace start */
static bool tsc_active;		/* fxt_internal_clock_params is a TSC line */
static const volatile struct fxt_pvclock_page *pv_page; /* kvm-clock's */
static struct fxt_pvclock pv_last; /* as the line's rate was taken */
static unsigned int recalibrations;
/* Tests: a clocksource and a pvclock page in place of the machine's. */
static const char *fake_source;
static bool fake_invariant;
static const volatile struct fxt_pvclock_page *fake_page;
static uint64_t rate;		/* ns per tick << 32, measured */
static struct sample last;	/* the last re-anchor's clock_gettime() */
static uint64_t span_ns = SPAN_NS;

uint64_t fxt_clock_gettime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__)
static uint64_t read_tsc(void)
{
	return __builtin_ia32_rdtsc();
}

/* clock_gettime() and the TSC at the same moment: the tightest of a few. */
static struct sample take_sample(void)
{
	struct sample best = { 0, 0 };
	uint64_t best_window = UINT64_MAX;
	int i;

	for (i = 0; i < SAMPLE_TRIES; i++) {
		uint64_t t0 = read_tsc();
		uint64_t ns = fxt_clock_gettime_ns();
		uint64_t t1 = read_tsc();

		if (t1 - t0 < best_window) {
			best_window = t1 - t0;
			best.tsc = t0 + (t1 - t0) / 2;
			best.ns = ns;
		}
	}
	return best;
}

static bool file_has_word(const char *path, const char *prefix,
			  const char *word)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		for (p = strtok(line, " \t\n:"); p; p = strtok(NULL, " \t\n:"))
			if (!strcmp(p, word))
				found = true;
		break;
	}
	fclose(f);
	return found;
}

static bool invariant_tsc(void)
{
	if (fake_source)
		return fake_invariant;
	return file_has_word("/proc/cpuinfo", "flags", "constant_tsc") &&
	       file_has_word("/proc/cpuinfo", "flags", "nonstop_tsc");
}

static bool clocksource_is(const char *name)
{
	if (fake_source)
		return !strcmp(fake_source, name);
	return file_has_word("/sys/devices/system/clocksource/clocksource0/"
			     "current_clocksource",
			     "", name);
}

/*
 * kvm-clock, and its page says the TSC is one line: pv_page. A new line
 * takes the page's rate; a running one sees a change at its re-anchor.
 */
static bool kvm_tsc_usable(void)
{
	struct fxt_pvclock pv;

	pv_page = fake_source ? fake_page : fxt_pvclock_find();
	if (!pv_page || !fxt_pvclock_read(pv_page, &pv) ||
	    !fxt_pvclock_usable(&pv))
		return false;
	if (!tsc_active) {
		pv_last = pv;
		rate = fxt_pvclock_mult(&pv);
	}
	return true;
}

/* The kernel keeps time with an invariant TSC: so may we. */
static enum fxt_test_clock choose(void)
{
	const char *env = secure_getenv("FXTRACE_CLOCK");

	if ((env && !strcmp(env, "gettime")) || !invariant_tsc())
		return FXT_TEST_CLOCK_GETTIME;
	if (clocksource_is("tsc"))
		return FXT_TEST_CLOCK_TSC;
	if (clocksource_is("kvm-clock") && kvm_tsc_usable())
		return FXT_TEST_CLOCK_KVM_TSC;
	return FXT_TEST_CLOCK_GETTIME;
}
#else
static uint64_t read_tsc(void)
{
	return 0;
}

static struct sample take_sample(void)
{
	return (struct sample){ 0, fxt_clock_gettime_ns() };
}

static enum fxt_test_clock choose(void)
{
	return FXT_TEST_CLOCK_GETTIME;
}
#endif

/* Seqlock writer; readers: fxt_internal_now(), line_now(). */
static void publish(uint64_t tsc_base, uint64_t ns_base, uint64_t mult,
		    uint64_t span)
{
	struct fxt_internal_clock *c = &fxt_internal_clock_params;
	uint32_t seq = __atomic_load_n(&c->seq, __ATOMIC_RELAXED);

	__atomic_store_n(&c->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&c->tsc_base, tsc_base, __ATOMIC_RELAXED);
	__atomic_store_n(&c->ns_base, ns_base, __ATOMIC_RELAXED);
	__atomic_store_n(&c->mult, mult, __ATOMIC_RELAXED);
	__atomic_store_n(&c->tsc_span, span, __ATOMIC_RELAXED);
	__atomic_store_n(&c->seq, seq + 2, __ATOMIC_RELEASE);
}

static uint64_t line_at(const struct fxt_internal_clock *c, uint64_t tsc)
{
	uint64_t d = tsc - c->tsc_base;

	if ((int64_t)d < 0)
		d = 0;	/* a TSC read before the anchor */
	return c->ns_base + (uint64_t)(((unsigned __int128)d * c->mult) >> 32);
}

/*
 * The current line at the current TSC, however old the line is. An
 * update that does not end (this thread's own, interrupted by the signal
 * handler calling us) gives clock_gettime() after a while.
 */
static uint64_t line_now(void)
{
	const struct fxt_internal_clock *c = &fxt_internal_clock_params;
	struct fxt_internal_clock copy;
	int tries;

	for (tries = 0; tries < SEQ_TRIES; tries++) {
		uint32_t seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);

		copy.tsc_base = __atomic_load_n(&c->tsc_base, __ATOMIC_RELAXED);
		copy.ns_base = __atomic_load_n(&c->ns_base, __ATOMIC_RELAXED);
		copy.mult = __atomic_load_n(&c->mult, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) &&
		    __atomic_load_n(&c->seq, __ATOMIC_RELAXED) == seq)
			return line_at(&copy, read_tsc());
	}
	return fxt_clock_gettime_ns();
}

static uint64_t span_ticks(uint64_t mult)
{
	return (uint64_t)(((unsigned __int128)span_ns << 32) / mult);
}

static uint64_t rate_between(struct sample a, struct sample b)
{
	return (uint64_t)(((unsigned __int128)(b.ns - a.ns) << 32) /
			  (b.tsc - a.tsc));
}

/* A new line through clock_gettime() now; under clock_lock. */
static void anchor_exact(void)
{
	last = take_sample();
	publish(last.tsc, last.ns, rate, span_ticks(rate));
	tsc_active = true;
}

/* Continue the line where it is, aimed at clock_gettime(); under lock. */
static void reanchor(void)
{
	struct sample now = take_sample();
	const struct fxt_internal_clock *c = &fxt_internal_clock_params;
	int64_t err = (int64_t)(now.ns - line_at(c, now.tsc));
	uint64_t tsc, mult;

	if (now.ns - last.ns >= span_ns / 2 && now.tsc > last.tsc)
		rate = rate_between(last, now);
	last = now;
	if (err > STEP_NS) {
		publish(now.tsc, now.ns, rate, span_ticks(rate));
		return;
	}
	if (err < -STEP_NS)
		mult = rate / 2;
	else
		mult = (uint64_t)((__int128)rate +
				  (__int128)rate * err / (int64_t)span_ns);
	tsc = read_tsc();
	publish(tsc, line_at(c, tsc), mult, span_ticks(rate));
}

/*
 * The pvclock page changed: a new line at its rate, from where the old
 * one is if that is within STEP_NS ahead of clock_gettime() (never a step
 * back), else from clock_gettime() (the TSC itself jumped). Under lock.
 */
static void recalibrate(void)
{
	struct sample now = take_sample();
	uint64_t at = line_at(&fxt_internal_clock_params, now.tsc);
	int64_t err = (int64_t)(now.ns - at);

	rate = fxt_pvclock_mult(&pv_last);
	last = now;
	recalibrations++;
	if (err > 0 || err < -STEP_NS) {
		publish(now.tsc, now.ns, rate, span_ticks(rate));
		return;
	}
	publish(now.tsc, at,
		(uint64_t)((__int128)rate +
			   (__int128)rate * err / (int64_t)span_ns),
		span_ticks(rate));
}

/* Re-anchor; under kvm-clock, after reading the host's page. */
static void reanchor_checked(void)
{
	struct fxt_pvclock pv;

	if (kind != FXT_TEST_CLOCK_KVM_TSC) {
		reanchor();
	} else if (!fxt_pvclock_read(pv_page, &pv) ||
		   !fxt_pvclock_usable(&pv)) {
		tsc_active = false; /* the next trace start asks again */
		publish(0, 0, 0, 0);
	} else if (fxt_pvclock_changed(&pv_last, &pv)) {
		pv_last = pv;
		recalibrate();
	} else {
		reanchor();
	}
}

/* Slow path of fxt_internal_now(): clock_gettime(), or an old line. */
FXT_EXPORT uint64_t fxt_now(void)
{
	const struct fxt_internal_clock *c = &fxt_internal_clock_params;

	if (!__atomic_load_n(&c->tsc_span, __ATOMIC_RELAXED))
		return fxt_clock_gettime_ns();
	/* Whoever gets the lock re-anchors; the others read the old line. */
	if (!pthread_mutex_trylock(&clock_lock)) {
		if (tsc_active &&
		    read_tsc() - c->tsc_base >= c->tsc_span)
			reanchor_checked();
		pthread_mutex_unlock(&clock_lock);
	}
	return line_now();
}

static void calibrate(void)
{
	struct timespec wait = { .tv_nsec = CALIBRATION_NS };
	struct sample a = take_sample(), b;

	nanosleep(&wait, NULL);
	b = take_sample();
	rate = rate_between(a, b);
}

/*
 * A trace starts (in the background thread, before its session is
 * published): choose the clock again, measure the TSC rate the first
 * time (10 ms; kvm-clock's page gives it at once), re-anchor.
 */
void fxt_clock_trace_start(void)
{
	pthread_mutex_lock(&clock_lock);
	kind = choose();
	if (kind == FXT_TEST_CLOCK_GETTIME) {
		tsc_active = false;
		publish(0, 0, 0, 0);
	} else if (!rate) {
		calibrate();
		anchor_exact();
	} else if (!tsc_active) {
		anchor_exact();
	} else {
		reanchor_checked();
	}
	pthread_mutex_unlock(&clock_lock);
}

void fxt_clock_after_fork_child(void)
{
	pthread_mutex_init(&clock_lock, NULL);
}

bool fxt_test_clock_tsc(void)
{
	return __atomic_load_n(&fxt_internal_clock_params.tsc_span,
			       __ATOMIC_RELAXED) != 0;
}

enum fxt_test_clock fxt_test_clock_kind(void)
{
	enum fxt_test_clock k;

	pthread_mutex_lock(&clock_lock);
	k = tsc_active ? kind : FXT_TEST_CLOCK_GETTIME;
	pthread_mutex_unlock(&clock_lock);
	return k;
}

const char *fxt_test_clock_name(void)
{
	static const char *const names[] = {
		[FXT_TEST_CLOCK_GETTIME] = "clock_gettime",
		[FXT_TEST_CLOCK_TSC] = "TSC, clocksource tsc",
		[FXT_TEST_CLOCK_KVM_TSC] = "TSC, kvm-clock stable TSC",
	};

	return names[fxt_test_clock_kind()];
}

unsigned int fxt_test_clock_recalibrations(void)
{
	unsigned int n;

	pthread_mutex_lock(&clock_lock);
	n = recalibrations;
	pthread_mutex_unlock(&clock_lock);
	return n;
}

uint64_t fxt_test_clock_rate(void)
{
	uint64_t r;

	pthread_mutex_lock(&clock_lock);
	r = rate;
	pthread_mutex_unlock(&clock_lock);
	return r;
}

void fxt_test_clock_reset(uint64_t span)
{
	pthread_mutex_lock(&clock_lock);
	span_ns = span ? span : SPAN_NS;
	pthread_mutex_unlock(&clock_lock);
}

void fxt_test_clock_fake(const char *clocksource, bool invariant,
			 const volatile struct fxt_pvclock_page *page)
{
	pthread_mutex_lock(&clock_lock);
	fake_source = clocksource;
	fake_invariant = invariant;
	fake_page = page;
	pthread_mutex_unlock(&clock_lock);
}
