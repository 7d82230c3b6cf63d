// SPDX-License-Identifier: GPL-2.0-only
/*
 * provider_bench: what a trace event costs the application.
 *
 *   provider_bench [--runs R] [--events N] [--only NAME] [--no-lttng]
 *
 * Prints the median over R runs (default 7) of ns per event (thread CPU
 * time, so that time spent descheduled on a busy machine is left out) for: a
 * disabled call site, an enabled instant and scoped duration (interned
 * strings, 2 int32 arguments; and an instant named by TRACE_DYN(), interned
 * already), on one thread and on two at once, the
 * trace clock as events read it (TSC or clock_gettime, see
 * libprovider/clock.c), and the same-run references:
 * clock_gettime(CLOCK_BOOTTIME) and, when built with
 * lttng-ust and run as root with lttng-tools installed, an LTTng-UST
 * tracepoint with 2 int fields recorded by an active session. NAME (one
 * of the row keys) runs only that row, for `perf stat -e instructions`.
 *
 * The fxtrace buffer is set up in-process (no manager), oneshot, large
 * enough that nothing is dropped; the library maps it with MAP_POPULATE
 * as it does for a manager's buffer, so page faults are not measured. A
 * fresh buffer per run, as a trace gets it: the library writes its first
 * pages once at the start (up to 10 ms of them, its 2 MiB ranges made
 * huge pages where the kernel allows), and the rest in a thread beside
 * the loop, as the library's background thread does during a trace
 * (libprovider/buffer.c); that thread's CPU time per event is printed
 * beside the row. The "touched" row writes every page once before its
 * loop (the background thread done: a long trace); "start only" leaves
 * the rest to the writer (a background thread that does not keep up).
 * Also measured, each run: the first user-mode write to each 4 KiB page
 * of a new MAP_POPULATE mapping of a memfd, and a second write (thread
 * CPU time); and how many 2 MiB ranges of a buffer were made huge pages.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>
#include "buffer.h"
#include "clock.h"
#include "test_hooks.h"
#include "loops_cxx.h"

#ifdef HAVE_LTTNG_UST
#include "lttng_tp.h"
#endif

#define RUNS_MAX 99
#define PAGE_PAGES 1024		/* 4 MiB mapped per page measurement */

static unsigned int runs = 7;
static double page_first[RUNS_MAX], page_again[RUNS_MAX];
static uint64_t ranges_made_huge, ranges_whole;
static unsigned long events = 1000000;
static const char *only;

/*
 * CPU time of the calling thread: the machine is shared, and time spent
 * descheduled is not the cost of an event.
 */
static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the measured loops (noinline: one call per event, as in apps) -- */

/* loop_instant(), loop_duration(): shared with the C++ rows. */
#define LOOP(name) static __attribute__((noinline)) void loop_##name
#include "loops.h"

static __attribute__((noinline)) void loop_disabled(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		TRACE_INSTANT("bench.off", "instant", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I32("a", (int32_t)i),
			      TRACE_ARG_I32("b", (int32_t)(2 * i)));
}

static __attribute__((noinline)) void loop_clock(unsigned long n)
{
	unsigned long i;
	uint64_t sum = 0;

	for (i = 0; i < n; i++)
		sum += fxt_clock_gettime_ns();
	__asm__ volatile("" : : "r"(sum));
}

/* The clock events read inline, while a trace runs (TSC or gettime). */
static __attribute__((noinline)) void loop_trace_clock(unsigned long n)
{
	unsigned long i;
	uint64_t sum = 0;

	for (i = 0; i < n; i++)
		sum += fxt_internal_now();
	__asm__ volatile("" : : "r"(sum));
}

#ifdef HAVE_LTTNG_UST
static __attribute__((noinline)) void loop_lttng(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		tracepoint(fxtbench, event, (int)i, (int)(2 * i));
}

static __attribute__((noinline)) void loop_lttng_off(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		tracepoint(fxtbench, off, (int)i, (int)(2 * i));
}
#endif

/* ---- runs ----------------------------------------------------------- */

struct buffer {
	int fd;
	uint64_t size;
	struct fxt_buffer *b;
};

