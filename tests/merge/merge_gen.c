// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the archive of one "host" for the merge tests: its host and
 * clock records (as fxtraced writes them), an application provider whose
 * numbered "tick" instants fall at the same wall-clock moments on every
 * host, a kernel provider with context switches and wakeups on each CPU,
 * a buffer overflow. Every host uses the same provider ids, pids, tids
 * and CPU numbers, so that the merge must tell them apart.
 *
 *   merge_gen FILE HOSTNAME BOOT_S DRIFT_PPM CPUS TICKS_PER_S [FLAGS]
 *
 * BOOT_S: the host's CLOCK_BOOTTIME at the start (s); DRIFT_PPM: how much
 * faster its REALTIME runs than its BOOTTIME; the tick events span 20 s
 * of wall time. FLAGS: "noclock" (no clock records), "nohost" (no host
 * record), "legacy" (legacy context switches), and readings no host
 * writes: "zeroclock" (the start reading all 0), "maxclock" (the stop's
 * REALTIME 2^64 - 1), "reversed" (the stop reading the start's, 1 s
 * earlier). The host record's trace id is the hostname's bytes in hex.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/host_clock.h>
#include <fxt/kirq.h>

#include "fxt_writer.h"

#define NS 1000000000ull
#define WALL_START 1700000000000000000ull	/* REALTIME at the start */
#define SPAN_NS (20 * NS)
#define TICKS 201u				/* every 100 ms of wall time */
#define PID 100u
#define TID 101u
#define TID_INLINE 102u

enum { P_FXTRACED = 7, P_APP = 2, P_KERNEL = 3 };
enum { S_APP = 1, S_TICK, S_N, S_WORK };

struct host {
	const char *name;
	uint64_t boot0;		/* BOOTTIME at WALL_START */
	int64_t drift_ppm;
	unsigned int cpus;
	uint64_t tps;
	bool clock, host_record, legacy;
	bool zero_clock, max_clock, reversed;
};

static void check(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "merge_gen: %s: %s\n", what, strerror(-ret));
		exit(1);
	}
}

/* BOOTTIME of the wall-clock moment WALL_START + wall. */
static uint64_t boot_at(const struct host *h, uint64_t wall)
{
	return h->boot0 + (uint64_t)((__int128)wall * 1000000 /
				     (1000000 + h->drift_ppm));
}

/* REALTIME when BOOTTIME reads boot0 + boot (boot: whole ms). */
static uint64_t wall_at(const struct host *h, uint64_t boot)
{
	return WALL_START + boot + (uint64_t)((int64_t)boot / 1000000 * h->drift_ppm);
}

static uint64_t ticks(const struct host *h, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * h->tps / NS);
}

static void instant(struct fxt_writer *w, uint64_t ts, const char *name,
		    const struct fxt_arg_in *args, unsigned int nargs)
{
	const struct fxt_writer_event ev = {
		.ts = ts, .thread = fxt_wthread(0, 0),
		.category = fxt_wstr(FXT_HOST_CLOCK_CATEGORY),
		.name = fxt_wstr(name), .args = args, .nargs = nargs,
	};

	check(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD), name);
}

static void clock_record(struct fxt_writer *w, const struct host *h,
			 uint64_t boot, const char *at)
{
	bool stop = !strcmp(at, FXT_CLOCK_AT_STOP);
	struct fxt_arg_in args[5];
	uint64_t b, m, r;

	if (stop && h->reversed)
		boot = 0;
	b = h->boot0 + boot - (stop && h->reversed ? NS : 0);
	m = b - NS;
	r = wall_at(h, boot) - (stop && h->reversed ? NS : 0);
	if (!stop && h->zero_clock)
		b = m = r = 0;
	if (stop && h->max_clock)
		r = UINT64_MAX;
	args[0] = fxt_warg_uint64(fxt_wstr("boottime"), b);
	args[1] = fxt_warg_uint64(fxt_wstr("monotonic"), m);
	args[2] = fxt_warg_uint64(fxt_wstr("realtime"), r);
	args[3] = fxt_warg_uint64(fxt_wstr("error_ns"), 40);
	args[4] = fxt_warg_string(fxt_wstr("at"), fxt_wstr(at));

	if (h->clock)
		instant(w, h->boot0 + boot, FXT_CLOCK_NAME, args, 5);
}

