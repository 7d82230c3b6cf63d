// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxt-gen: writes a synthetic FXT archive of about the requested size,
 * shaped like a real trace: a kernel provider with context switches,
 * wakeups and thread objects, and two application providers with
 * duration, instant, counter, async and flow events carrying arguments,
 * mostly indexed strings and threads, some inline. For measuring readers.
 *
 *   fxt-gen -o /tmp/big.fxt -m 1024
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt_writer.h"

#define KERNEL_ID 1
#define APP_IDS 2

static const char *const names[] = {
	"", "gfx", "net", "frame", "draw", "poll", "send", "recv", "bytes",
	"count", "fd", "outgoing_weight", "incoming_weight", "weight", "waker",
	"process",
};

enum { S_GFX = 1, S_NET, S_FRAME, S_DRAW, S_POLL, S_SEND, S_RECV, S_BYTES,
	S_COUNT, S_FD, S_OUT_W, S_IN_W, S_W, S_WAKER, S_PROCESS, S_N };

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void write_tables(struct fxt_writer *w)
{
	unsigned int i;

	for (i = 1; i < S_N; i++)
		fxt_write_string(w, (uint16_t)i, names[i], strlen(names[i]));
	for (i = 1; i <= 32; i++)
		fxt_write_thread_ref(w, (uint8_t)i, 1000 + i / 4, 2000 + i);
}

static void write_kernel_burst(struct fxt_writer *w, uint64_t *ts)
{
	struct fxt_arg_in sw[2] = {
		fxt_warg_int32(fxt_wstr_index(S_OUT_W), 100),
		fxt_warg_int32(fxt_wstr_index(S_IN_W), 120),
	};
	struct fxt_arg_in wk[2] = {
		fxt_warg_int32(fxt_wstr_index(S_W), 100),
		fxt_warg_koid(fxt_wstr_index(S_WAKER), 2001),
	};
	unsigned int i;

	for (i = 0; i < 64; i++) {
		uint64_t r = next_rand();

		*ts += 700 + (r & 0xff);
		fxt_write_thread_wakeup(w, *ts, r % 8, 2000 + (r >> 8) % 32,
					wk, 2);
		fxt_write_context_switch(w, *ts + 50, r % 8, FXT_THREAD_BLOCKED,
					 2000 + (r >> 16) % 32,
					 2000 + (r >> 8) % 32, sw, 2);
	}
}

static void write_app_burst(struct fxt_writer *w, uint64_t *ts)
{
	struct fxt_arg_in args[3] = {
		fxt_warg_uint64(fxt_wstr_index(S_BYTES), 4096),
		fxt_warg_int32(fxt_wstr_index(S_FD), 7),
		fxt_warg_string(fxt_wstr_index(S_COUNT), fxt_wstr("inline")),
	};
	struct fxt_writer_event ev = {
		.category = fxt_wstr_index(S_GFX),
		.name = fxt_wstr_index(S_FRAME),
		.args = args,
	};
	unsigned int i;

	for (i = 0; i < 64; i++) {
		uint64_t r = next_rand();

		*ts += 300 + (r & 0x3ff);
		ev.ts = *ts;
		ev.thread = fxt_wthread_index((uint8_t)(1 + r % 32));
		ev.nargs = 0;
		fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &ev, 0);
		ev.nargs = 2;
		ev.name = fxt_wstr_index(S_SEND);
		fxt_write_instant(w, &ev, FXT_SCOPE_THREAD);
		ev.nargs = 1;
		fxt_write_event(w, FXT_EVENT_COUNTER, &ev, 1);
		if (!(r & 0x30)) {
			ev.name = fxt_wstr("inline event name");
			ev.nargs = 3;
			ev.thread = fxt_wthread(1000, 2000 + r % 97);
			fxt_write_event(w, FXT_EVENT_ASYNC_BEGIN, &ev, r);
			fxt_write_event(w, FXT_EVENT_FLOW_STEP, &ev, r);
		}
		ev.ts += 200;
		ev.nargs = 0;
		ev.name = fxt_wstr_index(S_FRAME);
		ev.thread = fxt_wthread_index((uint8_t)(1 + r % 32));
		fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &ev,
				ev.ts + 100);
		fxt_write_event(w, FXT_EVENT_DURATION_END, &ev, 0);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: fxt-gen -o FILE [-m MIB]\n"
		   "Writes a synthetic FXT archive of about MIB MiB (default 64).\n");
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t target = 64ull << 20, ts[1 + APP_IDS] = { 0 };
	struct fxt_writer w;
	unsigned int p;
	int c, fd, err;

	while ((c = getopt(argc, argv, "o:m:h")) != -1) {
		switch (c) {
		case 'o':
			path = optarg;
			break;
		case 'm':
			target = strtoull(optarg, NULL, 10) << 20;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!path) {
		usage(stderr);
		return 2;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "fxt-gen: cannot create %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	fxt_write_magic(&w);
	fxt_write_provider_info(&w, KERNEL_ID, "kernel", 6);
	fxt_write_init(&w, 1000000000);
	write_tables(&w);
	for (p = 0; p < APP_IDS; p++) {
		fxt_write_provider_info(&w, 100 + p, "app", 3);
		fxt_write_init(&w, 1000000000);
		write_tables(&w);
	}
	while (w.bytes_flushed + w.len < target && !fxt_writer_error(&w)) {
		fxt_write_provider_section(&w, KERNEL_ID);
		write_kernel_burst(&w, &ts[0]);
		for (p = 0; p < APP_IDS; p++) {
			fxt_write_provider_section(&w, 100 + p);
			write_app_burst(&w, &ts[1 + p]);
		}
	}
	fxt_writer_flush(&w);
	err = fxt_writer_error(&w);
	fxt_writer_release(&w);
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		fprintf(stderr, "fxt-gen: writing %s failed: %s\n", path,
			strerror(-err));
		return 1;
	}
	return 0;
}