static int buffer_attach(struct buffer *buf, unsigned long n, unsigned int threads)
{
	struct fxt_buffer_header *h;

	/* 40 bytes per complete event; strings and thread records besides. */
	buf->size = FXT_BUFFER_HEADER_SIZE + (1 << 20) + 48ull * n * threads;
	buf->fd = memfd_create("provider-bench", MFD_CLOEXEC);
	if (buf->fd < 0 || ftruncate(buf->fd, (off_t)buf->size) < 0)
		return -errno;
	h = mmap(NULL, FXT_BUFFER_HEADER_SIZE, PROT_READ | PROT_WRITE,
		 MAP_SHARED, buf->fd, 0);
	if (h == MAP_FAILED)
		return -errno;
	h->total_size = buf->size;
	h->durable_offset = FXT_BUFFER_HEADER_SIZE;
	h->durable_size = 1 << 20;
	h->rolling_offset[0] = FXT_BUFFER_HEADER_SIZE + (1 << 20);
	h->rolling_size = buf->size - h->rolling_offset[0];
	h->chunk_size = 4096;
	munmap(h, FXT_BUFFER_HEADER_SIZE);
	buf->b = fxt_test_attach(buf->fd, buf->size, FXT_BUFFERING_ONESHOT,
				 "bench", -1);
	return buf->b ? 0 : -EINVAL;
}

static uint64_t buffer_detach(struct buffer *buf)
{
	uint64_t dropped;

	fxt_test_stop(buf->b);
	dropped = buf->b->hdr->records_dropped;
	fxt_test_detach(buf->b);	/* closes the memfd */
	return dropped;
}

typedef void (*loop_fn)(unsigned long n);

struct thread_run {
	loop_fn loop;
	unsigned long n;
	pthread_barrier_t *go;
	double ns;
};

static void *thread_main(void *arg)
{
	struct thread_run *r = arg;
	double t0;

	/* A first event outside the timing: thread and name records. */
	r->loop(1);
	pthread_barrier_wait(r->go);
	t0 = thread_cpu_ns();
	r->loop(r->n);
	r->ns = (thread_cpu_ns() - t0) / r->n;
	return NULL;
}

/* ns per event on each of `threads` threads running loop at once. */
static double run_threads(loop_fn loop, unsigned long n, unsigned int threads)
{
	struct thread_run r[2];
	pthread_barrier_t go;
	pthread_t th[2];
	unsigned int k;
	double sum = 0;

	pthread_barrier_init(&go, NULL, threads);
	for (k = 0; k < threads; k++) {
		r[k] = (struct thread_run){ .loop = loop, .n = n, .go = &go };
		if (pthread_create(&th[k], NULL, thread_main, &r[k])) {
			fprintf(stderr, "provider_bench: pthread_create failed\n");
			exit(1);
		}
	}
	for (k = 0; k < threads; k++) {
		pthread_join(th[k], NULL);
		sum += r[k].ns;
	}
	pthread_barrier_destroy(&go);
	return sum / threads;
}

struct toucher {
	struct fxt_buffer *b;
	double ns;	/* its thread CPU time */
};

static void *toucher_main(void *arg)
{
	struct toucher *t = arg;
	double t0 = thread_cpu_ns();

	fxt_test_touch(t->b, false);
	t->ns = thread_cpu_ns() - t0;
	return NULL;
}

enum touch { TOUCH_BESIDE, TOUCH_BEFORE, TOUCH_START_ONLY };

/*
 * One run of an fxtrace row: fresh buffer (traced) or none (disabled).
 * A fresh buffer's pages are written once more by a thread beside the
 * loop as the background thread does (TOUCH_BESIDE; its CPU time per
 * event in *beside_ns), or by the library before the loop
 * (TOUCH_BEFORE), or only by the start and the writers.
 */
static double run_fxt(loop_fn loop, unsigned long n, unsigned int threads,
		      bool traced, enum touch touch, double *beside_ns)
{
	struct buffer buf = { .fd = -1 };
	struct toucher t = { 0 };
	pthread_t toucher;
	double ns;

	if (traced && buffer_attach(&buf, n, threads) < 0) {
		fprintf(stderr, "provider_bench: cannot set up a buffer: %s\n",
			strerror(errno));
		exit(1);
	}
	if (traced && touch == TOUCH_BEFORE)
		fxt_test_touch(buf.b, false);
	t.b = buf.b;
	if (traced && touch == TOUCH_BESIDE &&
	    pthread_create(&toucher, NULL, toucher_main, &t))
		exit(1);
	ns = run_threads(loop, n, threads);
	if (traced && touch == TOUCH_BESIDE)
		pthread_join(toucher, NULL);
	*beside_ns = t.ns / ((double)n * threads);
	if (traced) {
		ranges_made_huge = fxt_test_collapsed(buf.b);
		ranges_whole = buf.size / (2u << 20);
	}
	if (traced && buffer_detach(&buf)) {
		fprintf(stderr, "provider_bench: events were dropped; the "
				"buffer is too small\n");
		exit(1);
	}
	return ns;
}

