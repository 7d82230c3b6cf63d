// SPDX-License-Identifier: GPL-2.0-only
/*
 * stacks_gen: archives with stack samples (include/fxt/stacks.h) for the
 * tests of tracectl convert, summary and report.
 *
 *   stacks_gen good FILE       process 1000 "stack_workload": thread 1001
 *                              "burner" has 700 on-CPU samples in
 *                              burn_seventy (50 of them in a kernel
 *                              interrupt) then 300 in burn_thirty, one
 *                              every 2 ms, inside slices "step" A (samples
 *                              0..99), C (200..249), B (700..999, the
 *                              slowest); thread 1002 "blocker" blocks 20
 *                              times 5 ms in pipe_read under block_on_pipe.
 *                              Symbols come first, stacks after the
 *                              samples: readers collect tables first.
 *   stacks_gen bad-ids FILE    ids that name nothing, duplicates, mapping
 *                              id 0, a frame kind 7, besides good samples
 *                              and 3 in a user frame of no mapping, 2
 *                              in a function named with escapes
 *   stacks_gen truncated FILE  entries cut by their record's end
 *   stacks_gen cycles FILE     a stack that recurses 3000 frames deep
 *                              through the same two frames
 *   stacks_gen flood FILE      past the reader's budgets: 700000 frames
 *                              (each a function of its own), 200 stacks
 *                              of 4000 frames under roots of their own
 *   stacks_gen deep FILE       thread 1002 "blocker" blocks 10 times
 *                              100 ms under 20 kernel frames (k00, the
 *                              leaf, to k19) over block_on_pipe and main,
 *                              thread 1001 "burner" once 50 ms there and
 *                              once 1 us in burn_seventy; burner has 3000
 *                              on-CPU samples in burn_seventy and one in
 *                              burn_rarely (0.03%)
 *   stacks_gen inline FILE     thread 1001: 10 samples in hot_loop, an
 *                              inline frame at work()'s address, 5 in
 *                              work() itself, 4 in shared() inlined into
 *                              work() and 6 in shared()'s own copy, all
 *                              under main()
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/kdev.h>
#include <fxt/stacks.h>
#include <fxt/stacks_losses.h>

#include "fxt_writer.h"

#define PID 1000u
#define BURNER 1001u
#define BLOCKER 1002u
#define MS 1000000ull
#define BASE_NS (1000 * MS)
#define PERIOD_NS 2004008ull

enum { F_MAIN = 1, F_SEVENTY, F_THIRTY, F_BLOCK, F_LIBC_READ, F_PIPE_READ,
       F_VFS_READ, F_SCHEDULE, F_APIC, F_UNKNOWN };
enum { S_SEVENTY = 11, S_THIRTY, S_BLOCKED, S_IRQ };
enum { M_WORKLOAD = 1, M_LIBC };

static void check(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "stacks_gen: %s: %s\n", what, strerror(-ret));
		exit(1);
	}
}

static uint16_t kdev(unsigned int s)
{
	return (uint16_t)s;
}

static void kernel_provider(struct fxt_writer *w)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;
	unsigned int i;

	check(fxt_write_provider_info(w, 2, "kernel", 6), "provider");
	check(fxt_write_provider_section(w, 2), "section");
	check(fxt_write_init(w, 1000000000), "init");
	for (i = 0; i < FXT_KDEV_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)(FXT_KDEV_STR_BASE + i),
				       table[i], strlen(table[i])), "string");
}

static void names(struct fxt_writer *w)
{
	struct fxt_arg_in process[] = {
		fxt_warg_koid(fxt_wstr("process"), PID),
	};

	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, PID,
				      fxt_wstr("stack_workload"), NULL, 0),
	      "process");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, BURNER,
				      fxt_wstr("burner"), process, 1),
	      "thread");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, BLOCKER,
				      fxt_wstr("blocker"), process, 1),
	      "thread");
}

/* One table record of nwords words; the name as the kdev string. */
static void table(struct fxt_writer *w, unsigned int name, const uint64_t *p,
		  size_t nwords)
{
	check(fxt_write_blob(w, fxt_wstr_index(kdev(name)), 1, p, nwords * 8),
	      "table");
}

