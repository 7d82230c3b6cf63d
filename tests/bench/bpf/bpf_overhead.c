// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cost per scheduling event of kernel capture: the BPF backend against
 * ftrace's sched_switch + sched_waking into a tracefs instance, against
 * `perf record -a` of the same tracepoints (when perf is on PATH), against
 * no tracing, on a same-CPU pipe ping-pong (both threads pinned to CPU 0,
 * SCHED_FIFO when allowed). Runs interleave the setups; each prints the
 * median of its runs. Not a test: it prints figures, and the ratios
 * bpf/ftrace and bpf/perf of the overheads beyond no tracing.
 *
 *   bpf_overhead [ROUNDS [RUNS [sched|proc|syscall|irq|fault|block|power|mem
 *                [CLOCK]]]]     (default 20000 rounds, 7 runs, sched, local)
 *
 * CLOCK is ftrace's trace_clock: "local" (its default, sched_clock: an
 * unordered TSC read, not comparable across CPUs or with userspace) or
 * "boot", the clock the BPF backend reads (CLOCK_BOOTTIME through
 * ktime_get_boot_fast_ns(), what Perfetto asks of ftrace so that kernel
 * and userspace events merge): the like-for-like cost of a timestamp.
 *
 * proc: kernel:proc alone against ftrace's sched_process_fork + _exit,
 * on a loop of fork + _exit + waitpid (one round is two events).
 * syscall: kernel:syscall against ftrace's raw_syscalls sys_enter +
 * sys_exit, on a loop of getppid() (two events a round, and the loop's
 * few other calls). irq: kernel:irq against ftrace's irq_handler_entry/
 * exit + softirq_entry/exit, on UDP datagrams over loopback (each one's
 * receive runs in the NET_RX softirq).
 * fault: kernel:fault against exceptions:page_fault_user, a round is a
 * fresh page touched (one fault). block: kernel:block against
 * block_rq_issue + block_rq_complete, a round is a 4 KiB O_DIRECT read
 * of a loop device over a file in /tmp (two events). power: kernel:power
 * against power:cpu_idle + cpu_frequency, a round is a 50 us sleep on
 * CPU 0 (its idle entry and exit; other CPUs' idling counts too).
 * mem: kernel:mem against kmem:rss_stat and the reclaim, compaction and
 * OOM tracepoints, a round is a fresh page touched (its RSS change), the
 * pages unmapped 256 at a time; the events are the tracepoints' hits
 * that ftrace counts in its run, since the backend writes RSS only when
 * it moved by a step (include/fxt/kmem.h).
 *
 * Events per run come from the BPF ring's record count (every CPU), so
 * the same count divides the ftrace overhead: the workload is the same.
 * A run whose ring dropped events is an error (the drop path is cheaper
 * than a record): lower ROUNDS. So is kernel.bpf_stats_enabled=1, which
 * adds two clock reads to every BPF program run. The process runs on
 * CPU 0, where the instructions are counted.
 *
 * Beside the backend, three floor programs (bpf_floor.bpf.c) on the
 * same tracepoints: an empty program, one that reads the clock, one that
 * reads the clock and the thread's ids. Their overheads say what part of
 * the backend's cost any BPF program pays, whatever it records. Besides
 * the ratio of the medians, the median of each run's own ratio to ftrace
 * is printed: the setups of a run follow each other, so the machine's
 * other load moves less between them than between runs.
 * Wall time is noisy on a shared machine; where the CPU has a PMU (not
 * in every VM), instructions retired on CPU 0 (user and kernel, every
 * task) are printed beside it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#include <linux/perf_event.h>

#include <fxt/fxt_sched_uapi.h>

#include "bpf_floor.skel.h"
#include "kdev_work.h"
#include "kernel_session.h"
#include "pingpong.h"
#include "workload.h"

#define TRACEFS "/sys/kernel/tracing"
#define INSTANCE TRACEFS "/instances/fxt_bpf_bench"
#define MAX_RUNS 31
/* Per CPU, for the BPF ring and ftrace's instance alike. */
#define BENCH_BUFFER_BYTES (8u << 20)
#define BENCH_BUFFER_KB "8192"

enum setup {
	SETUP_NONE,
	SETUP_FTRACE,
	SETUP_BPF,
	SETUP_PERF,
	SETUP_FLOOR_EMPTY,
	SETUP_FLOOR_CLOCK,
	SETUP_FLOOR_IDS,
	SETUP_COUNT
};

static const char *const setup_name[SETUP_COUNT] = {
	"none", "ftrace", "bpf", "perf", "empty", "clock", "clock+ids"
};
static const char *const setup_what[SETUP_COUNT] = {
	[SETUP_FLOOR_EMPTY] = "an empty BPF program",
	[SETUP_FLOOR_CLOCK] = "a program reading the clock",
	[SETUP_FLOOR_IDS] = "a program reading the clock and the ids",
};
static struct bpf_floor *floor_skel;
static bool have_perf;

struct sample {
	double ns;
	double cpu_ns;	/* CPU time of this process: others' load left out */
	double insns;
};

static double clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* The kernel category measured, and what ftrace records for it. */
struct category {
	const char *name;
	uint32_t events;	/* FXT_SCHED_EV_* */
	const char *const *ftrace;	/* "system/event" */
	const char *workload;
	int (*work)(long rounds);	/* else ping-pong or fork loop */
	/*
	 * The events are the tracepoints' hits, as ftrace counts them: the
	 * backend writes a record for only some (kernel:mem's RSS steps).
	 */
	bool hits_from_ftrace;
};

static const char *const sched_tracepoints[] = { "sched/sched_switch",
						 "sched/sched_waking",
						 "sched/sched_wakeup_new", NULL };
static const char *const proc_tracepoints[] = { "sched/sched_process_fork",
						"sched/sched_process_exit", NULL };
static const char *const syscall_tracepoints[] = { "raw_syscalls/sys_enter",
						   "raw_syscalls/sys_exit",
						   NULL };
static const char *const irq_tracepoints[] = { "irq/irq_handler_entry",
					       "irq/irq_handler_exit",
					       "irq/softirq_entry",
					       "irq/softirq_exit", NULL };
static const char *const fault_tracepoints[] = { "exceptions/page_fault_user",
						 NULL };
static const char *const block_tracepoints[] = { "block/block_rq_issue",
						 "block/block_rq_complete",
						 NULL };
static const char *const power_tracepoints[] = { "power/cpu_idle",
						 "power/cpu_frequency", NULL };
static const char *const mem_tracepoints[] = {
	"kmem/rss_stat",
	"vmscan/mm_vmscan_direct_reclaim_begin",
	"vmscan/mm_vmscan_direct_reclaim_end",
	"vmscan/mm_vmscan_memcg_reclaim_begin",
	"vmscan/mm_vmscan_memcg_reclaim_end",
	"compaction/mm_compaction_begin",
	"compaction/mm_compaction_end",
	"oom/mark_victim",
	NULL
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

static const struct category categories[] = {
	/* kernel:sched alone: what ftrace records here. */
	{ "sched", FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP |
			   FXT_SCHED_EV_NAMES,
	  sched_tracepoints, "same-CPU pipe ping-pong", NULL, false },
	{ "proc", FXT_SCHED_EV_PROC, proc_tracepoints,
	  "fork + _exit + waitpid", NULL, false },
	{ "syscall", FXT_SCHED_EV_SYSCALL, syscall_tracepoints,
	  "getppid() loop", workload_syscalls, false },
	{ "irq", FXT_SCHED_EV_IRQ, irq_tracepoints,
	  "UDP datagrams over loopback", workload_udp, false },
	{ "fault", FXT_SCHED_EV_FAULT, fault_tracepoints,
	  "fresh page touched", kdev_fault_rounds, false },
	{ "block", FXT_SCHED_EV_BLOCK, block_tracepoints,
	  "4 KiB O_DIRECT read of a loop device", read_rounds, false },
	{ "power", FXT_SCHED_EV_POWER, power_tracepoints,
	  "50 us sleep on CPU 0", nap_rounds, false },
	{ "mem", FXT_SCHED_EV_MEM, mem_tracepoints,
	  "fresh page touched, unmapped 256 at a time", kdev_fault_rounds,
	  true },
};

static const struct category *category;
static const char *ftrace_clock = "local";

static int ftrace_set(bool on)
{
	const char *const *events = category->ftrace;
	char path[256];
	unsigned int i;
	int err;

	for (i = 0; events[i]; i++) {
		snprintf(path, sizeof(path), INSTANCE "/events/%s/enable",
			 events[i]);
		err = write_str(path, on ? "1" : "0");
		if (err)
			return err;
	}
	return write_str(INSTANCE "/tracing_on", on ? "1" : "0");
}

/* Empties the instance's buffer (opening its trace file truncated). */
static int ftrace_clear(void)
{
	int fd = open(INSTANCE "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The events the instance holds, every CPU's; none may have been lost. */
static int ftrace_entries(double *events)
{
	unsigned long long entries, overrun, total = 0, lost = 0;
	char path[128], line[128];
	unsigned int cpu;
	FILE *f;

	for (cpu = 0;; cpu++) {
		snprintf(path, sizeof(path), INSTANCE "/per_cpu/cpu%u/stats",
			 cpu);
		f = fopen(path, "re");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "entries: %llu", &entries) == 1)
				total += entries;
			else if (sscanf(line, "overrun: %llu", &overrun) == 1)
				lost += overrun;
		}
		fclose(f);
	}
	if (!cpu)
		return -ENOENT;
	if (lost) {
		fprintf(stderr, "ftrace: %llu events overwritten: fewer ROUNDS\n",
			lost);
		return -ENOBUFS;
	}
	*events = (double)total;
	return 0;
}

static int ftrace_setup(void)
{
	if (access(TRACEFS "/instances", F_OK) &&
	    mount("nodev", TRACEFS, "tracefs", 0, NULL))
		return -errno;
	if (mkdir(INSTANCE, 0755) && errno != EEXIST)
		return -errno;
	if (write_str(INSTANCE "/trace_clock", ftrace_clock))
		return -EINVAL;
	return write_str(INSTANCE "/buffer_size_kb", BENCH_BUFFER_KB);
}

/* Instructions retired on CPU 0 by every task; -1 if perf is refused. */
static int instructions_open(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.disabled = 1,
	};

	return (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static double instructions_read(int fd)
{
	unsigned long long v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return (double)v;
}

static int sink(void *ctx, const void *data, size_t len)
{
	return 0;
}

static void realtime(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	(void)sched_setscheduler(0, SCHED_FIFO, &sp);
}

/*
 * The fork loop runs in a driver process forked before any ring is
 * mapped: a process that maps the BPF rings copies their page tables on
 * every fork, which would be timed instead of the tracing.
 */
static int driver_cmd = -1, driver_done = -1;

static int fork_rounds(long rounds)
{
	int status;
	pid_t pid;
	long i;

	for (i = 0; i < rounds; i++) {
		pid = fork();
		if (pid < 0)
			return -errno;
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid)
			return -errno;
	}
	return 0;
}

static void driver_loop(int cmd, int done)
{
	long rounds;
	int err;

	while (read(cmd, &rounds, sizeof(rounds)) == sizeof(rounds)) {
		err = fork_rounds(rounds);
		if (write(done, &err, sizeof(err)) != sizeof(err))
			break;
	}
	_exit(0);
}

static int driver_start(void)
{
	int cmd[2], done[2];
	pid_t pid;

	if (pipe(cmd) || pipe(done))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(cmd[1]);
		close(done[0]);
		driver_loop(cmd[0], done[1]);
	}
	close(cmd[0]);
	close(done[1]);
	driver_cmd = cmd[1];
	driver_done = done[0];
	return 0;
}

