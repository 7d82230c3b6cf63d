// SPDX-License-Identifier: GPL-2.0-only
/*
 * Overhead per scheduler event: fxt_sched vs ftrace's sched_switch and
 * sched_waking events into an instance, vs no tracing, measured with a
 * same-CPU pipe ping-pong (2 switches + 2 wakeups per round trip) at RT
 * priority. Runs alternate between the three setups; medians of RUNS.
 * syscall: kernel:syscall vs ftrace's raw_syscalls sys_enter/sys_exit on
 * a getppid() loop; irq: kernel:irq vs ftrace's irq and softirq events on
 * UDP datagrams over loopback (received in the NET_RX softirq). Their
 * events per round come from the module's record count.
 *
 * dev: kernel:fault (fresh pages touched, against
 * exceptions:page_fault_user), kernel:block (4 KiB O_DIRECT reads of a
 * loop device, against block_rq_issue + block_rq_complete; only if the
 * loop driver is there) and kernel:power (50 us sleeps on CPU 0, against
 * power:cpu_idle + cpu_frequency), per event counted by the module; each
 * with its own number of rounds.
 *
 * Usage: kmod_bench [ROUNDS [RUNS [sched|syscall|irq|dev]]]
 *                                      (guest only: root, tracefs, module)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "kdev_work.h"
#include "kring.h"
#include "pingpong.h"
#include "workload.h"

#define INSTANCE "/sys/kernel/tracing/instances/fxt_bench"
#define MAX_RUNS 15

enum setup { NONE, FTRACE, FXT, NSETUPS };
static const char *const setup_name[NSETUPS] = { "none", "ftrace", "fxt" };

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -EIO;
}

static const char *const sched_events[] = { "sched/sched_switch",
					    "sched/sched_waking", NULL };
static const char *const syscall_events[] = { "raw_syscalls/sys_enter",
					      "raw_syscalls/sys_exit", NULL };
static const char *const irq_events[] = { "irq/irq_handler_entry",
					  "irq/irq_handler_exit",
					  "irq/softirq_entry",
					  "irq/softirq_exit", NULL };

/* The category measured: its module events and ftrace's counterparts. */
static const struct category {
	const char *name;
	uint32_t events;
	const char *const *ftrace;
} categories[] = {
	{ "sched", FXT_SCHED_EV_DEFAULT, sched_events },
	{ "syscall", FXT_SCHED_EV_SYSCALL, syscall_events },
	{ "irq", FXT_SCHED_EV_IRQ, irq_events },
}, *category = &categories[0];