static void sample(struct fxt_writer *w, bool offcpu, uint64_t ts,
		   uint64_t tid, uint64_t stack, uint64_t weight)
{
	struct fxt_stacks_sample s = {
		.category_ref = offcpu ? FXT_KDEV_STR_CAT_OFFCPU :
					 FXT_KDEV_STR_CAT_SAMPLE,
		.name_ref = offcpu ? FXT_KDEV_STR_OFFCPU :
				     FXT_KDEV_STR_CPU_SAMPLE,
		.cpu_ref = FXT_KDEV_STR_CPU,
		.stack_ref = FXT_KDEV_STR_STACK,
		.weight_ref = offcpu ? FXT_KDEV_STR_BLOCKED_NS :
				       FXT_KDEV_STR_PERIOD_NS,
		.ts = ts, .pid = PID, .tid = tid, .cpu = (uint32_t)(tid % 2),
		.stack_id = stack, .weight_ns = weight,
	};
	uint64_t words[FXT_STACKS_SAMPLE_WORDS];

	fxt_stacks_put_sample(words, &s);
	check(fxt_write_raw(w, words, sizeof(words)), "sample");
}

static uint64_t *mapping(uint64_t *p, uint32_t id, const char *path)
{
	struct fxt_stacks_mapping m = { .id = id,
					.path_len = (uint16_t)strlen(path),
					.build_id_len = 4,
					.path = path,
					.build_id =
						(const uint8_t *)"\1\2\3\4" };

	return fxt_stacks_put_mapping(p, &m);
}

static uint64_t *frame(uint64_t *p, uint32_t id, uint8_t kind,
		       uint32_t mapping_id, uint64_t addr, const char *name)
{
	struct fxt_stacks_frame f = { .id = id, .kind = kind,
				      .name_len = (uint16_t)strlen(name),
				      .mapping_id = mapping_id, .addr = addr,
				      .name = name };

	return fxt_stacks_put_frame(p, &f);
}

static uint64_t *symbol(uint64_t *p, uint32_t frame_id, const char *name)
{
	struct fxt_stacks_symbol s = { .frame_id = frame_id,
				       .name_len = (uint16_t)strlen(name),
				       .name = name };

	return fxt_stacks_put_symbol(p, &s);
}

static void write_symbols(struct fxt_writer *w)
{
	uint64_t buf[64], *p = buf;

	p = symbol(p, F_MAIN, "main");
	p = symbol(p, F_SEVENTY, "burn_seventy");
	p = symbol(p, F_THIRTY, "burn_thirty");
	p = symbol(p, F_BLOCK, "block_on_pipe");
	table(w, FXT_KDEV_STR_SYMBOLS, buf, (size_t)(p - buf));
}

static void write_frames(struct fxt_writer *w)
{
	const uint8_t u = FXT_STACKS_FRAME_USER, k = FXT_STACKS_FRAME_KERNEL;
	uint64_t buf[128], *p = buf;

	p = mapping(p, M_WORKLOAD, "/usr/libexec/fxtrace/stack_workload");
	p = mapping(p, M_LIBC, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	table(w, FXT_KDEV_STR_MAPPINGS, buf, (size_t)(p - buf));
	p = buf;
	p = frame(p, F_MAIN, u, M_WORKLOAD, 0x1100, "");
	p = frame(p, F_SEVENTY, u, M_WORKLOAD, 0x1200, "");
	p = frame(p, F_THIRTY, u, M_WORKLOAD, 0x1300, "");
	p = frame(p, F_BLOCK, u, M_WORKLOAD, 0x1400, "");
	p = frame(p, F_LIBC_READ, u, M_LIBC, 0x10f7e2, "");
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
	p = buf;	/* a second record of the same table */
	p = frame(p, F_PIPE_READ, k, 0, 0x1a4, "pipe_read");
	p = frame(p, F_VFS_READ, k, 0, 0x2c, "vfs_read");
	p = frame(p, F_SCHEDULE, k, 0, 0x31, "schedule");
	p = frame(p, F_APIC, k, 0, 0x1f, "asm_sysvec_apic_timer_interrupt");
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
}

static void write_stacks(struct fxt_writer *w)
{
	static const uint32_t seventy[] = { F_SEVENTY, F_MAIN };
	static const uint32_t thirty[] = { F_THIRTY, F_MAIN };
	static const uint32_t irq[] = { F_APIC, F_SEVENTY, F_MAIN };
	static const uint32_t blocked[] = { F_SCHEDULE, F_PIPE_READ, F_VFS_READ,
					    F_LIBC_READ, F_BLOCK, F_MAIN };
	uint64_t buf[64], *p = buf;

	p = fxt_stacks_put_stack(p, S_SEVENTY, seventy, 2);
	p = fxt_stacks_put_stack(p, S_THIRTY, thirty, 2);
	p = fxt_stacks_put_stack(p, S_IRQ, irq, 3);
	p = fxt_stacks_put_stack(p, S_BLOCKED, blocked, 6);
	table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf));
}