static int driver_run(long rounds)
{
	int err;

	if (write(driver_cmd, &rounds, sizeof(rounds)) != sizeof(rounds) ||
	    read(driver_done, &err, sizeof(err)) != sizeof(err))
		return -EPIPE;
	return err;
}

static int measure(long rounds, int insn_fd, struct sample *out)
{
	struct pingpong pp = { .rounds = rounds, .cpu = 0 };
	double t0, cpu0;
	int err;

	if (insn_fd >= 0) {
		ioctl(insn_fd, PERF_EVENT_IOC_RESET, 0);
		ioctl(insn_fd, PERF_EVENT_IOC_ENABLE, 0);
	}
	cpu0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_ns();
	if (category->work)
		err = category->work(rounds);
	else
		err = category->events & FXT_SCHED_EV_PROC ?
			      driver_run(rounds) : pingpong_run(&pp);
	out->ns = now_ns() - t0;
	out->cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
	if (insn_fd >= 0)
		ioctl(insn_fd, PERF_EVENT_IOC_DISABLE, 0);
	out->insns = instructions_read(insn_fd);
	return err;
}

/*
 * The ring is big enough for a run (the drop path is not what we time),
 * and the same size as ftrace's: both write the same memory footprint,
 * so neither is charged more cache misses than the other.
 */