/* The hostname's first 16 bytes in hex, 0-padded: an id per host. */
static const char *trace_id_of(const struct host *h, char *id)
{
	size_t len = strlen(h->name);
	unsigned int i;

	for (i = 0; i < FXT_HOST_TRACE_ID_LEN / 2; i++)
		snprintf(id + 2 * i, 3, "%02x",
			 i < len ? (unsigned char)h->name[i] : 0);
	return id;
}

static void manager_start(struct fxt_writer *w, const struct host *h)
{
	char id[FXT_HOST_TRACE_ID_LEN + 1];
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr("machine_id"),
				fxt_wstr("0123456789abcdef0123456789abcdef")),
		fxt_warg_string(fxt_wstr("boot_id"),
				fxt_wstr("01234567-89ab-cdef-0123-456789abcdef")),
		fxt_warg_string(fxt_wstr("hostname"), fxt_wstr(h->name)),
		fxt_warg_string(fxt_wstr("kernel"), fxt_wstr("6.1.0-test")),
		fxt_warg_string(fxt_wstr("trace_id"),
				fxt_wstr(trace_id_of(h, id))),
	};

	check(fxt_write_magic(w), "magic");
	check(fxt_write_provider_info(w, P_FXTRACED, "fxtraced", 8), "info");
	check(fxt_write_init(w, NS), "init");
	if (h->host_record)
		instant(w, h->boot0, FXT_HOST_NAME, args, 5);
	clock_record(w, h, 0, FXT_CLOCK_AT_START);
}

static void app_objects(struct fxt_writer *w)
{
	const struct fxt_arg_in process = fxt_warg_koid(fxt_wstr("process"), PID);

	check(fxt_write_string(w, S_APP, "app", 3), "string");
	check(fxt_write_string(w, S_TICK, "tick", 4), "string");
	check(fxt_write_string(w, S_N, "n", 1), "string");
	check(fxt_write_string(w, S_WORK, "app-worker", 10), "string");
	check(fxt_write_thread_ref(w, 1, PID, TID), "thread");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, PID,
				      fxt_wstr_index(S_APP), NULL, 0), "process");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, TID,
				      fxt_wstr_index(S_WORK), &process, 1),
	      "thread");
}

/* Tick n at wall time n * 100 ms, on an indexed and an inline thread. */
static void app_tick(struct fxt_writer *w, const struct host *h, unsigned int n)
{
	uint64_t ts = ticks(h, boot_at(h, n * (SPAN_NS / (TICKS - 1))));
	struct fxt_arg_in args[] = {
		fxt_warg_uint64(fxt_wstr_index(S_N), n),
		fxt_warg_koid(fxt_wstr("peer"), TID_INLINE),
	};
	struct fxt_writer_event ev = {
		.ts = ts, .thread = fxt_wthread_index(1),
		.category = fxt_wstr_index(S_APP), .name = fxt_wstr_index(S_TICK),
		.args = args, .nargs = 2,
	};

	check(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD), "tick");
	ev.thread = fxt_wthread(PID, TID_INLINE);
	ev.name = fxt_wstr("span");
	ev.nargs = 1;
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &ev,
			      ts + ticks(h, 1000000)), "span");
}