static void step(struct fxt_writer *w, unsigned int first, unsigned int n,
		 const char *which)
{
	struct fxt_writer_event e = {
		.ts = BASE_NS + first * PERIOD_NS - 1000,
		.thread = fxt_wthread(PID, BURNER),
		.category = fxt_wstr("test"), .name = fxt_wstr("step"),
	};
	struct fxt_arg_in args[] = { fxt_warg_string(fxt_wstr("which"),
						     fxt_wstr(which)) };

	e.args = args;
	e.nargs = 1;
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e,
			      BASE_NS + (first + n - 1) * PERIOD_NS + 1000),
	      "step");
}

static void write_samples(struct fxt_writer *w)
{
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		uint64_t stack = i >= 700 ? S_THIRTY :
				 i % 14 == 13 ? S_IRQ : S_SEVENTY;

		sample(w, false, BASE_NS + i * PERIOD_NS, BURNER, stack,
		       PERIOD_NS);
		if (i % 50 == 0)
			sample(w, true, BASE_NS + i * PERIOD_NS + 3000,
			       BLOCKER, S_BLOCKED, 5 * MS);
	}
	step(w, 0, 100, "A");
	step(w, 200, 50, "C");
	step(w, 700, 300, "B");
}

/* An entry of the losses record, written by hand; returns the end. */
static uint64_t *loss(uint64_t *p, const char *name, uint64_t count)
{
	size_t len = strlen(name);

	p[0] = len;
	p[1] = count;
	return fxt_stacks_put_bytes(p + 2, name, len);
}

/*
 * Two stack-losses records, as a merge of two archives holds: every
 * reason i counted i + 1, then junk_frame_word 10 more and a reason of a
 * later manager (5, counted apart) and a count that saturates.
 */
static void write_losses(struct fxt_writer *w)
{
	uint64_t counts[FXT_STACK_LOSS_COUNT], buf[128], *p;
	size_t i, n;

	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++)
		counts[i] = i + 1;
	n = fxt_stack_losses_put(buf, counts);
	check(fxt_write_raw(w, buf, n * sizeof(*buf)), "losses");
	p = loss(buf, "junk_frame_word", 10);
	p = loss(p, "a_later_reason", 5);
	p = loss(p, "mappings_lost", UINT64_MAX);
	table(w, FXT_STACK_LOSSES_STR, buf, (size_t)(p - buf));
}

static void gen_good(struct fxt_writer *w)
{
	kernel_provider(w);
	names(w);
	write_symbols(w);
	write_frames(w);
	write_samples(w);
	write_stacks(w);
	write_losses(w);
}

/* ---- hostile archives ------------------------------------------------ */