static int run_bpf(long rounds, int insn_fd, struct sample *out,
		   double *events)
{
	struct kernel_session_config cfg = {
		.backend = KERNEL_BACKEND_BPF,
		.mode = FXT_BUFFERING_ONESHOT,
		.buffer_bytes_per_cpu = BENCH_BUFFER_BYTES,
		.events = category->events,
	};
	struct kernel_session_stats st;
	struct kernel_session *ks;
	char why[256];
	int err;

	err = kernel_session_open(&ks, &cfg, why, sizeof(why));
	if (err) {
		fprintf(stderr, "bpf: %s\n", why);
		return err;
	}
	err = kernel_session_start(ks);
	if (!err)
		err = measure(rounds, insn_fd, out);
	(void)kernel_session_stop(ks);
	kernel_session_stats(ks, &st);
	if (!category->hits_from_ftrace)
		*events = (double)st.records;
	if (!err && st.dropped) {
		fprintf(stderr, "bpf: %llu events dropped: fewer ROUNDS\n",
			(unsigned long long)st.dropped);
		err = -ENOBUFS;
	}
	(void)kernel_session_drain(ks, sink, NULL);
	kernel_session_close(ks);
	return err;
}

/* A floor program on each of the tracepoints ftrace records. */
static int run_floor(enum setup setup, long rounds, int insn_fd,
		     struct sample *out)
{
	struct bpf_program *prog = setup == SETUP_FLOOR_EMPTY ?
					   floor_skel->progs.floor_empty :
				   setup == SETUP_FLOOR_CLOCK ?
					   floor_skel->progs.floor_clock :
					   floor_skel->progs.floor_clock_ids;
	struct bpf_link *links[8] = { NULL };
	unsigned int i, n = 0;
	int err = 0;

