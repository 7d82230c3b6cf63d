// SPDX-License-Identifier: GPL-2.0-only
/*
 * fleet_gen: an archive of one "host" of a made-up fleet, with known
 * answers for the export tests and the queries of docs/fleet.md.
 *
 *   fleet_gen OUT HOSTNAME TRACE_ID INDEX [EVENTS]
 *
 * The host record names HOSTNAME and TRACE_ID; its BOOTTIME runs
 * (4 - INDEX) x 100 s ahead of the others' (so trace time alone orders
 * the hosts backwards), its REALTIME is the fleet's: event i happens at
 * wall time 1700000000 s + i x 10 ms + INDEX x 100 us, on every host.
 * Per event i (EVENTS, default 100) on pid 100:
 *   - slice "request" (begin/end, tid 101), INDEX x (i + 1) us long;
 *   - slice "db" (complete, tid 102), 5 us;
 *   - instant "tick" with n = i; counter "queue" with depth = i % 7;
 *   - flow 1000 + i: begin on INDEX 1, step on 2, end on 3 (and more);
 *   - async "job" begin and end, id i;
 *   - a wakeup of tid 101, its switch-in INDEX us later on CPU 0, and
 *     the switch to idle 2 us after that (to the idle pseudo thread
 *     0x40000001 of weight INT32_MIN, as fxtraced writes it);
 *   - stack samples (fleet_samples.h).
 * HOSTNAME "-": no host or clock record (an archive of an older fxtraced).
 * An instant named with every awkward byte (quotes, backslash, newline,
 * tab, 0x01, 0xff, a ';' and SQL) ends the trace: its name must arrive
 * byte for byte.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/fxt.h>
#include <fxt/host_clock.h>

#include "fleet_samples.h"
#include "fxt_writer.h"

#define WALL0 1700000000000000000ull
#define STEP_NS 10000000ull
#define MANAGER 1
#define APP 2
#define KERNEL 3

/* An awkward name, byte for byte (the test knows it too). */
static const char awkward[] = "it's \"quoted\"\\ \n\t\x01\xff'; DROP TABLE slices; --";

static uint64_t boot0;		/* the host's BOOTTIME at WALL0 */
static unsigned int host_index;

static struct fxt_writer_event ev(uint64_t ts, uint64_t tid, const char *cat,
				  const char *name)
{
	return (struct fxt_writer_event){ .ts = ts,
					  .thread = fxt_wthread(100, tid),
					  .category = fxt_wstr(cat),
					  .name = fxt_wstr(name) };
}

static void manager_record(struct fxt_writer *w, const char *name,
			   const struct fxt_arg_in *args, unsigned int n,
			   uint64_t ts)
{
	struct fxt_writer_event e = ev(ts, 0, FXT_HOST_CLOCK_CATEGORY, name);

	e.thread = fxt_wthread(0, 0);
	e.args = args;
	e.nargs = n;
	fxt_write_provider_section(w, MANAGER);
	fxt_write_instant(w, &e, FXT_SCOPE_THREAD);
}

static void clock_record(struct fxt_writer *w, const char *at, uint64_t wall)
{
	uint64_t boot = boot0 + (wall - WALL0);
	const struct fxt_arg_in args[] = {
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_BOOTTIME), boot),
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_MONOTONIC), boot - 1000),
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_REALTIME), wall),
		fxt_warg_uint64(fxt_wstr(FXT_CLOCK_ARG_ERROR_NS), 50),
		fxt_warg_string(fxt_wstr(FXT_CLOCK_ARG_AT), fxt_wstr(at)),
	};

	manager_record(w, FXT_CLOCK_NAME, args, 5, boot);
}

static void host_record(struct fxt_writer *w, const char *host,
			const char *trace_id)
{
	const struct fxt_arg_in args[] = {
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_MACHINE_ID),
				fxt_wstr("0123456789abcdef0123456789abcdef")),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_BOOT_ID),
				fxt_wstr("01234567-89ab-cdef-0123-456789abcdef")),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_HOSTNAME), fxt_wstr(host)),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_KERNEL),
				fxt_wstr("6.1.0-fleet")),
		fxt_warg_string(fxt_wstr(FXT_HOST_ARG_TRACE_ID),
				fxt_wstr(trace_id)),
	};

	manager_record(w, FXT_HOST_NAME, args, 5, boot0);
}

