// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk-writer: threads of the real libfxt-provider writing at full
 * speed into their chunks of the buffer, for the manager's tests.
 *
 *   chunk-writer [--threads N] [--events E] [--blob-every B]
 *                [--crash-after K] [--hold-until FILE]
 *
 * Each of N threads (default 4) names itself "writer-T" and writes E
 * events (default 10000) "chunks"/"ev" with one int64 argument
 * i = T * E + k, k = 0 .. E-1, so that a checker can tell exactly which
 * events arrived (check-archive's i); every B-th event also a blob bigger
 * than a chunk. The threads start together and exit when done, leaving
 * their last chunk part-filled. Then "wrote N" is printed and:
 * --crash-after K: the main thread writes K more events (i = N * E + k) and the
 * process SIGKILLs itself in the middle of its chunk; --hold-until: the
 * process stays (threads gone) until FILE exists, so that a trace stops
 * while it lives. Exit status 0, or 2 on a bad command line.
 */
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/provider.h>

#define THREADS_MAX 64
/* Bigger than the manager's 4 KiB chunks: the record takes two. */
#define BLOB_BYTES 5000

static unsigned int threads = 4;
static unsigned long events = 10000, blob_every;
static pthread_barrier_t go;

static void write_events(int64_t first, unsigned long n)
{
	static const char blob[BLOB_BYTES];
	unsigned long k;

	for (k = 0; k < n; k++) {
		TRACE_INSTANT("chunks", "ev", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I64("i", first + (int64_t)k));
		if (blob_every && k % blob_every == blob_every - 1)
			TRACE_BLOB("chunks", "blob", FXT_BLOB_DATA, blob,
				   sizeof(blob));
	}
}

static void *writer_main(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg;
	char name[32];

	snprintf(name, sizeof(name), "writer-%u", t);
	fxt_thread_set_name(name);
	pthread_barrier_wait(&go);
	write_events((int64_t)t * (int64_t)events, events);
	return NULL;
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end) {
		fprintf(stderr, "chunk-writer: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "threads", required_argument, NULL, 't' },
		{ "events", required_argument, NULL, 'e' },
		{ "blob-every", required_argument, NULL, 'b' },
		{ "crash-after", required_argument, NULL, 'c' },
		{ "hold-until", required_argument, NULL, 'h' },
		{}
	};
	pthread_t th[THREADS_MAX];
	long crash_after = -1;
	const char *hold = NULL;
	unsigned int t;
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			threads = (unsigned int)number(optarg);
			break;
		case 'e':
			events = number(optarg);
			break;
		case 'b':
			blob_every = number(optarg);
			break;
		case 'c':
			crash_after = (long)number(optarg);
			break;
		case 'h':
			hold = optarg;
			break;
		default:
			fprintf(stderr, "usage: chunk-writer [--threads N] [--events E] [--blob-every B] [--crash-after K] [--hold-until FILE]\n");
			return 2;
		}
	}
	if (!threads || threads > THREADS_MAX) {
		fprintf(stderr, "chunk-writer: --threads: 1 to %d\n",
			THREADS_MAX);
		return 2;
	}
	fxt_provider_init("chunk-writer");
	/* The first call site joins the trace (FXTRACE_START_WAIT_MS). */
	(void)fxt_category_enabled("chunks");
	TRACE_INSTANT("other", "start", TRACE_SCOPE_THREAD);
	pthread_barrier_init(&go, NULL, threads);
	for (t = 0; t < threads; t++)
		if (pthread_create(&th[t], NULL, writer_main,
				   (void *)(uintptr_t)t)) {
			fprintf(stderr, "chunk-writer: pthread_create failed\n");
			return 1;
		}
	for (t = 0; t < threads; t++)
		pthread_join(th[t], NULL);
	printf("wrote %lu\n", (unsigned long)threads * events);
	fflush(stdout);
	if (crash_after >= 0) {
		write_events((int64_t)threads * (int64_t)events,
			     (unsigned long)crash_after);
		raise(SIGKILL);
	}
	while (hold && access(hold, F_OK) < 0)
		usleep(10000);
	return 0;
}