struct row {
	const char *key;
	const char *what;
	loop_fn loop;
	unsigned int threads;
	bool traced;		/* fxtrace buffer attached */
	enum touch touch;	/* its pages written once beside, before */
	bool lttng;		/* the LTTng-UST peer */
	unsigned long scale;	/* events multiplier (cheap rows) */
	double ns[RUNS_MAX];
	double beside_ns[RUNS_MAX];	/* the toucher's CPU per event */
	double median, beside_median;
	bool selected;
};

#ifndef HAVE_LTTNG_UST
#define loop_lttng NULL
#define loop_lttng_off NULL
#endif

static struct row rows[] = {
	{ .key = "clock", .what = "clock_gettime(CLOCK_BOOTTIME), vDSO",
	  .loop = loop_clock, .threads = 1, .scale = 1 },
	{ .key = "now", .what = "trace clock read by events (during a trace)",
	  .loop = loop_trace_clock, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "disabled", .what = "disabled TRACE_INSTANT, 1 thread",
	  .loop = loop_disabled, .threads = 1, .scale = 100 },
	{ .key = "disabled2", .what = "disabled TRACE_INSTANT, 2 threads",
	  .loop = loop_disabled, .threads = 2, .scale = 100 },
	{ .key = "instant", .what = "TRACE_INSTANT 2 int args, 1 thread",
	  .loop = loop_instant, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "instant_touched", .what = "TRACE_INSTANT 2 int args, 1 thread, touched",
	  .loop = loop_instant, .threads = 1, .traced = true,
	  .touch = TOUCH_BEFORE, .scale = 1 },
	{ .key = "instant_start_only", .what = "TRACE_INSTANT 2 int args, 1 thread, start only",
	  .loop = loop_instant, .threads = 1, .traced = true,
	  .touch = TOUCH_START_ONLY, .scale = 1 },
	{ .key = "instant_dyn", .what = "TRACE_INSTANT TRACE_DYN name, 1 thread",
	  .loop = loop_instant_dyn, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "instant2", .what = "TRACE_INSTANT 2 int args, 2 threads",
	  .loop = loop_instant, .threads = 2, .traced = true, .scale = 1 },
	{ .key = "duration", .what = "TRACE_DURATION (complete) 2 int args, 1 thread",
	  .loop = loop_duration, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "duration2", .what = "TRACE_DURATION (complete) 2 int args, 2 threads",
	  .loop = loop_duration, .threads = 2, .traced = true, .scale = 1 },
	{ .key = "instant_cxx", .what = "TRACE_INSTANT 2 int args, 1 thread, C++",
	  .loop = loop_instant_cxx, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "instant_dyn_cxx", .what = "TRACE_INSTANT TRACE_DYN name, 1 thread, C++",
	  .loop = loop_instant_dyn_cxx, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "duration_cxx", .what = "TRACE_DURATION 2 int args, 1 thread, C++",
	  .loop = loop_duration_cxx, .threads = 1, .traced = true, .scale = 1 },
	{ .key = "lttng", .what = "LTTng-UST tracepoint 2 int fields, 1 thread",
	  .loop = loop_lttng, .threads = 1, .lttng = true, .scale = 1 },
	{ .key = "lttng2", .what = "LTTng-UST tracepoint 2 int fields, 2 threads",
	  .loop = loop_lttng, .threads = 2, .lttng = true, .scale = 1 },
	{ .key = "lttng_off", .what = "LTTng-UST tracepoint disabled, 1 thread",
	  .loop = loop_lttng_off, .threads = 1, .lttng = true, .scale = 100 },
	{ .key = "lttng_off2", .what = "LTTng-UST tracepoint disabled, 2 threads",
	  .loop = loop_lttng_off, .threads = 2, .lttng = true, .scale = 100 },
};

#define ROWS (sizeof(rows) / sizeof(rows[0]))

static void touch_pages(volatile uint8_t *p)
{
	unsigned int i;

	for (i = 0; i < PAGE_PAGES; i++)
		__atomic_fetch_add((uint32_t *)(p + i * 4096ul), 0,
				   __ATOMIC_RELAXED);
}