static void gen_bad_ids(struct fxt_writer *w)
{
	static const uint32_t bad[] = { F_PIPE_READ, 55, F_MAIN };
	static const uint32_t unknown[] = { F_UNKNOWN };
	static const uint32_t escape[] = { F_VFS_READ };
	uint64_t buf[64], *p = buf;
	unsigned int i;

	p = mapping(p, 0, "/reserved/for/the/kernel");
	p = mapping(p, M_WORKLOAD, "/usr/bin/w");
	p = mapping(p, M_WORKLOAD, "/usr/bin/duplicate");
	table(w, FXT_KDEV_STR_MAPPINGS, buf, (size_t)(p - buf));
	p = buf;
	p = frame(p, F_MAIN, FXT_STACKS_FRAME_USER, 99, 0x1100, "");
	p = frame(p, F_SEVENTY, 7, 0, 0, "kind seven");
	p = frame(p, F_PIPE_READ, FXT_STACKS_FRAME_KERNEL, 0, 4, "pipe_read");
	p = frame(p, F_PIPE_READ, FXT_STACKS_FRAME_KERNEL, 0, 4, "dup");
	/* in no mapping: mapping 0, a user frame, not a missing mapping */
	p = frame(p, F_UNKNOWN, FXT_STACKS_FRAME_USER, 0, 0x7f0000001234,
		  FXT_STACKS_USER_UNKNOWN);
	/* a terminal escape in a name */
	p = frame(p, F_VFS_READ, FXT_STACKS_FRAME_KERNEL, 0, 0,
		  "esc\x1b[31mred\x1b]0;title\x07");
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
	p = symbol(buf, 77, "of_no_frame");
	table(w, FXT_KDEV_STR_SYMBOLS, buf, (size_t)(p - buf));
	p = fxt_stacks_put_stack(buf, S_SEVENTY, bad, 3);
	p = fxt_stacks_put_stack(p, S_SEVENTY, bad, 1);
	p = fxt_stacks_put_stack(p, S_THIRTY, unknown, 1);
	p = fxt_stacks_put_stack(p, S_IRQ, escape, 1);
	table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf));
	for (i = 0; i < 3; i++)
		sample(w, false, BASE_NS + i * MS + 2, BURNER, S_THIRTY, MS);
	for (i = 0; i < 2; i++)
		sample(w, false, BASE_NS + i * MS + 3, BURNER, S_IRQ, MS);
	for (i = 0; i < 10; i++)
		sample(w, false, BASE_NS + i * MS, BURNER, S_SEVENTY, MS);
	for (i = 0; i < 5; i++)
		sample(w, false, BASE_NS + i * MS + 1, BURNER, 999, MS);
	sample(w, true, BASE_NS, BLOCKER, 999, MS);
	sample(w, false, BASE_NS, BURNER, 1ull << 40, MS);
}

static void gen_truncated(struct fxt_writer *w)
{
	static const uint32_t ok[] = { F_PIPE_READ };
	uint64_t buf[64], *p;
	unsigned int i;

	/* the path says 300 bytes, the record holds 16 */
	buf[0] = FXT_SET(M_WORKLOAD, FXT_STACKS_ID) |
		 FXT_SET(300, FXT_STACKS_MAP_PATH_LEN);
	memcpy(&buf[1], "/usr/bin/cut/off", 16);
	table(w, FXT_KDEV_STR_MAPPINGS, buf, 3);
	/* a whole frame, then one cut after its first word */
	p = frame(buf, F_PIPE_READ, FXT_STACKS_FRAME_KERNEL, 0, 4, "pipe_read");
	frame(p, F_MAIN, FXT_STACKS_FRAME_KERNEL, 0, 4, "a long name, cut");
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf) + 1);
	/* a whole stack, then one of 1000 frames in 2 words */
	p = fxt_stacks_put_stack(buf, S_SEVENTY, ok, 1);
	p[0] = FXT_SET(S_THIRTY, FXT_STACKS_ID) |
	       FXT_SET(1000, FXT_STACKS_STACK_NFRAMES);
	p[1] = F_PIPE_READ;
	table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf) + 2);
	/* a symbol table of 12 bytes: a word and a half */
	symbol(buf, F_PIPE_READ, "x");
	check(fxt_write_blob(w, fxt_wstr_index(FXT_KDEV_STR_SYMBOLS), 1, buf,
			     12), "table");
	/* a losses entry whose name the record cuts: one more malformed */
	loss(buf, "samples_dropped", 3);
	table(w, FXT_STACK_LOSSES_STR, buf, 3);
	for (i = 0; i < 10; i++)
		sample(w, false, BASE_NS + i * MS, BURNER,
		       i % 2 ? S_SEVENTY : S_THIRTY, MS);
}

static void gen_cycles(struct fxt_writer *w)
{
	static uint32_t deep[3000];
	static uint64_t buf[1600];
	uint64_t *p = buf;
	unsigned int i;

	p = frame(p, 1, FXT_STACKS_FRAME_KERNEL, 0, 0, "rec_a");
	p = frame(p, 2, FXT_STACKS_FRAME_KERNEL, 0, 0, "rec_b");
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
	for (i = 0; i < 3000; i++)
		deep[i] = i % 2 ? 2 : 1;
	p = fxt_stacks_put_stack(buf, S_SEVENTY, deep, 3000);
	table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf));
	for (i = 0; i < 100; i++)
		sample(w, false, BASE_NS + i * MS, BURNER, S_SEVENTY, MS);
}

