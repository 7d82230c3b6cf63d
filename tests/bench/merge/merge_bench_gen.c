// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes one host's big archive for the merge benchmark: fxtraced's host
 * and clock records, then a realistic mix in interleaved provider
 * sections, as the manager's archives have them: an application provider
 * (duration begin/end pairs, complete events, instants with two
 * arguments, counters) and the kernel provider (wakeups and context
 * switches as the kernel side writes them, idle threads included).
 *
 *   merge_bench_gen FILE HOSTNAME BOOT_S MEGABYTES
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/host_clock.h>
#include <fxt/kirq.h>
#include <fxt/sched.h>

#include "fxt_writer.h"

#define NS 1000000000ull
#define WALL_START 1700000000000000000ull
#define APP_THREADS 8u
#define CPUS 8u
#define SECTION_RECORDS 20000u

enum { S_CAT = 1, S_WORK, S_DECODE, S_VSYNC, S_QUEUE, S_N, S_URL, S_REQ };

static uint64_t rng_state = 88172645463325252ull;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)rng_state;
}

static void check(int ret)
{
	if (ret) {
		fprintf(stderr, "merge_bench_gen: error %d\n", ret);
		exit(1);
	}
}

/* BOOTTIME at the start: every host starts at the same wall-clock time. */
static uint64_t boot0;

static void manager(struct fxt_writer *w, const char *host, uint64_t boot,
		    const char *at)
{
	const struct fxt_arg_in host_args[] = {
		fxt_warg_string(fxt_wstr("hostname"), fxt_wstr(host)),
	};
	const struct fxt_arg_in clock_args[] = {
		fxt_warg_uint64(fxt_wstr("boottime"), boot),
		fxt_warg_uint64(fxt_wstr("monotonic"), boot),
		fxt_warg_uint64(fxt_wstr("realtime"), WALL_START + boot - boot0),
		fxt_warg_uint64(fxt_wstr("error_ns"), 40),
		fxt_warg_string(fxt_wstr("at"), fxt_wstr(at)),
	};
	struct fxt_writer_event ev = {
		.ts = boot, .thread = fxt_wthread(0, 0),
		.category = fxt_wstr(FXT_HOST_CLOCK_CATEGORY),
		.name = fxt_wstr(FXT_HOST_NAME), .args = host_args, .nargs = 1,
	};

	check(fxt_write_provider_section(w, 9));
	if (!strcmp(at, FXT_CLOCK_AT_START))
		check(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD));
	ev.name = fxt_wstr(FXT_CLOCK_NAME);
	ev.args = clock_args;
	ev.nargs = 5;
	check(fxt_write_instant(w, &ev, FXT_SCOPE_THREAD));
}

static void headers(struct fxt_writer *w)
{
	static const char *const app[] = { "", "app", "work", "decode",
		"vsync", "queue_depth", "n", "url", "request" };
	static const char *const sched[] = FXT_SCHED_STRING_TABLE;
	const struct fxt_arg_in process = fxt_warg_koid(fxt_wstr("process"), 1000);
	unsigned int i;

	check(fxt_write_provider_info(w, 9, "fxtraced", 8));
	check(fxt_write_provider_info(w, 1, "app", 3));
	check(fxt_write_init(w, NS));
	for (i = 1; i < sizeof(app) / sizeof(*app); i++)
		check(fxt_write_string(w, (uint16_t)i, app[i], strlen(app[i])));
	for (i = 1; i <= APP_THREADS; i++)
		check(fxt_write_thread_ref(w, (uint8_t)i, 1000, 1000 + i));
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, 1000,
				      fxt_wstr("app"), NULL, 0));
	check(fxt_write_provider_info(w, 2, "kernel", 6));
	check(fxt_write_init(w, NS));
	for (i = 1; i <= FXT_SCHED_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)i, sched[i], strlen(sched[i])));
	for (i = 1; i <= APP_THREADS; i++)
		check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 1000 + i,
					      fxt_wstr("worker"), &process, 1));
}