/* ns of thread CPU time per page: first and second write, new mapping. */
static void measure_pages(unsigned int run)
{
	size_t size = PAGE_PAGES * 4096ul;
	int fd = memfd_create("provider-bench-pages", MFD_CLOEXEC);
	uint8_t *p;
	double t0, t1, t2;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		exit(1);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		 fd, 0);
	if (p == MAP_FAILED)
		exit(1);
	t0 = thread_cpu_ns();
	touch_pages(p);
	t1 = thread_cpu_ns();
	touch_pages(p);
	t2 = thread_cpu_ns();
	page_first[run] = (t1 - t0) / PAGE_PAGES;
	page_again[run] = (t2 - t1) / PAGE_PAGES;
	munmap(p, size);
	close(fd);
}

/* Rows interleaved run by run, so that load changes hit them alike. */
static void run_rows(void)
{
	unsigned int run, i;

	for (run = 0; run < runs; run++) {
		for (i = 0; i < ROWS; i++) {
			struct row *r = &rows[i];

			if (r->selected)
				r->ns[run] = run_fxt(r->loop, events * r->scale,
						     r->threads, r->traced,
						     r->touch,
						     &r->beside_ns[run]);
		}
		if (!only)
			measure_pages(run);
	}
	for (i = 0; i < ROWS; i++)
		if (rows[i].selected) {
			rows[i].median = median(rows[i].ns, runs);
			rows[i].beside_median = median(rows[i].beside_ns, runs);
		}
}

static const struct row *find_row(const char *key)
{
	unsigned int i;

	for (i = 0; i < ROWS; i++)
		if (!strcmp(rows[i].key, key))
			return &rows[i];
	return NULL;
}

/* A fresh buffer against one whose pages were all written before. */
static void print_fresh_touched(void)
{
	const struct row *fresh = find_row("instant");
	const struct row *touched = find_row("instant_touched");

	if (fresh->selected && touched->selected)
		printf("  %-48s %8.2f\n", "fresh buffer / touched buffer, instant",
		       fresh->median / touched->median);
}

static void print_results(const char *lttng_why)
{
	const double lttng_doc = 64.0;	/* shared/notes/measured-here.md */
	const struct row *clock = find_row("now");
	unsigned int i;

	printf("provider_bench: median of %u runs, ns per event, %lu events "
	       "per run and thread (disabled: x100)\n", runs, events);
	for (i = 0; i < ROWS; i++) {
		const struct row *r = &rows[i];
		const struct row *peer;

		if (!r->selected)
			continue;
		printf("  %-48s %8.2f", r->what, r->median);
		peer = find_row(r->threads == 1 ? "lttng" : "lttng2");
		if (r->loop == loop_disabled) {
			peer = find_row(r->threads == 1 ? "lttng_off" :
							  "lttng_off2");
			if (peer->selected)
				printf("  x%.2f LTTng-UST disabled",
				       r->median / peer->median);
		} else if (r->loop == loop_trace_clock)
			printf("  (%s)", fxt_test_clock_name());
		else if (r->traced && peer->selected)
			printf("  x%.2f LTTng-UST", r->median / peer->median);
		else if (r->traced)
			printf("  x%.2f documented LTTng-UST (~%.0f ns)",
			       r->median / lttng_doc, lttng_doc);
		if ((r->traced || (r->lttng && r->scale == 1)) &&
		    clock->selected && r != clock)
			printf("  (%.1f without one clock read)",
			       r->median - clock->median);
		if (r->traced && r->touch == TOUCH_BESIDE &&
		    r->loop != loop_trace_clock)
			printf("  +%.1f background", r->beside_median);
		printf("\n");
	}
	print_fresh_touched();
	if (!only)
		printf("  %-48s %8.2f  (written again: %.2f ns)\n",
		       "first write per 4 KiB page, new mapping, ns",
		       median(page_first, runs), median(page_again, runs));
	printf("  2 MiB ranges of the last buffer made huge pages: %llu of "
	       "%llu\n", (unsigned long long)ranges_made_huge,
	       (unsigned long long)ranges_whole);
	printf("trace clock: %s\n", fxt_test_clock_name());
	if (lttng_why)
		printf("  LTTng-UST peer not measured: %s\n", lttng_why);
}

/* ---- LTTng-UST session around a child that measures everything ----- */

#ifdef HAVE_LTTNG_UST
static bool lttng_wait_enabled(void)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	unsigned int i;

	for (i = 0; i < 10000 && !tracepoint_enabled(fxtbench, event); i++)
		nanosleep(&ms, NULL);
	return tracepoint_enabled(fxtbench, event);
}

