// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary_gen: archives for the tracectl summary tests.
 *
 *   summary_gen nested FILE   slices nested every way (begin/end pairs,
 *                             complete events written at their end, two
 *                             threads interleaved, a 1 MHz provider) and a
 *                             little scheduling with known figures
 *   summary_gen random FILE   a consistent scheduler simulation: 4 CPUs,
 *                             40 threads, wakeup latencies from 100 ns to
 *                             100 ms, plus randomly nested slices
 *   summary_gen memory FILE [PERIODS]
 *                             kernel:mem over PERIODS (default 1) of 2 s:
 *                             meminfo every 10 ms, the RSS of 8 processes
 *                             (one grows to 300 MiB and is OOM killed),
 *                             stalls of each kind, beside context switches
 *   summary_gen memory-extreme FILE
 *                             kernel:mem at times and values near 2^64-1,
 *                             more processes than the report keeps
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/kdev.h>
#include <fxt/kmem.h>
#include <fxt/sched.h>

#include "fxt_writer.h"

#define CPUS 4u
#define THREADS 40u
#define FIRST_TID 3000u
#define FIRST_PID 300u
#define PROCESSES 4u

static void check(int ret, const char *what)
{
	if (ret) {
		fprintf(stderr, "summary_gen: %s: %s\n", what, strerror(-ret));
		exit(1);
	}
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void write_kernel_strings(struct fxt_writer *w)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;
	unsigned int i;

	for (i = 1; i <= FXT_SCHED_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)i, table[i],
				       strlen(table[i])), "string");
}

static void cswitch(struct fxt_writer *w, uint64_t ts, unsigned int cpu,
		    uint64_t out_tid, uint64_t in_tid)
{
	struct fxt_arg_in args[] = {
		fxt_warg_int32(fxt_wstr_index(FXT_SCHED_STR_OUTGOING_WEIGHT),
			       out_tid ? 100 : FXT_SCHED_IDLE_WEIGHT),
		fxt_warg_int32(fxt_wstr_index(FXT_SCHED_STR_INCOMING_WEIGHT),
			       in_tid ? 100 : FXT_SCHED_IDLE_WEIGHT),
	};

	check(fxt_write_context_switch(w, ts, cpu, FXT_THREAD_BLOCKED, out_tid,
				       in_tid, args, 2), "context switch");
}

static void wakeup(struct fxt_writer *w, uint64_t ts, unsigned int cpu,
		   uint64_t tid)
{
	struct fxt_arg_in args[] = {
		fxt_warg_int32(fxt_wstr_index(FXT_SCHED_STR_WEIGHT), 100),
	};

	check(fxt_write_thread_wakeup(w, ts, cpu, tid, args, 1), "wakeup");
}

static void name_thread(struct fxt_writer *w, uint64_t tid, uint64_t pid,
			const char *name)
{
	struct fxt_arg_in process[] = {
		fxt_warg_koid(fxt_wstr("process"), pid),
	};

	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, tid,
				      fxt_wstr(name), process, 1), "thread");
}

static void name_process(struct fxt_writer *w, uint64_t pid, const char *name)
{
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, pid,
				      fxt_wstr(name), NULL, 0), "process");
}

static struct fxt_writer_event slice(uint64_t ts, uint64_t pid, uint64_t tid,
				     const char *name)
{
	return (struct fxt_writer_event){ .ts = ts,
					  .thread = fxt_wthread(pid, tid),
					  .category = fxt_wstr("test"),
					  .name = fxt_wstr(name) };
}

static void begin(struct fxt_writer *w, uint64_t ts, uint64_t tid,
		  const char *name)
{
	struct fxt_writer_event e = slice(ts, 100, tid, name);

	check(fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &e, 0), "begin");
}

static void end(struct fxt_writer *w, uint64_t ts, uint64_t tid)
{
	struct fxt_writer_event e = slice(ts, 100, tid, "");

	check(fxt_write_event(w, FXT_EVENT_DURATION_END, &e, 0), "end");
}

static void complete(struct fxt_writer *w, uint64_t ts, uint64_t end_ts,
		     uint64_t tid, const char *name)
{
	struct fxt_writer_event e = slice(ts, 100, tid, name);

	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, end_ts),
	      "complete");
}

static void async_span(struct fxt_writer *w, enum fxt_event_type type,
		       uint64_t ts, uint64_t tid, uint64_t id)
{
	struct fxt_writer_event e = slice(ts, 100, tid, "req");

	check(fxt_write_event(w, type, &e, id), "async");
}