static void app_work(struct fxt_writer *w, uint64_t *ts)
{
	uint8_t t = (uint8_t)(1 + rng() % APP_THREADS);
	struct fxt_arg_in inst[] = {
		fxt_warg_int32(fxt_wstr_index(S_N), (int32_t)rng()),
		fxt_warg_string(fxt_wstr_index(S_URL), fxt_wstr_index(S_REQ)),
	};
	struct fxt_arg_in ctr[] = { fxt_warg_int64(fxt_wstr_index(S_N), rng()) };
	struct fxt_writer_event e = {
		.ts = *ts, .thread = fxt_wthread_index(t),
		.category = fxt_wstr_index(S_CAT), .name = fxt_wstr_index(S_WORK),
	};

	check(fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &e, 0));
	e.ts += 100;
	e.name = fxt_wstr_index(S_DECODE);
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, e.ts + 200));
	e.ts += 300;
	e.name = fxt_wstr_index(S_VSYNC);
	e.args = inst;
	e.nargs = 2;
	check(fxt_write_instant(w, &e, FXT_SCOPE_THREAD));
	e.name = fxt_wstr_index(S_QUEUE);
	e.args = ctr;
	e.nargs = 1;
	check(fxt_write_event(w, FXT_EVENT_COUNTER, &e, 0));
	e.ts += 500;
	e.name = fxt_wstr_index(S_WORK);
	e.nargs = 0;
	check(fxt_write_event(w, FXT_EVENT_DURATION_END, &e, 0));
	*ts = e.ts + rng() % 1000;
}

static void kernel_work(struct fxt_writer *w, uint64_t *ts, uint64_t *running)
{
	unsigned int cpu = rng() % CPUS;
	uint64_t in = 1001 + rng() % APP_THREADS;
	uint64_t out = running[cpu] ? running[cpu] : fxt_kirq_thread_koid(0, cpu);
	__u64 words[FXT_SCHED_SWITCH_WORDS];

	fxt_sched_write_wakeup(words, *ts, cpu, in, 120, out);
	check(fxt_write_raw(w, words, FXT_SCHED_WAKEUP_WORDS * 8));
	fxt_sched_write_switch(words, *ts + 500, cpu, FXT_THREAD_BLOCKED, out,
			       in, running[cpu] ? 120 : FXT_SCHED_IDLE_WEIGHT, 120);
	check(fxt_write_raw(w, words, FXT_SCHED_SWITCH_WORDS * 8));
	running[cpu] = in;
	*ts += 1000 + rng() % 3000;
}

int main(int argc, char **argv)
{
	uint64_t boot, app_ts, kernel_ts, target, running[CPUS] = { 0 };
	struct fxt_writer w;
	unsigned int n;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: merge_bench_gen FILE HOSTNAME BOOT_S MEGABYTES\n");
		return 2;
	}
	boot = boot0 = strtoull(argv[3], NULL, 10) * NS;
	target = strtoull(argv[4], NULL, 10) << 20;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	check(fxt_write_magic(&w));
	headers(&w);
	manager(&w, argv[2], boot, FXT_CLOCK_AT_START);
	app_ts = kernel_ts = boot + NS;
	while (w.bytes_flushed + w.len < target) {
		check(fxt_write_provider_section(&w, 1));
		for (n = 0; n < SECTION_RECORDS; n += 5)
			app_work(&w, &app_ts);
		check(fxt_write_provider_section(&w, 2));
		for (n = 0; n < SECTION_RECORDS / 4; n += 2)
			kernel_work(&w, &kernel_ts, running);
	}
	manager(&w, argv[2], (app_ts > kernel_ts ? app_ts : kernel_ts) + NS,
		FXT_CLOCK_AT_STOP);
	check(fxt_writer_flush(&w) ?: fxt_writer_error(&w));
	fxt_writer_release(&w);
	return close(fd) ? 1 : 0;
}
