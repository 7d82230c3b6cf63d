// SPDX-License-Identifier: GPL-2.0-only
/*
 * stack-workload: known stacks for the kernel:sample and kernel:offcpu
 * tests and the sampler's bench. Built with frame pointers and without
 * inlining, so that user stacks walk and each function keeps its frame.
 *
 * stack-workload [--child] [--seconds S] [--blocks N]
 *     until the main thread has run S seconds (its CPU time, default 1:
 *     a loaded machine gives as many samples as an idle one, later),
 *     burn_seventy() and burn_thirty()
 *     spin on the main thread, 7 and 3 iterations to 10 (so ~70% and
 *     ~30% of the on-CPU samples of that thread); a thread "blocker"
 *     meanwhile calls block_on_pipe(), which blocks in read() on a pipe
 *     the main thread writes a byte to every 20 ms it burns, N
 *     times (default 25; those left at the end are written then), so
 *     that block_on_pipe()'s is the process's longest off-CPU stack.
 *     Prints "ready", then pid=, worker=, blocker=, and the runtime
 *     addresses of burn_seventy, burn_thirty and block_on_pipe, then the
 *     iterations done. --child: all of it in a child process, which
 *     exits before the parent (which waits for it, then 200 ms more).
 * stack-workload --bench S
 *     burns for S seconds of its CPU time (time spent in interrupts
 *     while it runs included, time waiting for a CPU not), prints the
 *     iterations per second of it: iterations_per_sec=, then the
 *     process's CPU time from its start, in ns: cpu_ns= (what a tracer
 *     running it counts as its child's, to take out of its own).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUND_ITERATIONS 1000000ull	/* per tenth of a round */
#define FEED_INTERVAL_NS 20000000L

/* Global, so that their names are in the symbol table as they are. */
void burn_seventy(uint64_t n);
void burn_thirty(uint64_t n);
int block_on_pipe(void);

static volatile uint64_t sink;
static int pipe_fds[2];
static unsigned int blocks = 25;

__attribute__((noinline)) void burn_seventy(uint64_t n)
{
	uint64_t x = sink, i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

__attribute__((noinline)) void burn_thirty(uint64_t n)
{
	uint64_t x = sink, i;

	for (i = 0; i < n; i++)
		x = x * 2862933555777941757ull + 3037000493ull;
	sink = x;
}

/* Blocks in read() until the burner writes; returns the bytes read. */
__attribute__((noinline)) int block_on_pipe(void)
{
	char c;

	return (int)read(pipe_fds[0], &c, 1);
}

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Rounds of 7 + 3 tenths until seconds pass on clock: the iterations
 * done; the seconds it took in *took. With feed, a byte to the blocker's
 * pipe every FEED_INTERVAL_NS, at most blocks of them: how many in *fed.
 */
static uint64_t burn(clockid_t clock, double seconds, double *took,
		     bool feed, unsigned int *fed)
{
	double start = now_s(clock), now, next_feed = start;
	uint64_t done = 0;

	do {
		burn_seventy(7 * ROUND_ITERATIONS);
		burn_thirty(3 * ROUND_ITERATIONS);
		done += 10 * ROUND_ITERATIONS;
		now = now_s(clock);
		if (feed && *fed < blocks && now >= next_feed) {
			if (write(pipe_fds[1], "x", 1) == 1)
				(*fed)++;
			next_feed = now + FEED_INTERVAL_NS / 1e9;
		}
	} while (now < start + seconds);
	*took = now - start;
	return done;
}

static void *blocker(void *arg)
{
	unsigned int i;

	(void)arg;
	printf("blocker=%d\n", gettid());
	fflush(stdout);
	for (i = 0; i < blocks; i++)
		if (block_on_pipe() != 1)
			break;
	return NULL;
}

static int work(double seconds)
{
	unsigned int fed = 0;
	pthread_t block;
	uint64_t done;
	double took;

	if (pipe(pipe_fds))
		return 1;
	printf("ready\npid=%d\nworker=%d\nburn_seventy=%p\nburn_thirty=%p\n"
	       "block_on_pipe=%p\n",
	       getpid(), gettid(), (void *)burn_seventy, (void *)burn_thirty,
	       (void *)block_on_pipe);
	fflush(stdout);
	if (pthread_create(&block, NULL, blocker, NULL))
		return 1;
	pthread_setname_np(block, "blocker");
	done = burn(CLOCK_THREAD_CPUTIME_ID, seconds, &took, true, &fed);
	for (; fed < blocks; fed++)
		if (write(pipe_fds[1], "x", 1) != 1)
			break;
	pthread_join(block, NULL);
	printf("iterations=%llu\n", (unsigned long long)done);
	fflush(stdout);
	return 0;
}

static int in_child(double seconds)
{
	const struct timespec after = { 0, 200000000L };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid)
		_exit(work(seconds));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	nanosleep(&after, NULL);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	double seconds = 1, took;
	int child = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--child")) {
			child = 1;
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
			seconds = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--blocks") && i + 1 < argc) {
			blocks = (unsigned int)atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
			seconds = atof(argv[++i]);
			unsigned int fed = 0;

			printf("iterations_per_sec=%.0f\n",
			       (double)burn(CLOCK_THREAD_CPUTIME_ID, seconds,
					    &took, false, &fed) / took);
			printf("cpu_ns=%.0f\n",
			       now_s(CLOCK_PROCESS_CPUTIME_ID) * 1e9);
			return 0;
		} else {
			fprintf(stderr,
				"usage: stack-workload [--child] [--seconds S] [--blocks N] | --bench S\n");
			return 2;
		}
	}
	return child ? in_child(seconds) : work(seconds);
}