	for (i = 0; category->ftrace[i] && n < 8; i++) {
		/* tracefs's "group/name": raw tracepoints go by name. */
		const char *name = strchr(category->ftrace[i], '/') + 1;

		links[n] = bpf_program__attach_raw_tracepoint(prog, name);
		if (!links[n]) {
			err = -errno;
			fprintf(stderr, "%s: attach to %s: %s\n",
				setup_name[setup], name, strerror(errno));
			break;
		}
		n++;
	}
	if (!err)
		err = measure(rounds, insn_fd, out);
	while (n--)
		bpf_link__destroy(links[n]);
	return err;
}

/*
 * perf record -a of the tracepoints ftrace records, started with its
 * events off and switched on and off through its control FIFOs, so that
 * its start-up and the writing of perf.data at exit are not timed; its
 * buffers (16 MiB per CPU) hold a run, as the BPF ring does.
 */
static int perf_ctl(int ctl, int ack, const char *cmd)
{
	char reply[16];

	if (write(ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    read(ack, reply, sizeof(reply)) <= 0)
		return -EPIPE;
	return 0;
}

static int run_perf(long rounds, int insn_fd, struct sample *out)
{
	char dir[] = "/tmp/fxt-perf-bench.XXXXXX", ctl_path[64], ack_path[64];
	char control[160], data[64], events[256] = "", *p;
	const char *const *tp;
	int ctl = -1, ack = -1, err, status;
	pid_t pid;

	/* tracefs's "group/name" is perf's "group:name". */
	for (tp = category->ftrace; *tp; tp++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events),
			 "%s%s", tp == category->ftrace ? "" : ",", *tp);
	for (p = events; (p = strchr(p, '/')); p++)
		*p = ':';
	if (!mkdtemp(dir))
		return -errno;
	snprintf(ctl_path, sizeof(ctl_path), "%s/ctl", dir);
	snprintf(ack_path, sizeof(ack_path), "%s/ack", dir);
	snprintf(control, sizeof(control), "fifo:%s,%s", ctl_path, ack_path);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	if (mkfifo(ctl_path, 0600) || mkfifo(ack_path, 0600)) {
		err = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (!pid) {
		struct sched_param sp = { 0 };

		/*
		 * A benchmark killed mid-run must not leave perf recording;
		 * --exclude-perf: perf's own writes of raw_syscalls events
		 * would feed it without end.
		 */
		(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
		(void)sched_setscheduler(0, SCHED_OTHER, &sp);
		execlp("perf", "perf", "record", "-q", "-a", "-D", "-1",
		       "-m", "4096", "--control", control, "-e", events,
		       "--exclude-perf", "-o", data, (char *)NULL);
		_exit(127);
	}
	ctl = open(ctl_path, O_WRONLY | O_CLOEXEC);
	ack = open(ack_path, O_RDONLY | O_CLOEXEC);
	err = ctl < 0 || ack < 0 ? -errno : perf_ctl(ctl, ack, "enable\n");
	if (!err)
		err = measure(rounds, insn_fd, out);
	if (!err)
		err = perf_ctl(ctl, ack, "disable\n");
	if (err || write(ctl, "stop\n", 5) != 5)
		kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) == pid && !err &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		fprintf(stderr, "perf record: exit status %d\n", status);
		err = -ECHILD;
	}
out:
	if (ctl >= 0)
		close(ctl);
	if (ack >= 0)
		close(ack);
	unlink(data);
	unlink(ctl_path);
	unlink(ack_path);
	rmdir(dir);
	return err;
}

