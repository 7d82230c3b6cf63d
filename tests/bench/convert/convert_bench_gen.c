// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes a big FXT archive with a realistic mix for the convert benchmark:
 * an application provider (duration begin/end pairs, complete events,
 * instants with two arguments, counters) and the kernel provider (context
 * switches and wakeups as the kernel side writes them), in interleaved
 * provider sections like the manager's archives.
 *
 *   convert_bench_gen FILE MEGABYTES
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/sched.h>

#include "fxt_writer.h"

#define APP_THREADS 8u
#define CPUS 8u
#define APP_RECORDS_PER_SECTION 50000u
#define KERNEL_RECORDS_PER_SECTION 12000u

static const char *const names[] = {
	"app", "render", "layout", "paint", "io", "net", "frame", "decode",
	"queue_depth", "bytes", "request", "vsync",
};

/* String indexes: names[] from 1, then the argument names. */
enum {
	S_CAT = 1, S_RENDER, S_LAYOUT, S_PAINT, S_IO, S_NET, S_FRAME,
	S_DECODE, S_QUEUE, S_BYTES, S_REQUEST, S_VSYNC, S_ARG_N, S_ARG_URL,
};

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
		fprintf(stderr, "convert_bench_gen: %s\n", strerror(-ret));
		exit(1);
	}
}

static struct fxt_writer_event ev(uint64_t ts, uint8_t thread, uint16_t name,
				  const struct fxt_arg_in *args,
				  unsigned int nargs)
{
	return (struct fxt_writer_event){
		.ts = ts, .thread = fxt_wthread_index(thread),
		.category = fxt_wstr_index(S_CAT),
		.name = fxt_wstr_index(name), .args = args, .nargs = nargs,
	};
}

static void app_header(struct fxt_writer *w)
{
	unsigned int i;

	check(fxt_write_provider_info(w, 1, "app", 3));
	check(fxt_write_provider_section(w, 1));
	check(fxt_write_init(w, 1000000000));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		check(fxt_write_string(w, (uint16_t)(i + 1), names[i],
				       strlen(names[i])));
	check(fxt_write_string(w, S_ARG_N, "n", 1));
	check(fxt_write_string(w, S_ARG_URL, "url", 3));
	for (i = 1; i <= APP_THREADS; i++)
		check(fxt_write_thread_ref(w, (uint8_t)i, 1000, 1000 + i));
}

/*
 * One unit of application work: a begin/end pair around a complete
 * event, an instant with an int and a string argument, a counter.
 */
static unsigned int app_work(struct fxt_writer *w, uint64_t *ts)
{
	uint8_t t = (uint8_t)(1 + rng() % APP_THREADS);
	uint16_t name = (uint16_t)(S_RENDER + rng() % 7);
	struct fxt_arg_in inst_args[] = {
		fxt_warg_int32(fxt_wstr_index(S_ARG_N), (int32_t)rng()),
		fxt_warg_string(fxt_wstr_index(S_ARG_URL),
				fxt_wstr_index(S_REQUEST)),
	};
	struct fxt_arg_in ctr_args[] = {
		fxt_warg_int64(fxt_wstr_index(S_BYTES), rng()),
	};
	struct fxt_writer_event e;
	uint64_t start = *ts;

	e = ev(start, t, name, NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &e, 0));
	e = ev(start + 100 + rng() % 500, t, S_DECODE, NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e,
			      e.ts + 50 + rng() % 200));
	e = ev(start + 900, t, S_VSYNC, inst_args, 2);
	check(fxt_write_instant(w, &e, FXT_SCOPE_THREAD));
	e = ev(start + 950, t, S_QUEUE, ctr_args, 1);
	check(fxt_write_event(w, FXT_EVENT_COUNTER, &e, 0));
	e = ev(start + 1000 + rng() % 1000, t, name, NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_DURATION_END, &e, 0));
	*ts = e.ts + rng() % 100;
	return 5;
}

static void kernel_header(struct fxt_writer *w)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;
	unsigned int i;

	check(fxt_write_provider_info(w, 2, "kernel", 6));
	check(fxt_write_provider_section(w, 2));
	check(fxt_write_init(w, 1000000000));
	for (i = 1; i <= FXT_SCHED_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)i, table[i],
				       strlen(table[i])));
	for (i = 1; i <= APP_THREADS; i++) {
		struct fxt_arg_in process[] = {
			fxt_warg_koid(fxt_wstr_index(FXT_SCHED_STR_PROCESS),
				      1000),
		};
		char name[16];

		snprintf(name, sizeof(name), "worker-%u", i);
		check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 1000 + i,
					      fxt_wstr(name), process, 1));
	}
}

/* A wakeup then the switch to the woken thread, as the kernel writes. */
static unsigned int kernel_work(struct fxt_writer *w, uint64_t *ts,
				uint64_t *running)
{
	unsigned int cpu = rng() % CPUS;
	uint64_t in = rng() % 4 ? 1001 + rng() % APP_THREADS : 0;
	__u64 words[FXT_SCHED_RECORD_MAX_WORDS];

	if (in) {
		fxt_sched_write_wakeup(words, *ts, cpu, in, 120,
				       running[cpu] ? running[cpu] : 1001);
		check(fxt_write_raw(w, words, sizeof(words)));
	}
	fxt_sched_write_switch(words, *ts + 500, cpu, FXT_THREAD_BLOCKED,
			       running[cpu], in,
			       running[cpu] ? 120 : FXT_SCHED_IDLE_WEIGHT,
			       in ? 120 : FXT_SCHED_IDLE_WEIGHT);
	check(fxt_write_raw(w, words, sizeof(words)));
	running[cpu] = in;
	*ts += 1000 + rng() % 3000;
	return in ? 2 : 1;
}

int main(int argc, char **argv)
{
	uint64_t target, app_ts = 1000000, kernel_ts = 1000000;
	uint64_t running[CPUS] = { 0 };
	struct fxt_writer w;
	unsigned int n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: convert_bench_gen FILE MEGABYTES\n");
		return 2;
	}
	target = strtoull(argv[2], NULL, 10) << 20;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	check(fxt_write_magic(&w));
	app_header(&w);
	kernel_header(&w);
	while (w.bytes_flushed + w.len < target) {
		check(fxt_write_provider_section(&w, 1));
		for (n = 0; n < APP_RECORDS_PER_SECTION;)
			n += app_work(&w, &app_ts);
		check(fxt_write_provider_section(&w, 2));
		for (n = 0; n < KERNEL_RECORDS_PER_SECTION;)
			n += kernel_work(&w, &kernel_ts, running);
	}
	check(fxt_writer_flush(&w));
	fxt_writer_release(&w);
	if (close(fd)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