static void app_events(struct fxt_writer *w, unsigned int i)
{
	uint64_t t = boot0 + i * STEP_NS + host_index * 100000ull;
	uint64_t wait = host_index * 1000ull;
	const struct fxt_arg_in tick[] = { fxt_warg_uint64(fxt_wstr("n"), i) };
	const struct fxt_arg_in depth[] = {
		fxt_warg_int64(fxt_wstr("depth"), (int64_t)(i % 7)) };
	const struct fxt_arg_in idle[] = {
		fxt_warg_int32(fxt_wstr("incoming_weight"), INT32_MIN) };
	struct fxt_writer_event e;

	fxt_write_provider_section(w, APP);
	e = ev(t, 101, "app", "request");
	fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &e, 0);
	e.ts = t + host_index * (i + 1) * 1000ull;
	fxt_write_event(w, FXT_EVENT_DURATION_END, &e, 0);
	e = ev(t, 102, "app", "db");
	fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, t + 5000);
	e = ev(t, 101, "app", "tick");
	e.args = tick;
	e.nargs = 1;
	fxt_write_instant(w, &e, FXT_SCOPE_THREAD);
	e = ev(t, 101, "app", "queue");
	e.args = depth;
	e.nargs = 1;
	fxt_write_event(w, FXT_EVENT_COUNTER, &e, 7);
	e = ev(t, 101, "app", "hop");
	fxt_write_event(w, host_index == 1 ? FXT_EVENT_FLOW_BEGIN :
			host_index == 2 ? FXT_EVENT_FLOW_STEP : FXT_EVENT_FLOW_END,
			&e, 1000 + i);
	e = ev(t, 101, "app", "job");
	fxt_write_event(w, FXT_EVENT_ASYNC_BEGIN, &e, i);
	e.ts = t + 3000;
	fxt_write_event(w, FXT_EVENT_ASYNC_END, &e, i);
	fxt_write_thread_wakeup(w, t, 0, 101, NULL, 0);
	fxt_write_context_switch(w, t + wait, 0, 0, 0, 101, NULL, 0);
	fxt_write_context_switch(w, t + wait + 2000, 0, 1, 101, 0x40000001,
				 idle, 1);
}

int main(int argc, char **argv)
{
	unsigned int i, events = 100;
	struct fxt_writer w;
	struct fxt_writer_event e;
	int fd;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: fleet_gen OUT HOSTNAME TRACE_ID INDEX "
				"[EVENTS]\n");
		return 2;
	}
	host_index = (unsigned int)atoi(argv[4]);
	if (argc == 6)
		events = (unsigned int)strtoul(argv[5], NULL, 10);
	boot0 = (4 - host_index % 4) * 100000000000ull + 7000000000ull;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	fxt_write_magic(&w);
	fxt_write_provider_info(&w, MANAGER, FXT_HOST_CLOCK_PROVIDER,
				strlen(FXT_HOST_CLOCK_PROVIDER));
	fxt_write_init(&w, 1000000000);
	if (strcmp(argv[2], "-")) {
		host_record(&w, argv[2], argv[3]);
		clock_record(&w, FXT_CLOCK_AT_START, WALL0);
	}
	fxt_write_provider_info(&w, APP, "app", 3);
	fxt_write_init(&w, 1000000000);
	fleet_samples_begin(&w, KERNEL);
	for (i = 0; i < events; i++) {
		app_events(&w, i);
		fleet_samples_event(&w, KERNEL, host_index, i,
				    boot0 + i * STEP_NS + host_index * 100000ull);
	}
	fleet_samples_end(&w, KERNEL);
	fxt_write_provider_section(&w, APP);
	e = ev(boot0 + events * STEP_NS, 101, "app", awkward);
	fxt_write_instant(&w, &e, FXT_SCOPE_THREAD);
	if (strcmp(argv[2], "-"))
		clock_record(&w, FXT_CLOCK_AT_STOP,
			     WALL0 + (events + 1) * STEP_NS);
	if (fxt_writer_flush(&w) || fxt_writer_error(&w) || close(fd)) {
		fprintf(stderr, "fleet_gen: cannot write %s\n", argv[1]);
		return 1;
	}
	fxt_writer_release(&w);
	return 0;
}