static void sched_switch(struct fxt_writer *w, const struct host *h,
			 uint64_t ts, unsigned int cpu)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_int32(fxt_wstr("incoming_weight"), 20),
		fxt_warg_int32(fxt_wstr("outgoing_weight"), INT32_MIN),
	};
	const struct fxt_arg_in wake[] = {
		fxt_warg_int32(fxt_wstr("weight"), 20),
		fxt_warg_koid(fxt_wstr("waker"), TID_INLINE),
	};
	uint64_t idle = fxt_kirq_thread_koid(0, cpu);

	check(fxt_write_thread_wakeup(w, ts, cpu, TID, wake, 2), "wakeup");
	if (h->legacy)
		check(fxt_write_legacy_context_switch(w, ts, cpu,
						      FXT_THREAD_RUNNING,
						      fxt_wthread(0, idle),
						      fxt_wthread(PID, TID), 0, 0),
		      "legacy switch");
	else
		check(fxt_write_context_switch(w, ts, cpu, FXT_THREAD_RUNNING,
					       idle, TID, args, 2), "switch");
}

static void kernel_start(struct fxt_writer *w, const struct host *h)
{
	const struct fxt_arg_in process = fxt_warg_koid(fxt_wstr("process"), 0);
	char name[32];
	unsigned int cpu;

	check(fxt_write_provider_info(w, P_KERNEL, "kernel", 6), "info");
	check(fxt_write_init(w, NS), "init");
	for (cpu = 0; cpu < h->cpus; cpu++) {
		snprintf(name, sizeof(name), "swapper/%u", cpu);
		check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD,
					      fxt_kirq_thread_koid(0, cpu),
					      fxt_wstr(name), &process, 1),
		      "idle thread");
	}
}

static void write_host(struct fxt_writer *w, const struct host *h)
{
	unsigned int n;

	manager_start(w, h);
	kernel_start(w, h);
	check(fxt_write_provider_info(w, P_APP, "app", 3), "info");
	check(fxt_write_init(w, h->tps), "init");
	app_objects(w);
	for (n = 0; n < TICKS; n++) {
		check(fxt_write_provider_section(w, P_APP), "section");
		app_tick(w, h, n);
		check(fxt_write_provider_section(w, P_KERNEL), "section");
		sched_switch(w, h, boot_at(h, n * (SPAN_NS / (TICKS - 1))),
			     n % h->cpus);
	}
	check(fxt_write_provider_event(w, P_APP,
				       FXT_PROVIDER_EVENT_BUFFER_OVERFLOW),
	      "overflow");
	check(fxt_write_provider_section(w, P_FXTRACED), "section");
	clock_record(w, h, SPAN_NS + NS, FXT_CLOCK_AT_STOP);
}

int main(int argc, char **argv)
{
	struct host h = { .clock = true, .host_record = true };
	struct fxt_writer w;
	int fd, i;

	if (argc < 7) {
		fprintf(stderr, "usage: merge_gen FILE HOSTNAME BOOT_S DRIFT_PPM CPUS TICKS_PER_S [noclock|nohost|legacy|zeroclock|maxclock|reversed]...\n");
		return 2;
	}
	h.name = argv[2];
	h.boot0 = strtoull(argv[3], NULL, 0) * NS;
	h.drift_ppm = strtoll(argv[4], NULL, 0);
	h.cpus = (unsigned int)strtoul(argv[5], NULL, 0);
	h.tps = strtoull(argv[6], NULL, 0);
	for (i = 7; i < argc; i++) {
		h.clock &= strcmp(argv[i], "noclock") != 0;
		h.host_record &= strcmp(argv[i], "nohost") != 0;
		h.legacy |= !strcmp(argv[i], "legacy");
		h.zero_clock |= !strcmp(argv[i], "zeroclock");
		h.max_clock |= !strcmp(argv[i], "maxclock");
		h.reversed |= !strcmp(argv[i], "reversed");
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || !h.cpus || !h.tps) {
		perror("merge_gen");
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	write_host(&w, &h);
	check(fxt_writer_flush(&w) ?: fxt_writer_error(&w), "write");
	fxt_writer_release(&w);
	return close(fd) ? 1 : 0;
}