static int run_once(enum setup setup, long rounds, int insn_fd,
		    struct sample *out, double *events)
{
	int err;

	switch (setup) {
	case SETUP_BPF:
		return run_bpf(rounds, insn_fd, out, events);
	case SETUP_PERF:
		return run_perf(rounds, insn_fd, out);
	case SETUP_FLOOR_EMPTY:
	case SETUP_FLOOR_CLOCK:
	case SETUP_FLOOR_IDS:
		return run_floor(setup, rounds, insn_fd, out);
	case SETUP_FTRACE:
		err = ftrace_clear();
		if (!err)
			err = ftrace_set(true);
		if (!err)
			err = measure(rounds, insn_fd, out);
		(void)ftrace_set(false);
		if (!err && category->hits_from_ftrace)
			err = ftrace_entries(events);
		return err;
	default:
		return measure(rounds, insn_fd, out);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool measured(int setup)
{
	return setup != SETUP_PERF || have_perf;
}

/*
 * Figures of the medians, then the median over runs of each run's own
 * ratio to ftrace (the setups of a run are measured one after the other:
 * the machine's load moves less within a run than across runs).
 */
static void report(long rounds, int runs, double events,
		   const double *ns, const double *cpu, const double *insns,
		   const double *run_ratio, bool have_insns)
{
	double ftrace, bpf;
	int s;

	printf("kernel:%s: %s, %ld rounds, median of %d runs, %.0f events/run, ftrace clock %s\n",
	       category->name, category->workload, rounds, runs, events,
	       ftrace_clock);
	for (s = 0; s < SETUP_COUNT; s++) {
		if (!measured(s))
			continue;
		printf("%-9s %12.0f ns/run %8.1f ns/event", setup_name[s],
		       ns[s], ns[s] / events);
		if (have_insns)
			printf(" %8.0f insns/event", insns[s] / events);
		putchar('\n');
	}
	ftrace = (ns[SETUP_FTRACE] - ns[SETUP_NONE]) / events;
	bpf = (ns[SETUP_BPF] - ns[SETUP_NONE]) / events;
	printf("overhead per event: ftrace %.1f ns, bpf %.1f ns, bpf/ftrace %.2f (target <= 0.5)\n",
	       ftrace, bpf, bpf / ftrace);
	printf("same-run ratio, median of the runs: bpf/ftrace %.2f\n",
	       run_ratio[SETUP_BPF]);
	if (have_perf) {
		double perf = (ns[SETUP_PERF] - ns[SETUP_NONE]) / events;

		printf("overhead per event: perf record %.1f ns, bpf/perf %.2f\n",
		       perf, bpf / perf);
	}
	for (s = SETUP_FLOOR_EMPTY; s <= SETUP_FLOOR_IDS; s++)
		printf("floor per event: %s %.1f ns, /ftrace %.2f (same-run %.2f): %s\n",
		       setup_name[s], (ns[s] - ns[SETUP_NONE]) / events,
		       (ns[s] - ns[SETUP_NONE]) / events / ftrace,
		       run_ratio[s], setup_what[s]);
	/* Where the events run in this process (faults, system calls). */
	ftrace = (cpu[SETUP_FTRACE] - cpu[SETUP_NONE]) / events;
	bpf = (cpu[SETUP_BPF] - cpu[SETUP_NONE]) / events;
	printf("this process's CPU time per event: ftrace %.1f ns, bpf %.1f ns, bpf/ftrace %.2f\n",
	       ftrace, bpf, bpf / ftrace);
	if (!have_insns)
		return;
	ftrace = (insns[SETUP_FTRACE] - insns[SETUP_NONE]) / events;
	bpf = (insns[SETUP_BPF] - insns[SETUP_NONE]) / events;
	printf("instructions per event: ftrace %.0f, bpf %.0f, bpf/ftrace %.2f\n",
	       ftrace, bpf, bpf / ftrace);
}

/* Fails when BPF statistics are on: they time every program run. */
static int bpf_stats_off(void)
{
	char v = '0';
	int fd = open("/proc/sys/kernel/bpf_stats_enabled", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &v, 1) != 1)
			v = '0';
		close(fd);
	}
	if (v == '0')
		return 0;
	fprintf(stderr, "kernel.bpf_stats_enabled is on: it times every BPF program run (sysctl -w kernel.bpf_stats_enabled=0)\n");
	return -EBUSY;
}

