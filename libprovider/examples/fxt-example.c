// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fxt-example: a provider that emits every kind of record from several
 * named threads, for demos and the manager's integration tests.
 *
 *   fxt-example [--seconds S] [--iterations N] [--threads T] [--trigger NAME]
 *
 * Runs until S seconds passed or each thread did N iterations, whichever
 * comes first (default: 5 seconds, 2 threads); then fires trigger NAME
 * if given (a circular trace armed with it takes a snapshot). Categories: "example",
 * "example.io". Exit status 0, or 2 on a bad command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>

#define THREADS_MAX 64

/* The build passes fxtrace's version; built on its own, there is none. */
#ifndef FXT_EXAMPLE_VERSION
#define FXT_EXAMPLE_VERSION "(built on its own)"
#endif

struct worker {
	pthread_t thread;
	unsigned int index;
	unsigned long iterations;	/* 0: until the deadline */
	uint64_t deadline;		/* fxt_now() value */
	unsigned long done;
};

static const char usage[] =
	"usage: fxt-example [--seconds S] [--iterations N] [--threads T] [--trigger NAME]\n"
	"       fxt-example --help | --version\n"
	"Emits trace events (categories example, example.io) from T threads\n"
	"for S seconds (default 5) or N iterations per thread, then fires\n"
	"trigger NAME if given (tracectl start --trigger NAME).\n"
	"example: fxt-example --seconds 2 --threads 4\n"
	"example: fxt-example --seconds 1 --trigger jank\n";

static void do_io(struct worker *w, unsigned long i)
{
	char peer[32];
	uint64_t flow = ((uint64_t)w->index << 32) | i;

	snprintf(peer, sizeof(peer), "peer-%lu", i % 7);
	TRACE_DURATION("example.io", "send", TRACE_ARG_STR("peer", peer),
		       TRACE_ARG_U64("bytes", 512 + i % 1024));
	TRACE_FLOW_BEGIN("example.io", "request", flow);
	TRACE_ASYNC_BEGIN("example.io", "rpc", flow,
			  TRACE_ARG_U32("worker", w->index));
	TRACE_ASYNC_INSTANT("example.io", "rpc-sent", flow);
	TRACE_FLOW_STEP("example.io", "request", flow);
	TRACE_ASYNC_END("example.io", "rpc", flow,
			TRACE_ARG_BOOL("ok", i % 13 != 0));
	TRACE_FLOW_END("example.io", "request", flow);
}

/*
 * A counter (id: the worker, one series each): iterations done and what
 * is left, in iterations when their number was given, else in
 * milliseconds until the deadline (never below 0).
 */
static void progress(struct worker *w, unsigned long i)
{
	uint64_t now = fxt_now();

	if (w->iterations)
		TRACE_COUNTER("example", "progress", w->index,
			      TRACE_ARG_U64("iterations", i),
			      TRACE_ARG_U64("remaining", w->iterations - i));
	else
		TRACE_COUNTER("example", "progress", w->index,
			      TRACE_ARG_U64("iterations", i),
			      TRACE_ARG_U64("remaining_ms",
					    now < w->deadline ?
						    (w->deadline - now) / 1000000 :
						    0));
}

static void do_compute(struct worker *w, unsigned long i)
{
	uint64_t start = fxt_now();
	volatile double x = 1.0;
	int k;

	TRACE_DURATION_BEGIN("example", "compute", TRACE_ARG_I32("round", (int)i));
	for (k = 0; k < 200; k++)
		x = x * 1.000001 + 0.5;
	TRACE_DURATION_END("example", "compute");
	TRACE_COMPLETE("example", "compute-complete", start, fxt_now(),
		       TRACE_ARG_DOUBLE("x", x), TRACE_ARG_I64("k", -k),
		       TRACE_ARG_PTR("worker", w), TRACE_ARG_NULL("nothing"));
	progress(w, i);
}

