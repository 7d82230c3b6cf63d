// SPDX-License-Identifier: GPL-2.0-only
/*
 * why-workload: a request whose critical path is known, for tracectl
 * why. Thread R (this process, CPU 0) runs slice "request" (category
 * "app"): it writes a byte to a pipe and blocks reading the reply.
 * Thread W (a child process, CPU 1) reads it, has thread C (W's process,
 * CPU 1) take a mutex and run crunch() for CRUNCH_MS while holding it,
 * takes the mutex itself (blocking on C), runs transform() for
 * TRANSFORM_MS and replies. On request HOG_AT, W first wakes R's hog: a
 * SCHED_FIFO thread on CPU 0 that spins for HOG_MS, so that R, woken by
 * the reply, waits for its CPU behind it. Each part times itself, in
 * CPU time (wall time for the request): printed r_tid= w_tid= c_tid=
 * hog_tid=, then a line per request:
 *   request=I wall_ns= crunch_ns= transform_ns= hog_ns=
 * Built with frame pointers and no inlining: crunch() and transform()
 * keep their frames in the stack samples.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>

#define REQUESTS 6
#define HOG_AT 3
#define CRUNCH_MS 30
#define TRANSFORM_MS 10
#define HOG_MS 25

struct shared {
	pthread_mutex_t lock;
	uint64_t crunch_ns, transform_ns, hog_ns;
	int w_tid, c_tid;
};

/* Global, so that their names are in the symbol table as they are. */
uint64_t crunch(void);
uint64_t transform(void);

static struct shared *sh;
static int req_pipe[2], reply_pipe[2], go_pipe[2], locked_pipe[2];
static int hog_pipe[2], hog_done[2];
static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("sched_setaffinity");
}

static void must_read(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		exit(1);
}

static void must_write(int fd)
{
	if (write(fd, "x", 1) != 1)
		exit(1);
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t iterations_per_ms = 1;

/* n iterations of work with no call inside: the samples' leaf. */
#define BURN(n)                                                       \
	do {                                                          \
		uint64_t x_ = sink, n_ = (n);                         \
		while (n_--)                                          \
			x_ = x_ * 6364136223846793005ull + 1;         \
		sink = x_;                                            \
	} while (0)

/* Iterations per ms of CPU time, measured once, untraced. */
static void calibrate(void)
{
	uint64_t start = cpu_ns(), n = 1000000;

	BURN(n);
	iterations_per_ms = n * 1000000ull / (cpu_ns() - start + 1) + 1;
}

/*
 * About CRUNCH_MS (TRANSFORM_MS) of this thread's CPU time, the same
 * work however loaded the machine; each returns the CPU time taken.
 */
__attribute__((noinline)) uint64_t crunch(void)
{
	uint64_t start = cpu_ns();

	BURN(CRUNCH_MS * iterations_per_ms);
	return cpu_ns() - start;
}

__attribute__((noinline)) uint64_t transform(void)
{
	uint64_t start = cpu_ns();

	BURN(TRANSFORM_MS * iterations_per_ms);
	return cpu_ns() - start;
}

static void *c_main(void *arg)
{
	(void)arg;
	pin(1);
	pthread_setname_np(pthread_self(), "C");
	sh->c_tid = gettid();
	for (;;) {
		must_read(go_pipe[0]);
		pthread_mutex_lock(&sh->lock);
		must_write(locked_pipe[1]);
		sh->crunch_ns = crunch();
		pthread_mutex_unlock(&sh->lock);
	}
	return NULL;
}

static void w_main(void)
{
	pthread_t c;
	int i;

	pin(1);
	sh->w_tid = gettid();
	pthread_create(&c, NULL, c_main, NULL);
	for (i = -1; i < REQUESTS; i++) {
		must_read(req_pipe[0]);
		must_write(go_pipe[1]);
		must_read(locked_pipe[0]);
		pthread_mutex_lock(&sh->lock);
		sh->transform_ns = transform();
		pthread_mutex_unlock(&sh->lock);
		if (i == HOG_AT)
			must_write(hog_pipe[1]);
		must_write(reply_pipe[1]);
	}
	_exit(0);
}

static void *hog_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	uint64_t start;

	pin(0);
	pthread_setname_np(pthread_self(), "hog");
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
		fprintf(stderr, "why-workload: SCHED_FIFO refused\n");
		exit(1);
	}
	*(int *)arg = gettid();
	must_read(hog_pipe[0]);
	start = cpu_ns();
	BURN(HOG_MS * iterations_per_ms);
	sh->hog_ns = cpu_ns() - start;
	must_write(hog_done[1]);
	return NULL;
}

/*
 * One request (traced: the slice "request"); its wall time, inside the
 * slice.
 */
static uint64_t request(int i, bool traced)
{
	uint64_t start, wall;

	if (traced)
		TRACE_DURATION_BEGIN("app", "request");
	start = now_ns();
	must_write(req_pipe[1]);
	must_read(reply_pipe[0]);
	wall = now_ns() - start;
	if (traced)
		TRACE_DURATION_END("app", "request");
	if (i == HOG_AT)
		must_read(hog_done[0]);
	return wall;
}

static int setup(void)
{
	pthread_mutexattr_t ma;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pipe(req_pipe) || pipe(reply_pipe) ||
	    pipe(go_pipe) || pipe(locked_pipe) || pipe(hog_pipe) ||
	    pipe(hog_done))
		return -1;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	return pthread_mutex_init(&sh->lock, &ma) ? -1 : 0;
}

int main(void)
{
	uint64_t wall[REQUESTS], crunch_ns[REQUESTS], transform_ns[REQUESTS];
	int i, hog_tid = 0, status;
	pthread_t hog;
	pid_t w;

	if (setup())
		return 1;
	calibrate();
	w = fork();
	if (w < 0)
		return 1;
	if (!w) {
		pthread_setname_np(pthread_self(), "W");
		w_main();
	}
	pthread_setname_np(pthread_self(), "R");
	pin(0);
	fxt_provider_init("why-workload");
	pthread_create(&hog, NULL, hog_main, &hog_tid);
	/* Threads made, pages touched, the provider connected: then traced. */
	request(-1, false);
	TRACE_INSTANT("app", "warm", TRACE_SCOPE_THREAD);
	usleep(50000);
	for (i = 0; i < REQUESTS; i++) {
		wall[i] = request(i, true);
		crunch_ns[i] = sh->crunch_ns;
		transform_ns[i] = sh->transform_ns;
		usleep(20000);
	}
	waitpid(w, &status, 0);
	printf("r_tid=%d\nw_tid=%d\nc_tid=%d\nhog_tid=%d\n", gettid(),
	       sh->w_tid, sh->c_tid, hog_tid);
	for (i = 0; i < REQUESTS; i++)
		printf("request=%d wall_ns=%llu crunch_ns=%llu transform_ns=%llu "
		       "hog_ns=%llu\n",
		       i, (unsigned long long)wall[i],
		       (unsigned long long)crunch_ns[i],
		       (unsigned long long)transform_ns[i],
		       (unsigned long long)(i == HOG_AT ? sh->hog_ns : 0));
	return 0;
}