static int ftrace_enable(int on)
{
	const char *v = on ? "1" : "0";
	char path[256];
	int err = 0, i;

	if (on)
		err = write_file(INSTANCE "/buffer_size_kb", "4096");
	for (i = 0; !err && category->ftrace[i]; i++) {
		snprintf(path, sizeof(path), INSTANCE "/events/%s/enable",
			 category->ftrace[i]);
		err = write_file(path, v);
	}
	if (!err)
		err = write_file(INSTANCE "/tracing_on", v);
	return err;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int run(enum setup s, struct kring *k, long rounds, double *ns,
	       double *events_per_round)
{
	struct pingpong pp = { .cpu = 1, .rounds = rounds, .rt = 1 };
	struct fxt_sched_stats st;
	double t0, t1;
	int err = 0;

	if (s == FTRACE)
		err = ftrace_enable(1);
	if (s == FXT) {
		err = kring_ioctl(k, FXT_SCHED_IOC_RESET);
		if (!err)
			err = kring_ioctl(k, FXT_SCHED_IOC_START);
	}
	t0 = now_ns();
	if (!err && category->events & FXT_SCHED_EV_SYSCALL)
		err = workload_syscalls(rounds);
	else if (!err && category->events & FXT_SCHED_EV_IRQ)
		err = workload_udp(rounds);
	else if (!err)
		err = pingpong_run(&pp);
	t1 = now_ns();
	if (s == FTRACE)
		ftrace_enable(0);
	if (s == FXT) {
		kring_ioctl(k, FXT_SCHED_IOC_STOP);
		if (!kring_stats(k, &st))
			*events_per_round = (double)(st.records + st.overwritten) /
					    (double)rounds;
	}
	*ns = category == &categories[0] ? pp.ns_per_round :
					   (t1 - t0) / (double)rounds;
	return err;
}

/* kernel:fault, kernel:block, kernel:power: a workload per category. */
struct kdev_bench {
	const char *name;
	uint32_t events;
	const char *const ftrace[3];	/* "system/event" */
	int (*work)(long rounds);
	long rounds;
};

static char loop_dev[32];

static int read_rounds(long rounds)
{
	return kdev_direct_reads(loop_dev, (unsigned int)rounds, 4096);
}

static int nap_rounds(long rounds)
{
	return kdev_naps((unsigned int)rounds);
}

static const struct kdev_bench kdev_benches[] = {
	{ "fault", FXT_SCHED_EV_FAULT, { "exceptions/page_fault_user" },
	  kdev_fault_rounds, 5000 },
	{ "block", FXT_SCHED_EV_BLOCK,
	  { "block/block_rq_issue", "block/block_rq_complete" }, read_rounds,
	  1000 },
	{ "power", FXT_SCHED_EV_POWER, { "power/cpu_idle", "power/cpu_frequency" },
	  nap_rounds, 1000 },
};

static int kdev_ftrace(const struct kdev_bench *b, int on)
{
	char path[192];
	int i, err = 0;

	for (i = 0; i < 3 && b->ftrace[i] && !err; i++) {
		snprintf(path, sizeof(path), INSTANCE "/events/%s/enable",
			 b->ftrace[i]);
		err = write_file(path, on ? "1" : "0");
	}
	return err ? err : write_file(INSTANCE "/tracing_on", on ? "1" : "0");
}

static int kdev_run(const struct kdev_bench *b, enum setup s, struct kring *k,
		    double *ns, double *events)
{
	struct fxt_sched_stats st;
	double t0;
	int err = 0;

	if (s == FTRACE)
		err = kdev_ftrace(b, 1);
	if (s == FXT) {
		err = kring_ioctl(k, FXT_SCHED_IOC_RESET);
		if (!err)
			err = kring_ioctl(k, FXT_SCHED_IOC_START);
	}
	t0 = now_ns();
	if (!err)
		err = b->work(b->rounds);
	*ns = now_ns() - t0;
	if (s == FTRACE)
		kdev_ftrace(b, 0);
	if (s == FXT) {
		kring_ioctl(k, FXT_SCHED_IOC_STOP);
		if (!kring_stats(k, &st))
			*events = (double)(st.records + st.overwritten);
	}
	return err;
}

/* Overhead per event beyond no tracing, medians of runs (<= MAX_RUNS). */
static int kdev_bench_one(const struct kdev_bench *b, int runs)
{
	double ns[NSETUPS][MAX_RUNS], ev[MAX_RUNS], diff[MAX_RUNS], over[NSETUPS];
	double events;
	struct kring k;
	int i, j, s, err;

	err = kring_open(&k);
	if (!err)
		err = kring_configure(&k, 16 << 20, FXT_BUFFERING_CIRCULAR,
				      b->events, 0);
	if (err)
		return err;
	for (i = 0; i < runs && !err; i++) {
		for (j = 0; j < NSETUPS && !err; j++) {
			s = (i + j) % NSETUPS;
			err = kdev_run(b, (enum setup)s, &k, &ns[s][i], &ev[i]);
		}
	}
	kring_close(&k);
	if (err)
		return err;
	events = median(ev, runs);
	for (s = 0; s < NSETUPS; s++) {
		for (i = 0; i < runs; i++)
			diff[i] = ns[s][i] - ns[NONE][i];
		over[s] = median(diff, runs) / (events > 0 ? events : 1);
	}
	printf("kernel:%s: %ld rounds, median of %d runs, %.0f events/run: "
	       "ftrace %+.1f ns/event, fxt %+.1f ns/event, ratio fxt/ftrace "
	       "%.2f (target <= 0.5)\n", b->name, b->rounds, runs, events,
	       over[FTRACE], over[FXT],
	       over[FTRACE] > 0 ? over[FXT] / over[FTRACE] : 0.0);
	return 0;
}

static void kdev_bench_all(int runs)
{
	unsigned int minor;
	size_t i;
	int err;

	for (i = 0; i < sizeof(kdev_benches) / sizeof(*kdev_benches); i++) {
		const struct kdev_bench *b = &kdev_benches[i];

		if (b->work == read_rounds &&
		    (access("/dev/loop-control", F_OK) ||
		     kdev_loop_attach("/tmp/fxt-bench-loop.img", loop_dev,
				      sizeof(loop_dev), &minor))) {
			printf("kernel:%s: no loop device, not measured\n",
			       b->name);
			continue;
		}
		err = kdev_bench_one(b, runs);
		if (b->work == read_rounds)
			kdev_loop_detach(loop_dev);
		if (err)
			printf("kernel:%s: %s\n", b->name, strerror(-err));
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	int runs = argc > 2 ? atoi(argv[2]) : 7;
	double ns[NSETUPS][MAX_RUNS], med[NSETUPS], epr = 0, over[NSETUPS];
	struct kring k;
	double diff[MAX_RUNS];
	int i, j, s, err;

	if (argc > 3 && !strcmp(argv[3], "dev") && runs >= 1 &&
	    runs <= MAX_RUNS) {
		if ((mkdir(INSTANCE, 0755) && errno != EEXIST) ||
		    write_file(INSTANCE "/buffer_size_kb", "4096")) {
			fprintf(stderr, "bench: %s: %s\n", INSTANCE,
				strerror(errno));
			return 1;
		}
		kdev_bench_all(runs);
		rmdir(INSTANCE);
		return 0;
	}
	for (i = 0; argc > 3 && i < (int)(sizeof(categories) /
					   sizeof(*categories)); i++)
		if (!strcmp(argv[3], categories[i].name))
			category = &categories[i];
	if (rounds < 1 || runs < 1 || runs > MAX_RUNS ||
	    (argc > 3 && strcmp(argv[3], category->name))) {
		fprintf(stderr, "usage: %s [ROUNDS [RUNS<=%d [sched|syscall|irq|dev]]]\n",
			argv[0], MAX_RUNS);
		return 2;
	}
	workload_loopback_up();
	if (mkdir(INSTANCE, 0755) && errno != EEXIST) {
		fprintf(stderr, "bench: cannot create %s: %s (is tracefs "
			"mounted?)\n", INSTANCE, strerror(errno));
		return 1;
	}
	err = kring_open(&k);
	if (!err)
		err = kring_configure(&k, 4 << 20, FXT_BUFFERING_CIRCULAR,
				      category->events, 0);
	if (err) {
		fprintf(stderr, "bench: %s: %s\n", FXT_SCHED_DEVICE,
			strerror(-err));
		return 1;
	}
	for (i = 0; i < runs; i++) {
		for (j = 0; j < NSETUPS; j++) {
			s = (i + j) % NSETUPS;	/* rotate the order */
			err = run((enum setup)s, &k, rounds, &ns[s][i], &epr);
			if (err) {
				fprintf(stderr, "bench: %s run: %s\n",
					setup_name[s], strerror(-err));
				return 1;
			}
		}
	}
	kring_close(&k);
	rmdir(INSTANCE);
	/* Overhead: median over runs of (traced - untraced) of one event. */
	for (s = 0; s < NSETUPS; s++) {
		for (i = 0; i < runs; i++)
			diff[i] = (ns[s][i] - ns[NONE][i]) /
				  (category == &categories[0] ? 4 : epr);
		over[s] = median(diff, runs);
	}
	for (s = 0; s < NSETUPS; s++)
		med[s] = median(ns[s], runs);
	printf("kernel:%s: %s, %ld rounds, median of %d runs; %.2f events per round\n",
	       category->name, category == &categories[0] ?
	       "same-CPU pipe ping-pong, SCHED_FIFO" : category == &categories[1] ?
	       "getppid() loop" : "UDP datagrams over loopback",
	       rounds, runs, epr);
	for (s = 0; s < NSETUPS; s++) {
		printf("%-6s %9.0f ns/round  %+7.1f ns/event overhead\n",
		       setup_name[s], med[s], over[s]);
	}
	printf("ratio fxt/ftrace per event: %.2f (target <= 0.5)\n",
	       over[FTRACE] > 0 ? over[FXT] / over[FTRACE] : 0.0);
	return 0;
}