/*
 * Recursion, counted once in the total: on thread 101 rec [6000,7000] >
 * rec [6100,6900] > rec [6200,6300] (begin/end; total 1000 of 3 calls,
 * 2 nested, self 200 + 700 + 100), then complete events innermost first
 * f [8000,9000] > g [8100,8800] > f [8200,8500] (f: total 1000, self
 * 300 + 300; g: self 400). Async spans req: id 7 [9500,9900] begun on
 * 101, ended on 102; id 8 [9600,9700] (total 500, max 400).
 */
#define LONG_NAME \
	"__main__.build_record_for_the_user_of_the_month_in_the_report_"
static void gen_recursion(struct fxt_writer *w)
{
	begin(w, 6000, 101, "rec");
	begin(w, 6100, 101, "rec");
	begin(w, 6200, 101, "rec");
	end(w, 6300, 101);
	end(w, 6900, 101);
	end(w, 7000, 101);
	complete(w, 8200, 8500, 101, "f");
	complete(w, 8100, 8800, 101, "g");
	complete(w, 8000, 9000, 101, "f");
	async_span(w, FXT_EVENT_ASYNC_BEGIN, 9500, 101, 7);
	async_span(w, FXT_EVENT_ASYNC_BEGIN, 9600, 101, 8);
	async_span(w, FXT_EVENT_ASYNC_END, 9700, 101, 8);
	async_span(w, FXT_EVENT_ASYNC_END, 9900, 102, 7);
	/* names alike for their first 60 characters: never cut alike */
	complete(w, 9950, 9960, 102, LONG_NAME "first");
	complete(w, 9970, 9980, 102, LONG_NAME "second");
}

/*
 * Thread 101: outer [1000,3000] holds inner1 [1100,1300] and inner2
 * [1400,1900], which holds leaf [1500,1600]; then complete events written
 * innermost first: parent [4000,5000] > child [4100,4400] > grand
 * [4150,4200]. Thread 102 interleaves its own outer [1050,2950] > leaf
 * [2000,2100]. Self times: outer 1300 + 1800, inner1 200, inner2 400,
 * leaf 100 + 100, parent 700, child 250, grand 50.
 */
static void gen_nested(struct fxt_writer *w)
{
	struct fxt_writer_event e;

	check(fxt_write_provider_info(w, 1, "app", 3), "provider");
	check(fxt_write_provider_section(w, 1), "section");
	check(fxt_write_init(w, 1000000000), "init");
	name_process(w, 100, "myapp");
	name_thread(w, 101, 100, "worker");
	name_thread(w, 102, 100, "helper");
	/* a name that would end the report's <script> element if unescaped */
	name_thread(w, 104, 100, "</script><b>x");
	begin(w, 1000, 101, "outer");
	begin(w, 1050, 102, "outer");
	complete(w, 1100, 1300, 101, "inner1");
	begin(w, 1400, 101, "inner2");
	complete(w, 1500, 1600, 101, "leaf");
	end(w, 1900, 101);
	complete(w, 2000, 2100, 102, "leaf");
	end(w, 2950, 102);
	end(w, 3000, 101);
	complete(w, 4150, 4200, 101, "grand");
	complete(w, 4100, 4400, 101, "child");
	complete(w, 4000, 5000, 101, "parent");
	/* an end without a begin is ignored */
	end(w, 5100, 101);
	gen_recursion(w);

	/* 1 tick = 1 us: slow [10,20] us holds quick [12,13] us. */
	check(fxt_write_provider_info(w, 3, "slow", 4), "provider");
	check(fxt_write_provider_section(w, 3), "section");
	check(fxt_write_init(w, 1000000), "init");
	e = slice(12, 100, 103, "quick");
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, 13),
	      "complete");
	e = slice(10, 100, 103, "slow");
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, 20),
	      "complete");

	/*
	 * CPU 0: 101 runs [10000,15000]; 102 woken at 14800 runs from
	 * 15000 (latency 200) to 18000. CPU 1: 103 woken at 11000 while
	 * 104 runs; 103 runs [16000,18000] (latency 5000), woken again
	 * while running (ignored).
	 */
	check(fxt_write_provider_info(w, 2, "kernel", 6), "provider");
	check(fxt_write_provider_section(w, 2), "section");
	check(fxt_write_init(w, 1000000000), "init");
	write_kernel_strings(w);
	cswitch(w, 10000, 0, 0, 101);
	cswitch(w, 10500, 1, 0, 104);
	wakeup(w, 11000, 1, 103);
	wakeup(w, 14800, 1, 102);
	cswitch(w, 15000, 0, 101, 102);
	cswitch(w, 16000, 1, 104, 103);
	wakeup(w, 17000, 0, 103);
	cswitch(w, 18000, 0, 102, 0);
	cswitch(w, 18000, 1, 103, 0);
	check(fxt_write_provider_event(w, 1, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW),
	      "overflow");
}