#define FLOOD_FRAMES 700000u
#define FLOOD_DEPTH 4000u

static void gen_flood(struct fxt_writer *w)
{
	static uint32_t ids[FLOOD_DEPTH];
	static uint64_t buf[4000];
	uint64_t *p = buf;
	uint32_t i, k;

	p = mapping(p, M_WORKLOAD, "/usr/bin/flood");
	table(w, FXT_KDEV_STR_MAPPINGS, buf, (size_t)(p - buf));
	for (i = 1, p = buf; i <= FLOOD_FRAMES; i++) {
		p = frame(p, i, FXT_STACKS_FRAME_USER, M_WORKLOAD, i * 16ull,
			  "");
		if (p - buf + 3 > 4000 || i == FLOOD_FRAMES) {
			table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
			p = buf;
		}
	}
	for (i = 0; i < FLOOD_DEPTH; i++)
		ids[i] = i + 1;
	for (k = 0; k < 200; k++) {
		ids[FLOOD_DEPTH - 1] = FLOOD_DEPTH + k;	/* a root of its own */
		p = fxt_stacks_put_stack(buf, k + 1, ids, FLOOD_DEPTH);
		table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf));
	}
	for (i = 0; i < 1000; i++)
		sample(w, false, BASE_NS + i * MS, BURNER, i % 200 + 1, MS);
}

#define DEEP_KERNEL 20u

static void deep_tables(struct fxt_writer *w)
{
	uint32_t ids[DEEP_KERNEL + 2], i;
	static const uint32_t seventy[] = { F_SEVENTY, F_MAIN };
	static const uint32_t rarely[] = { F_UNKNOWN, F_MAIN };
	uint64_t buf[256], *p = buf;
	char name[8];

	p = mapping(p, M_WORKLOAD, "/usr/libexec/fxtrace/stack_workload");
	table(w, FXT_KDEV_STR_MAPPINGS, buf, (size_t)(p - buf));
	p = frame(buf, F_MAIN, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1100, "");
	p = frame(p, F_SEVENTY, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1200, "");
	p = frame(p, F_BLOCK, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1400, "");
	p = frame(p, F_UNKNOWN, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1500, "");
	for (i = 0; i < DEEP_KERNEL; i++) {
		snprintf(name, sizeof(name), "k%02u", i);
		p = frame(p, 100 + i, FXT_STACKS_FRAME_KERNEL, 0, i, name);
		ids[i] = 100 + i;
	}
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
	p = symbol(buf, F_MAIN, "main");
	p = symbol(p, F_SEVENTY, "burn_seventy");
	p = symbol(p, F_BLOCK, "block_on_pipe");
	p = symbol(p, F_UNKNOWN, "burn_rarely");
	table(w, FXT_KDEV_STR_SYMBOLS, buf, (size_t)(p - buf));
	ids[DEEP_KERNEL] = F_BLOCK;
	ids[DEEP_KERNEL + 1] = F_MAIN;
	p = fxt_stacks_put_stack(buf, S_BLOCKED, ids, DEEP_KERNEL + 2);
	p = fxt_stacks_put_stack(p, S_SEVENTY, seventy, 2);
	p = fxt_stacks_put_stack(p, S_THIRTY, rarely, 2);
	table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf));
}

static void gen_deep(struct fxt_writer *w)
{
	unsigned int i;

	deep_tables(w);
	for (i = 0; i < 3000; i++)
		sample(w, false, BASE_NS + i * MS, BURNER, S_SEVENTY, MS);
	sample(w, false, BASE_NS + 3000 * MS, BURNER, S_THIRTY, MS);
	for (i = 0; i < 10; i++)
		sample(w, true, BASE_NS + i * 200 * MS, BLOCKER, S_BLOCKED,
		       100 * MS);
	sample(w, true, BASE_NS + 2500 * MS, BURNER, S_BLOCKED, 50 * MS);
	sample(w, true, BASE_NS + 2600 * MS, BURNER, S_SEVENTY, 1000);
}

/* ---- inline frames --------------------------------------------------- */