static void do_rare(struct worker *w, unsigned long i)
{
	static const unsigned char blob[] = "fxt-example blob payload";

	TRACE_INSTANT("example", "tick", TRACE_SCOPE_THREAD,
		      TRACE_ARG_U64("i", i));
	if (i % 100)
		return;
	TRACE_INSTANT("example", "milestone", TRACE_SCOPE_PROCESS,
		      TRACE_ARG_STR_LITERAL("what", "hundred"));
	TRACE_INSTANT("example", "global-milestone", TRACE_SCOPE_GLOBAL);
	TRACE_LOGF("example", "worker %u reached iteration %lu", w->index, i);
	TRACE_BLOB("example", "payload", FXT_BLOB_DATA, blob, sizeof(blob));
	TRACE_USERSPACE_OBJECT("example", w, "worker-state",
			       TRACE_ARG_U32("index", w->index));
	TRACE_KERNEL_OBJECT("example", 0x1000 + w->index, FXT_ZX_OBJ_THREAD,
			    "virtual-thread",
			    TRACE_ARG_KOID("process", (uint64_t)getpid()));
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char name[16];
	unsigned long i;

	snprintf(name, sizeof(name), "example-%u", w->index);
	pthread_setname_np(pthread_self(), name);
	for (i = 0; !w->iterations || i < w->iterations; i++) {
		if (fxt_now() >= w->deadline)
			break;
		do_compute(w, i);
		do_io(w, i);
		do_rare(w, i);
		if (i % 64 == 63)
			usleep(1000);
	}
	w->done = i;
	return NULL;
}

/* A whole number min..max for option opt, or -1 after saying so. */
static int parse_ulong(const char *opt, const char *s, unsigned long min,
		       unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || *out < min ||
	    *out > max) {
		fprintf(stderr, "fxt-example: %s '%s': give a whole number %lu..%lu; see 'fxt-example --help'\n",
			opt, s, min, max);
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, unsigned long *seconds,
		      unsigned long *iterations, unsigned long *threads,
		      const char **trigger)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ "trigger", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	int c;

	opterr = 0;	/* main() says what is wrong, in one line */
	while ((c = getopt_long(argc, argv, "s:n:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_ulong("--seconds", optarg, 0, 86400, seconds))
				return -1;
			break;
		case 'n':
			if (parse_ulong("--iterations", optarg, 0, 1000000000ul,
					iterations))
				return -1;
			break;
		case 't':
			if (parse_ulong("--threads", optarg, 1, THREADS_MAX,
					threads))
				return -1;
			break;
		case 'T':
			*trigger = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case 'V':
			printf("fxt-example %s (provider API %d)\n",
			       FXT_EXAMPLE_VERSION, FXT_PROVIDER_API_VERSION);
			exit(0);
		default:
			fprintf(stderr, "fxt-example: unknown option or missing value: '%s'; see 'fxt-example --help'\n",
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "fxt-example: unexpected argument '%s'; see 'fxt-example --help'\n",
			argv[optind]);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long seconds = 5, iterations = 0, threads = 2, i, total = 0;
	struct worker workers[THREADS_MAX];
	const char *trigger = NULL;
	uint64_t deadline;

	if (parse_args(argc, argv, &seconds, &iterations, &threads,
		       &trigger))
		return 2;
	fxt_provider_init("fxt-example");
	deadline = fxt_now() + seconds * 1000000000ull;
	TRACE_INSTANT("example", "start", TRACE_SCOPE_PROCESS,
		      TRACE_ARG_U32("threads", threads));
	for (i = 0; i < threads; i++) {
		workers[i] = (struct worker){
			.index = (unsigned int)i, .iterations = iterations,
			.deadline = deadline,
		};
		if (pthread_create(&workers[i].thread, NULL, worker_main,
				   &workers[i])) {
			fprintf(stderr, "fxt-example: cannot create thread %lu\n", i);
			threads = i;
			break;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(workers[i].thread, NULL);
		total += workers[i].done;
	}
	TRACE_INSTANT("example", "done", TRACE_SCOPE_PROCESS,
		      TRACE_ARG_U64("iterations", total));
	if (trigger)
		TRACE_TRIGGER(trigger);
	printf("fxt-example: %lu threads, %lu iterations\n", threads, total);
	return 0;
}