/* A random nest of slices in [start, end) on tid, complete or begin/end. */
static void random_slices(struct fxt_writer *w, uint64_t tid, uint64_t start,
			  uint64_t stop, unsigned int depth)
{
	static const char *const names[] = { "frame", "draw", "upload",
					     "layout", "wait" };
	const char *name = names[rng() % 5];
	bool as_pair = rng() & 1;
	uint64_t t;

	if (stop - start < 8)
		return;
	if (as_pair)
		begin(w, start, tid, name);
	t = start + 1;
	while (depth < 5 && t + 8 < stop - 1 && (rng() & 3)) {
		uint64_t len = 4 + rng() % (stop - 1 - t);
		uint64_t s = t + rng() % 3;

		if (s + len > stop - 1)
			len = stop - 1 - s;
		random_slices(w, tid, s, s + len, depth + 1);
		t = s + len + 1;
	}
	if (as_pair)
		end(w, stop, tid);
	else
		complete(w, start, stop, tid, name);
}

enum thread_state { SLEEPING, WOKEN, RUNNING };

static void gen_random(struct fxt_writer *w)
{
	enum thread_state state[THREADS] = { 0 };
	uint64_t running[CPUS] = { 0 }, cursor[8] = { 0 }, ts = 1000000;
	char name[32];
	unsigned int i, cpu;

	check(fxt_write_provider_info(w, 2, "kernel", 6), "provider");
	check(fxt_write_provider_section(w, 2), "section");
	check(fxt_write_init(w, 1000000000), "init");
	write_kernel_strings(w);
	for (i = 0; i < PROCESSES; i++) {
		snprintf(name, sizeof(name), "proc%u", i);
		name_process(w, FIRST_PID + i, name);
	}
	for (i = 0; i < THREADS; i++) {
		snprintf(name, sizeof(name), "thread-%u", i);
		name_thread(w, FIRST_TID + i, FIRST_PID + i % PROCESSES, name);
	}
	for (i = 0; i < 100000; i++) {
		uint64_t r = rng();
		unsigned int t = (unsigned int)(r >> 8) % THREADS;

		/* gaps from 100 ns to ~100 ms, spread over the decades */
		ts += (1ull << (r % 20)) * 100 / 128 + (r >> 40) % 64;
		cpu = (unsigned int)(r >> 32) % CPUS;
		if ((r >> 20) % 3 == 0) {
			/* wakeups of running or woken threads: ignored */
			wakeup(w, ts, cpu, FIRST_TID + t);
			if (state[t] == SLEEPING)
				state[t] = WOKEN;
			continue;
		}
		/* switch cpu to a woken thread (or idle) */
		for (t = 0; t < THREADS; t++)
			if (state[(t + r) % THREADS] == WOKEN)
				break;
		if (running[cpu])
			state[running[cpu] - FIRST_TID] = SLEEPING;
		if (t < THREADS && (r >> 50) % 8) {
			t = (unsigned int)((t + r) % THREADS);
			state[t] = RUNNING;
			cswitch(w, ts, cpu, running[cpu], FIRST_TID + t);
			running[cpu] = FIRST_TID + t;
		} else {
			cswitch(w, ts, cpu, running[cpu], 0);
			running[cpu] = 0;
		}
	}

	check(fxt_write_provider_info(w, 1, "app", 3), "provider");
	check(fxt_write_provider_section(w, 1), "section");
	check(fxt_write_init(w, 1000000000), "init");
	/* one tree after the other on each thread: nested, never crossed */
	for (i = 0; i < 2000; i++) {
		unsigned int k = (unsigned int)(rng() % 8);
		uint64_t start = cursor[k] + 1 + rng() % 1000;

		cursor[k] = start + 100 + rng() % 1000000;
		random_slices(w, FIRST_TID + k, start, cursor[k], 0);
	}
}