static int pin_cpu0(void)
{
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	return sched_setaffinity(0, sizeof(cpu0), &cpu0) ? -errno : 0;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20000;
	int runs = argc > 2 ? atoi(argv[2]) : 7;
	double ns[SETUP_COUNT][MAX_RUNS] = { 0 }, insns[SETUP_COUNT][MAX_RUNS] = { 0 };
	double cpu[SETUP_COUNT][MAX_RUNS] = { 0 }, cpu_med[SETUP_COUNT];
	double ratio[SETUP_COUNT][MAX_RUNS] = { 0 }, ratio_med[SETUP_COUNT];
	double ev[MAX_RUNS], ns_med[SETUP_COUNT], insns_med[SETUP_COUNT];
	struct sample smp;
	unsigned int loop_minor;
	int i, s, err, insn_fd;

	category = &categories[0];
	for (i = 0; argc > 3 && i < (int)(sizeof(categories) /
					  sizeof(*categories)); i++)
		if (!strcmp(argv[3], categories[i].name))
			category = &categories[i];
	if (argc > 3 && strcmp(argv[3], category->name))
		rounds = 0;
	if (argc > 4)
		ftrace_clock = argv[4];
	if (argc > 5 || (strcmp(ftrace_clock, "local") &&
			 strcmp(ftrace_clock, "boot")))
		rounds = 0;
	if (rounds <= 0 || runs <= 0 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: %s [ROUNDS [RUNS<=%d [sched|proc|syscall|irq|fault|block|power|mem [local|boot]]]]\n",
			argv[0], MAX_RUNS);
		return 2;
	}
	if (bpf_stats_off())
		return 1;
	err = pin_cpu0();
	if (err) {
		fprintf(stderr, "CPU 0: %s\n", strerror(-err));
		return 1;
	}
	floor_skel = bpf_floor__open_and_load();
	if (!floor_skel) {
		fprintf(stderr, "floor programs: %s\n", strerror(errno));
		return 1;
	}
	if (category->work == read_rounds) {
		err = kdev_loop_attach("/tmp/fxt-bench-loop.img", loop_dev,
				       sizeof(loop_dev), &loop_minor);
		if (err) {
			fprintf(stderr, "loop device: %s\n", strerror(-err));
			return 1;
		}
	}
	err = ftrace_setup();
	if (err) {
		fprintf(stderr, "tracefs instance %s: %s (run as root)\n",
			INSTANCE, strerror(-err));
		return 1;
	}
	if (category->events & FXT_SCHED_EV_PROC) {
		err = driver_start();
		if (err) {
			fprintf(stderr, "driver: %s\n", strerror(-err));
			return 1;
		}
	}
	have_perf = system("perf --version >/dev/null 2>&1") == 0;
	if (!have_perf)
		fprintf(stderr, "perf not found: perf record not measured\n");
	realtime();
	insn_fd = instructions_open();
	for (i = 0; i < runs; i++) {
		for (s = 0; s < SETUP_COUNT; s++) {
			if (!measured(s))
				continue;
			err = run_once(s, rounds, insn_fd, &smp, &ev[i]);
			if (err) {
				fprintf(stderr, "%s: %s\n", setup_name[s],
					strerror(-err));
				return 1;
			}
			ns[s][i] = smp.ns;
			cpu[s][i] = smp.cpu_ns;
			insns[s][i] = smp.insns;
		}
		for (s = 0; s < SETUP_COUNT; s++)
			ratio[s][i] = (ns[s][i] - ns[SETUP_NONE][i]) /
				      (ns[SETUP_FTRACE][i] - ns[SETUP_NONE][i]);
	}
	(void)rmdir(INSTANCE);
	if (category->work == read_rounds) {
		kdev_loop_detach(loop_dev);
		(void)unlink("/tmp/fxt-bench-loop.img");
	}
	bpf_floor__destroy(floor_skel);
	for (s = 0; s < SETUP_COUNT; s++) {
		ns_med[s] = median(ns[s], runs);
		insns_med[s] = median(insns[s], runs);
		cpu_med[s] = median(cpu[s], runs);
		ratio_med[s] = median(ratio[s], runs);
	}
	report(rounds, runs, median(ev, runs), ns_med, cpu_med, insns_med,
	       ratio_med, insn_fd >= 0);
	return 0;
}