static uint64_t *inline_frame(uint64_t *p, uint32_t id, uint64_t addr,
			      const char *name)
{
	struct fxt_stacks_frame f = { .id = id,
				      .kind = FXT_STACKS_FRAME_USER,
				      .flags = FXT_STACKS_FRAME_INLINED,
				      .name_len = (uint16_t)strlen(name),
				      .mapping_id = M_WORKLOAD,
				      .addr = addr,
				      .name = name };

	return fxt_stacks_put_frame(p, &f);
}

static void gen_inline(struct fxt_writer *w)
{
	enum { I_MAIN = 1, I_WORK, I_HOT, I_WORK2, I_SHARED_IN, I_SHARED };
	static const uint32_t hot[] = { I_HOT, I_WORK, I_MAIN };
	static const uint32_t work[] = { I_WORK2, I_MAIN };
	static const uint32_t shared_in[] = { I_SHARED_IN, I_WORK2, I_MAIN };
	static const uint32_t shared[] = { I_SHARED, I_MAIN };
	static const unsigned int counts[] = { 10, 5, 4, 6 };
	uint64_t buf[64], *p = buf;
	unsigned int i, j, n = 0;

	kernel_provider(w);
	names(w);
	p = mapping(p, M_WORKLOAD, "/usr/libexec/fxtrace/stack_workload");
	table(w, FXT_KDEV_STR_MAPPINGS, buf, (size_t)(p - buf));
	p = buf;
	p = frame(p, I_MAIN, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1100, "");
	p = frame(p, I_WORK, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1200, "");
	p = inline_frame(p, I_HOT, 0x1200, "hot_loop");
	p = frame(p, I_WORK2, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1240, "");
	p = inline_frame(p, I_SHARED_IN, 0x1240, "shared");
	p = frame(p, I_SHARED, FXT_STACKS_FRAME_USER, M_WORKLOAD, 0x1300, "");
	table(w, FXT_KDEV_STR_FRAMES, buf, (size_t)(p - buf));
	p = buf;
	p = symbol(p, I_MAIN, "main");
	p = symbol(p, I_WORK, "work");
	p = symbol(p, I_WORK2, "work");
	p = symbol(p, I_SHARED, "shared");
	table(w, FXT_KDEV_STR_SYMBOLS, buf, (size_t)(p - buf));
	p = buf;
	p = fxt_stacks_put_stack(p, 1, hot, 3);
	p = fxt_stacks_put_stack(p, 2, work, 2);
	p = fxt_stacks_put_stack(p, 3, shared_in, 3);
	p = fxt_stacks_put_stack(p, 4, shared, 2);
	table(w, FXT_KDEV_STR_STACKS, buf, (size_t)(p - buf));
	for (i = 0; i < 4; i++)
		for (j = 0; j < counts[i]; j++, n++)
			sample(w, false, BASE_NS + n * PERIOD_NS, BURNER, i + 1,
			       PERIOD_NS);
}

static void gen_hostile(struct fxt_writer *w, unsigned int mode)
{
	kernel_provider(w);
	names(w);
	if (mode == 1)
		gen_bad_ids(w);
	else if (mode == 2)
		gen_truncated(w);
	else if (mode == 3)
		gen_cycles(w);
	else if (mode == 4)
		gen_flood(w);
	else
		gen_deep(w);
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "good",   "bad-ids", "truncated",
					     "cycles", "flood",	  "deep",
					     "inline" };
	struct fxt_writer w;
	unsigned int mode;
	int fd, err;

	for (mode = 0; argc == 3 && mode < 7; mode++)
		if (!strcmp(argv[1], modes[mode]))
			break;
	if (argc != 3 || mode == 7) {
		fprintf(stderr, "usage: stacks_gen good|bad-ids|truncated|"
				"cycles|flood|deep|inline FILE\n");
		return 2;
	}
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "stacks_gen: %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	check(fxt_write_magic(&w), "magic");
	if (mode == 0)
		gen_good(&w);
	else if (mode == 6)
		gen_inline(&w);
	else
		gen_hostile(&w, mode);
	err = fxt_writer_flush(&w);
	fxt_writer_release(&w);
	if (close(fd) && !err)
		err = -errno;
	check(err, argv[2]);
	return 0;
}