/* ---- kernel:mem ------------------------------------------------------ */

#define MEM_PROCESSES 8u
#define MEM_FIRST_PID 600u
#define MS 1000000ull
#define MIB (1ull << 20)
#define MEM_PERIOD_NS (2000 * MS)

static void write_kdev_strings(struct fxt_writer *w)
{
	static const char *const table[] = FXT_KDEV_STRING_TABLE;
	unsigned int i;

	for (i = 0; i < FXT_KDEV_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)(FXT_KDEV_STR_BASE + i),
				       table[i], strlen(table[i])), "string");
}

static void kernel_provider(struct fxt_writer *w)
{
	check(fxt_write_provider_info(w, 2, "kernel", 6), "provider");
	check(fxt_write_provider_section(w, 2), "section");
	check(fxt_write_init(w, 1000000000), "init");
	write_kernel_strings(w);
	write_kdev_strings(w);
}

static void raw(struct fxt_writer *w, const __u64 *words, uint32_t n)
{
	check(fxt_write_raw(w, words, n * sizeof(*words)), "kernel:mem");
}

static void mem_rss(struct fxt_writer *w, uint64_t ts, uint64_t pid,
		    unsigned int member, uint64_t bytes)
{
	__u64 r[FXT_KMEM_RSS_WORDS];

	fxt_kmem_write_rss(r, ts, pid, pid + 1, member, bytes);
	raw(w, r, FXT_KMEM_RSS_WORDS);
}

static void mem_stall(struct fxt_writer *w, unsigned int kind, uint64_t pid,
		      uint64_t begin, uint64_t end)
{
	__u64 r[FXT_KMEM_RECLAIM_END_WORDS];

	fxt_kmem_write_stall_begin(r, kind, begin, pid, pid + 1, 2);
	raw(w, r, FXT_KMEM_STALL_BEGIN_WORDS);
	fxt_kmem_write_stall_end(r, kind, end, pid, pid + 1, 32);
	raw(w, r, fxt_kmem_stall_end_words(kind));
}

static void mem_oom(struct fxt_writer *w, uint64_t ts, uint64_t pid,
		    const char *name, uint64_t rss)
{
	__u64 r[FXT_KMEM_OOM_MAX_WORDS] = { 0 };
	uint32_t len = (uint32_t)strlen(name);

	memcpy(&r[FXT_KMEM_OOM_NAME_WORD], name, len);
	fxt_kmem_write_oom(r, ts, pid, pid + 1, len, rss);
	raw(w, r, fxt_kmem_oom_words(len));
}

static void mem_meminfo(struct fxt_writer *w, uint64_t ts, uint64_t available,
			uint64_t cached, uint64_t dirty, uint64_t swap_used)
{
	const __u64 bytes[FXT_KMEM_MEMINFO_VALUES] = { available, available,
							  cached, dirty,
							  swap_used };
	__u64 r[FXT_KMEM_MEMINFO_WORDS];

	fxt_kmem_write_meminfo(r, ts, bytes);
	raw(w, r, FXT_KMEM_MEMINFO_WORDS);
}

/*
 * A 1 ms step of period p: a context switch on CPU 0 or 1; meminfo
 * every 10 ms; the grower (pid 600) gains 10 MiB every 20 ms from 100 ms
 * to 700 ms, stalls in direct reclaim 2 ms every 100 ms meanwhile, and
 * is OOM killed at 1800 ms; pid 610 stalls in memcg reclaim at 1200 ms,
 * pid 620 in compaction at 1500 ms.
 */