static __attribute__((format(printf, 1, 2))) int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/*
 * Start a session recording fxtbench:event, run this program again under
 * it (the measuring child), then tear the session down. Returns the
 * child's exit status, or -1 with *why set if LTTng cannot be used.
 */
static int lttng_run_child(char **argv, const char **why)
{
	char session[64];
	int status = -1;
	pid_t child;

	if (geteuid() != 0 || access("/usr/bin/lttng", X_OK)) {
		*why = "needs root and lttng-tools (apt-get install lttng-tools)";
		return -1;
	}
	snprintf(session, sizeof(session), "fxtbench-%d", getpid());
	(void)system("pgrep -x lttng-sessiond >/dev/null || "
		     "lttng-sessiond --daemonize --quiet");
	if (sh("lttng create %s --output=/tmp/%s >/dev/null", session, session) ||
	    sh("lttng enable-channel -u -s %s --subbuf-size=4M --num-subbuf=8 "
	       "ch >/dev/null", session) ||
	    sh("lttng enable-event -u -s %s -c ch 'fxtbench:event' >/dev/null",
	       session) ||
	    sh("lttng start %s >/dev/null", session)) {
		*why = "lttng create/enable-event/start failed";
		goto out;
	}
	fflush(stdout);
	child = fork();
	if (child == 0) {
		setenv("FXT_BENCH_LTTNG_CHILD", "1", 1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (child > 0 && waitpid(child, &status, 0) == child &&
	    WIFEXITED(status))
		status = WEXITSTATUS(status);
	else
		status = 1;
	/* LTTng prints how many events it discarded (if any). */
	sh("lttng stop %s | grep -i discarded", session);
out:
	sh("lttng destroy %s >/dev/null 2>&1; rm -rf /tmp/%s", session, session);
	return status;
}
#endif

/* ---- main ----------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f, "usage: provider_bench [--runs R] [--events N] [--only NAME] [--no-lttng] [--keys]\n"
		   "NAME: clock now disabled disabled2 instant instant_touched\n"
		   "      instant_start_only instant2 duration duration2\n"
		   "      instant_dyn instant_cxx instant_dyn_cxx duration_cxx\n"
		   "      (--keys: every NAME, its row, events per event of --events)\n"
		   "example: perf stat -e instructions provider_bench --only instant --runs 1 --events 10000000\n");
}

static void select_rows(bool lttng)
{
	unsigned int i;

	for (i = 0; i < ROWS; i++)
		rows[i].selected = (!only || !strcmp(only, rows[i].key)) &&
				   (!rows[i].lttng || lttng);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "events", required_argument, NULL, 'n' },
		{ "only", required_argument, NULL, 'o' },
		{ "no-lttng", no_argument, NULL, 'L' },
		{ "keys", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *lttng_why = "built without lttng-ust (apt-get install liblttng-ust-dev)";
	bool no_lttng = false, lttng = false;
	int c;

	unsigned int i;

	while ((c = getopt_long(argc, argv, "r:n:o:Lkh", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			/* For scripts: KEY<TAB>events per --events<TAB>row. */
			for (i = 0; i < ROWS; i++)
				printf("%s\t%lu\t%s\n", rows[i].key,
				       rows[i].scale * rows[i].threads,
				       rows[i].what);
			return 0;
		case 'r':
			runs = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		case 'n':
			events = strtoul(optarg, NULL, 10);
			break;
		case 'o':
			only = optarg;
			break;
		case 'L':
			no_lttng = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!runs || runs > RUNS_MAX || !events || optind != argc) {
		usage(stderr);
		return 2;
	}
	fxt_test_disable_transport();
#ifdef HAVE_LTTNG_UST
	if (getenv("FXT_BENCH_LTTNG_CHILD")) {
		if (!lttng_wait_enabled()) {
			fprintf(stderr, "provider_bench: the LTTng session never "
					"enabled fxtbench:event\n");
			return 1;
		}
		lttng = true;
		lttng_why = NULL;
	} else if (no_lttng) {
		lttng_why = "--no-lttng";
	} else if (!only || !strncmp(only, "lttng", 5)) {
		int status = lttng_run_child(argv, &lttng_why);

		if (status >= 0)
			return status;
	}
#else
	(void)no_lttng;
#endif
	select_rows(lttng);
	run_rows();
	print_results(lttng_why);
	return 0;
}