static void mem_step(struct fxt_writer *w, uint64_t p, uint64_t ms)
{
	uint64_t ts = p * MEM_PERIOD_NS + ms * MS + 1000;
	uint64_t grown = ms >= 100 && ms <= 700 ? (ms - 100) / 20 * 10 : 0;
	uint64_t in = MEM_FIRST_PID + 1 + (ms / 2 % MEM_PROCESSES) * 10;

	cswitch(w, ts, ms % 2, ms >= 2 ? in - 20 : 0, in);
	if (ms > 700 && ms < 1800)
		grown = 300;
	if (ms % 10 == 0)
		mem_meminfo(w, ts, (4096 - grown) * MIB, (1024 + ms / 4) * MIB,
			    ms % 50 * MIB, ms > 1000 ? (ms - 1000) * MIB : 0);
	if (ms >= 100 && ms <= 700 && ms % 20 == 0)
		mem_rss(w, ts, MEM_FIRST_PID, 1, grown * MIB);
	if (ms >= 100 && ms <= 700 && ms % 100 == 50)
		mem_stall(w, FXT_KMEM_STALL_DIRECT_RECLAIM, MEM_FIRST_PID, ts,
			  ts + 2 * MS);
	if (ms == 1200)
		mem_stall(w, FXT_KMEM_STALL_MEMCG_RECLAIM, MEM_FIRST_PID + 10,
			  ts, ts + 5 * MS);
	if (ms == 1500)
		mem_stall(w, FXT_KMEM_STALL_COMPACTION, MEM_FIRST_PID + 20, ts,
			  ts + MS / 3);
	if (ms == 1800 && p == 0)
		mem_oom(w, ts, MEM_FIRST_PID, "grower", 300 * MIB);
	if (ms == 1801)
		mem_rss(w, ts, MEM_FIRST_PID, 1, 0);
}

static void gen_memory(struct fxt_writer *w, uint64_t periods)
{
	static const char *const names[MEM_PROCESSES] = {
		"grower", "database", "browser", "compiler",
		"editor", "shell", "daemon", "player"
	};
	uint64_t p, ms, pid;
	unsigned int i;

	kernel_provider(w);
	for (i = 0; i < MEM_PROCESSES; i++) {
		pid = MEM_FIRST_PID + 10 * i;
		name_process(w, pid, names[i]);
		name_thread(w, pid + 1, pid, names[i]);
		/* the values at start: file pages, and anon but the grower's */
		mem_rss(w, 1000, pid, 0, (i + 1) * 8 * MIB);
		mem_rss(w, 1000, pid, 1, i ? (MEM_PROCESSES - i) * 16 * MIB : 0);
	}
	for (p = 0; p < periods; p++)
		for (ms = 0; ms < 2000; ms++)
			mem_step(w, p, ms);
}

/* Times and values at the ends of 2^64, more processes than kept. */
static void gen_memory_extreme(struct fxt_writer *w)
{
	const uint64_t top = UINT64_MAX;
	uint64_t pid;

	kernel_provider(w);
	name_process(w, 700, "huge");
	name_thread(w, 701, 700, "huge");
	cswitch(w, top - 5, 0, 0, 701);
	cswitch(w, top, 0, 701, 0);
	cswitch(w, 0, 1, 0, 701);
	mem_rss(w, top, 700, 1, top);
	mem_rss(w, 0, 700, 0, top);
	mem_meminfo(w, top, top, top, top, top);
	mem_meminfo(w, 0, 0, top, 0, top);
	mem_meminfo(w, top / 2, top, 0, top, 0);
	for (pid = 1000; pid < 1600; pid++)
		mem_rss(w, top - pid * 7919, pid, pid % 4, top - 1600 + pid);
	mem_stall(w, FXT_KMEM_STALL_DIRECT_RECLAIM, 700, 0, top);
	mem_stall(w, FXT_KMEM_STALL_COMPACTION, 700, top, top);
	mem_stall(w, FXT_KMEM_STALL_MEMCG_RECLAIM, 700, top, 0);
	mem_oom(w, top, 700, "huge", top);
	mem_oom(w, 0, 700, "huge", top);
}

static int usage(void)
{
	fprintf(stderr, "usage: summary_gen nested|random|memory-extreme FILE\n"
			"       summary_gen memory FILE [PERIODS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct fxt_writer w;
	int fd, err;

	static const char *const modes[] = { "nested", "random", "memory",
					     "memory-extreme" };
	unsigned int mode;
	uint64_t periods = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;

	for (mode = 0; mode < 4 && argc >= 3; mode++)
		if (!strcmp(argv[1], modes[mode]))
			break;
	if (argc < 3 || mode == 4 || (argc > 3 && mode != 2) || argc > 4 ||
	    !periods)
		return usage();
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "summary_gen: %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	fxt_writer_init_fd(&w, fd);
	check(fxt_write_magic(&w), "magic");
	if (mode == 0)
		gen_nested(&w);
	else if (mode == 1)
		gen_random(&w);
	else if (mode == 2)
		gen_memory(&w, periods);
	else
		gen_memory_extreme(&w);
	err = fxt_writer_flush(&w);
	fxt_writer_release(&w);
	if (close(fd) && !err)
		err = -errno;
	check(err, argv[2]);
	return 0;
}
