// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes the FXT archives the convert tests read, with the writer library.
 *
 *   convert_gen all DIR      DIR/all.fxt: every record, event and argument
 *                            type, values the checks in check_convert.sh
 *                            expect
 *   convert_gen hostile DIR  DIR/strings.fxt (bad UTF-8, control
 *                            characters, huge strings), truncated.fxt,
 *                            malformed.fxt, garbage-N.fxt, flip-N.fxt
 *                            (all.fxt with random bytes changed),
 *                            noise.fxt (no magic, random bytes)
 *   convert_gen memory DIR   DIR/memory.fxt: 300000 named threads, all
 *                            65536 CPUs, a 20 MiB blob: what could make
 *                            a converter's memory grow with its input
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/kblock.h>
#include <fxt/kfault.h>
#include <fxt/kpower.h>
#include <fxt/sched.h>

#include "fxt_writer.h"

#define GARBAGE_FILES 8
#define FLIP_FILES 100
#define CPU_COUNT_MAX 65536u

static void die(const char *what, int err)
{
	fprintf(stderr, "convert_gen: %s: %s\n", what, strerror(err));
	exit(1);
}

static void check(int ret, const char *what)
{
	if (ret)
		die(what, -ret);
}

static void save(const char *dir, const char *name, const void *data,
		 size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		die(path, errno);
	if (len && fwrite(data, 1, len, f) != len)
		die(path, errno);
	if (fclose(f))
		die(path, errno);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static struct fxt_writer_event ev(uint64_t ts, struct fxt_writer_thread t,
				  struct fxt_writer_str cat, const char *name,
				  const struct fxt_arg_in *args,
				  unsigned int nargs)
{
	return (struct fxt_writer_event){ .ts = ts, .thread = t,
					  .category = cat,
					  .name = fxt_wstr(name),
					  .args = args, .nargs = nargs };
}

#define NARGS(a) (sizeof(a) / sizeof((a)[0]))

/* Provider 1 "app": every event type and argument type. */
static void write_app_events(struct fxt_writer *w)
{
	struct fxt_writer_thread t1 = fxt_wthread_index(1);
	struct fxt_writer_str cat = fxt_wstr_index(1);
	struct fxt_arg_in all[] = {
		fxt_warg_int32(fxt_wstr("i32"), -5),
		fxt_warg_uint32(fxt_wstr("u32"), 7),
		fxt_warg_int64(fxt_wstr("i64"), -1234567890123ll),
		fxt_warg_uint64(fxt_wstr("u64"), UINT64_MAX),
		fxt_warg_double(fxt_wstr("f64"), 1.5),
		fxt_warg_string(fxt_wstr_index(2), fxt_wstr("hello")),
		fxt_warg_pointer(fxt_wstr("ptr"), 0xdeadbeef),
		fxt_warg_koid(fxt_wstr("koid"), 42),
		fxt_warg_bool(fxt_wstr("yes"), true),
		fxt_warg_bool(fxt_wstr("no"), false),
		fxt_warg_null(fxt_wstr("nul")),
	};
	struct fxt_arg_in global[] = {
		fxt_warg_string(fxt_wstr("scope"), fxt_wstr("g")),
	};
	struct fxt_arg_in counter[] = {
		fxt_warg_int32(fxt_wstr("a"), 3),
		fxt_warg_double(fxt_wstr("b"), 2.5),
		fxt_warg_string(fxt_wstr("label"), fxt_wstr("x")),
	};
	struct fxt_arg_in counter2[] = {
		fxt_warg_uint64(fxt_wstr("v"), 10),
	};
	struct fxt_arg_in odd[] = {
		fxt_warg_double(fxt_wstr("n"), NAN),
		fxt_warg_double(fxt_wstr("pi"), INFINITY),
		fxt_warg_double(fxt_wstr("ni"), -INFINITY),
	};
	struct fxt_arg_in k[] = { fxt_warg_int32(fxt_wstr("k"), 1) };
	struct fxt_writer_event e;
	char payload[100] = { 1, 2, 3 };

	e = ev(1234567, t1, cat, "inst", all, NARGS(all));
	check(fxt_write_instant(w, &e, FXT_SCOPE_THREAD), "instant");
	e = ev(2000000, t1, cat, "global_inst", global, 1);
	check(fxt_write_instant(w, &e, FXT_SCOPE_THREAD), "instant");
	e = ev(2000001, t1, cat, "proc_inst", NULL, 0);
	check(fxt_write_instant(w, &e, FXT_SCOPE_PROCESS), "instant");
	e = ev(3000000, t1, cat, "ctr", counter, NARGS(counter));
	check(fxt_write_event(w, FXT_EVENT_COUNTER, &e, 0), "counter");
	e = ev(3000001, t1, cat, "ctr2", counter2, 1);
	check(fxt_write_event(w, FXT_EVENT_COUNTER, &e, 7), "counter");
	e = ev(4000000, t1, cat, "dur", NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_DURATION_BEGIN, &e, 0), "begin");
	e = ev(4000999, t1, cat, "dur", NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_DURATION_END, &e, 0), "end");
	e = ev(5000000, t1, cat, "cpl", k, 1);
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, 5500500),
	      "complete");
	e = ev(6000000, t1, cat, "req", NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_ASYNC_BEGIN, &e, 0x55),
	      "async begin");
	e.ts = 6000001;
	check(fxt_write_event(w, FXT_EVENT_ASYNC_INSTANT, &e, 0x55),
	      "async instant");
	e.ts = 6000002;
	check(fxt_write_event(w, FXT_EVENT_ASYNC_END, &e, 0x55), "async end");
	e = ev(7000000, t1, cat, "fl", NULL, 0);
	check(fxt_write_event(w, FXT_EVENT_FLOW_BEGIN, &e, 0x66), "flow begin");
	e.ts = 7000100;
	check(fxt_write_event(w, FXT_EVENT_FLOW_STEP, &e, 0x66), "flow step");
	e.ts = 7000200;
	check(fxt_write_event(w, FXT_EVENT_FLOW_END, &e, 0x66), "flow end");
	e = ev(7500000, t1, cat, "nan", odd, NARGS(odd));
	check(fxt_write_instant(w, &e, FXT_SCOPE_THREAD), "instant");
	check(fxt_write_log(w, 8000000, fxt_wthread(100, 102),
			    "hello\nworld", 11), "log");
	check(fxt_write_blob(w, fxt_wstr("blobby"), FXT_BLOB_DATA, payload,
			     10), "blob");
	e = ev(9000000, t1, cat, "lb", k, 1);
	check(fxt_write_large_blob_with_metadata(w, &e, payload, 100),
	      "large blob");
	check(fxt_write_large_blob(w, cat, fxt_wstr("lb2"), payload, 20),
	      "large blob");
}

static void write_app_objects(struct fxt_writer *w)
{
	struct fxt_arg_in field[] = { fxt_warg_uint32(fxt_wstr("field"), 9) };
	struct fxt_arg_in process100[] = {
		fxt_warg_koid(fxt_wstr("process"), 100),
	};

	check(fxt_write_userspace_object(w, 0x1000, fxt_wthread(100, 0),
					 fxt_wstr("obj"), field, 1), "uobj");
	check(fxt_write_kernel_object(w, 4, 77, fxt_wstr("chan"), NULL, 0),
	      "kobj");
	/* A rename: written again; the same name a third time: not. */
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 101,
				      fxt_wstr("worker2"), process100, 1),
	      "kobj");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 101,
				      fxt_wstr("worker2"), process100, 1),
	      "kobj");
	/* No process: its thread_name waits for the thread record. */
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 301,
				      fxt_wstr("lonely"), NULL, 0), "kobj");
	check(fxt_write_thread_ref(w, 2, 300, 301), "thread");
}

static void write_app(struct fxt_writer *w)
{
	struct fxt_arg_in process100[] = {
		fxt_warg_koid(fxt_wstr("process"), 100),
	};

	check(fxt_write_provider_info(w, 1, "app", 3), "provider");
	check(fxt_write_provider_section(w, 1), "section");
	check(fxt_write_init(w, 1000000000), "init");
	check(fxt_write_string(w, 1, "cat", 3), "string");
	check(fxt_write_string(w, 2, "str", 3), "string");
	check(fxt_write_thread_ref(w, 1, 100, 101), "thread");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, 100,
				      fxt_wstr("myapp"), NULL, 0), "kobj");
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, 101,
				      fxt_wstr("worker"), process100, 1),
	      "kobj");
	write_app_events(w);
	write_app_objects(w);
	check(fxt_write_provider_event(w, 1, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW),
	      "overflow");
	check(fxt_write_provider_event(w, 1, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW),
	      "overflow");
}

static void write_kernel_strings(struct fxt_writer *w)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;
	static const char *const kdev[] = FXT_KDEV_STRING_TABLE;
	unsigned int i;

	for (i = 1; i <= FXT_SCHED_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)i, table[i],
				       strlen(table[i])), "string");
	for (i = 0; i < FXT_KDEV_STR_COUNT; i++)
		check(fxt_write_string(w, (uint16_t)(FXT_KDEV_STR_BASE + i),
				       kdev[i], strlen(kdev[i])), "string");
}

/* kernel:power, kernel:block, kernel:fault records as the kernel writes them. */
static void write_kdev(struct fxt_writer *w)
{
	__u64 rec[FXT_KBLOCK_BEGIN_WORDS];

	fxt_kpower_write_idle(rec, 12600000, 1, 2);
	check(fxt_write_raw(w, rec, FXT_KPOWER_COUNTER_WORDS * 8), "idle");
	fxt_kblock_write_begin(rec, 12700000, 1, 254, 0, 8, 4096, 0xabc);
	check(fxt_write_raw(w, rec, FXT_KBLOCK_BEGIN_WORDS * 8), "begin");
	fxt_kblock_write_end(rec, 12800000, 1, 0, 0xabc);
	check(fxt_write_raw(w, rec, FXT_KBLOCK_END_WORDS * 8), "end");
	fxt_kfault_write(rec, 12900000, 200, 201, 0x7f0000001000ull, 6);
	check(fxt_write_raw(w, rec, FXT_KFAULT_WORDS * 8), "fault");
}

static void write_thread_object(struct fxt_writer *w, uint64_t tid,
				uint64_t pid, const char *name)
{
	struct fxt_arg_in process[] = {
		fxt_warg_koid(fxt_wstr_index(FXT_SCHED_STR_PROCESS), pid),
	};

	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_THREAD, tid,
				      fxt_wstr(name), process, 1), "kobj");
}

static void cswitch(struct fxt_writer *w, uint64_t ts, unsigned int cpu,
		    unsigned int out_state, uint64_t out_tid, uint64_t in_tid,
		    int32_t out_weight, int32_t in_weight)
{
	struct fxt_arg_in args[] = {
		fxt_warg_int32(fxt_wstr_index(FXT_SCHED_STR_OUTGOING_WEIGHT),
			       out_weight),
		fxt_warg_int32(fxt_wstr_index(FXT_SCHED_STR_INCOMING_WEIGHT),
			       in_weight),
	};

	check(fxt_write_context_switch(w, ts, cpu, out_state, out_tid, in_tid,
				       args, 2), "context switch");
}

/* Provider 2 "kernel": scheduling as the kernel side writes it. */
static void write_kernel(struct fxt_writer *w)
{
	struct fxt_arg_in wake[] = {
		fxt_warg_int32(fxt_wstr_index(FXT_SCHED_STR_WEIGHT), 100),
		fxt_warg_koid(fxt_wstr_index(FXT_SCHED_STR_WAKER), 201),
	};

	check(fxt_write_provider_info(w, 2, "kernel", 6), "provider");
	check(fxt_write_provider_section(w, 2), "section");
	check(fxt_write_init(w, 1000000000), "init");
	write_kernel_strings(w);
	check(fxt_write_kernel_object(w, FXT_ZX_OBJ_PROCESS, 200,
				      fxt_wstr("shell"), NULL, 0), "kobj");
	write_thread_object(w, 201, 200, "sh");
	write_thread_object(w, 202, 200, "bash");
	cswitch(w, 10000000, 0, FXT_THREAD_RUNNING, 0, 201,
		FXT_SCHED_IDLE_WEIGHT, 100);
	check(fxt_write_thread_wakeup(w, 10500000, 1, 202, wake, 2), "wakeup");
	cswitch(w, 11000000, 0, FXT_THREAD_BLOCKED, 201, 202, 100, 120);
	cswitch(w, 12000000, 0, FXT_THREAD_RUNNING, 202, 0, 120,
		FXT_SCHED_IDLE_WEIGHT);
	cswitch(w, 12500000, 1, FXT_THREAD_RUNNING, 0, 203,
		FXT_SCHED_IDLE_WEIGHT, 100);
	write_kdev(w);
	check(fxt_write_legacy_context_switch(w, 13000000, 2, FXT_THREAD_RUNNING,
					      fxt_wthread(0, 0),
					      fxt_wthread(400, 401), 0, 20),
	      "legacy switch");
	check(fxt_write_legacy_context_switch(w, 14000000, 2, FXT_THREAD_BLOCKED,
					      fxt_wthread(400, 401),
					      fxt_wthread(0, 0), 20, 0),
	      "legacy switch");
}

/* Provider 3 "slow": 1 tick = 1 us. */
static void write_slow(struct fxt_writer *w)
{
	struct fxt_writer_event e = ev(1234, fxt_wthread(500, 501),
				       fxt_wstr("c"), "slow", NULL, 0);

	check(fxt_write_provider_info(w, 3, "slow", 4), "provider");
	check(fxt_write_provider_section(w, 3), "section");
	check(fxt_write_init(w, 1000000), "init");
	check(fxt_write_event(w, FXT_EVENT_DURATION_COMPLETE, &e, 1734),
	      "complete");
	e.ts = 1234567;
	e.name = fxt_wstr("slow_inst");
	check(fxt_write_instant(w, &e, FXT_SCOPE_THREAD), "instant");
}

static void build_all(struct fxt_writer *w)
{
	fxt_writer_init(w);
	check(fxt_write_magic(w), "magic");
	write_app(w);
	write_kernel(w);
	write_slow(w);
}

static void gen_all(const char *dir)
{
	struct fxt_writer w;

	build_all(&w);
	save(dir, "all.fxt", fxt_writer_data(&w), fxt_writer_size(&w));
	fxt_writer_release(&w);
}

/* Every byte value 0..255 once, then some classic bad sequences. */
static size_t nasty_bytes(char *buf)
{
	static const char bad[] = "\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|"
				  "\xe2\x82|\xf0\x9f\x98|\"\\|\x7f";
	size_t i;

	for (i = 0; i < 256; i++)
		buf[i] = (char)(i ? i : 1);
	memcpy(buf + 256, bad, sizeof(bad) - 1);
	return 256 + sizeof(bad) - 1;
}

static void gen_strings(const char *dir)
{
	static char huge[32000], nasty[512];
	struct fxt_writer_str nasty_str;
	struct fxt_arg_in args[3];
	struct fxt_writer_event e;
	struct fxt_writer w;
	size_t i, n = nasty_bytes(nasty);

	for (i = 0; i < sizeof(huge); i++)
		huge[i] = (char)(rng() & 0xff);
	nasty_str = fxt_wstr_len(nasty, n);
	args[0] = fxt_warg_string(nasty_str, nasty_str);
	args[1] = fxt_warg_string(fxt_wstr("huge"),
				  fxt_wstr_len(huge, 16000));
	args[2] = fxt_warg_koid(fxt_wstr_index(FXT_SCHED_STR_PROCESS), 7);
	fxt_writer_init(&w);
	check(fxt_write_magic(&w), "magic");
	check(fxt_write_provider_info(&w, 1, "a\x01\"\xff", 4), "provider");
	check(fxt_write_provider_section(&w, 1), "section");
	check(fxt_write_init(&w, 1000000000), "init");
	write_kernel_strings(&w);
	check(fxt_write_string(&w, 9, huge, 32000), "string");
	e = ev(1, fxt_wthread(1, 2), fxt_wstr_index(9), "", args, 2);
	e.name = nasty_str;
	check(fxt_write_instant(&w, &e, FXT_SCOPE_THREAD), "instant");
	e = ev(2, fxt_wthread(1, 2), fxt_wstr("c"), "quote\"back\\ctl\x01\x1f",
	       NULL, 0);
	check(fxt_write_event(&w, FXT_EVENT_DURATION_BEGIN, &e, 0), "begin");
	check(fxt_write_log(&w, 3, fxt_wthread(1, 2), huge, 30000), "log");
	/* Nasty thread and process names end up in CPU slice labels. */
	check(fxt_write_kernel_object(&w, FXT_ZX_OBJ_THREAD, 7, nasty_str,
				      &args[2], 1), "kobj");
	check(fxt_write_kernel_object(&w, FXT_ZX_OBJ_PROCESS, 7, nasty_str,
				      NULL, 0), "kobj");
	cswitch(&w, 10, 3, FXT_THREAD_RUNNING, 0, 7, FXT_SCHED_IDLE_WEIGHT, 1);
	cswitch(&w, 20, 3, FXT_THREAD_BLOCKED, 7, 0, 1, FXT_SCHED_IDLE_WEIGHT);
	check(fxt_write_blob(&w, nasty_str, 200, huge, 100), "blob");
	save(dir, "strings.fxt", fxt_writer_data(&w), fxt_writer_size(&w));
	fxt_writer_release(&w);
}

/*
 * An instant whose header claims three arguments that its two words
 * cannot hold: decodable size, malformed content. Then a valid event.
 */
static void gen_malformed(const char *dir)
{
	struct fxt_writer_event e = ev(5, fxt_wthread(1, 2), fxt_wstr("c"),
				       "after", NULL, 0);
	struct fxt_writer w;
	uint64_t bad[2] = {
		fxt_event_header(2, FXT_EVENT_INSTANT, 3, 1, 0, 0),
		4,
	};

	fxt_writer_init(&w);
	check(fxt_write_magic(&w), "magic");
	check(fxt_write_provider_info(&w, 1, "p", 1), "provider");
	check(fxt_write_provider_section(&w, 1), "section");
	check(fxt_write_thread_ref(&w, 1, 1, 2), "thread");
	check(fxt_write_raw(&w, bad, sizeof(bad)), "raw");
	check(fxt_write_instant(&w, &e, FXT_SCOPE_THREAD), "instant");
	save(dir, "malformed.fxt", fxt_writer_data(&w), fxt_writer_size(&w));
	fxt_writer_release(&w);
}

/* all.fxt with its last record cut in the middle. */
static void gen_truncated(const char *dir)
{
	struct fxt_writer w;

	build_all(&w);
	save(dir, "truncated.fxt", fxt_writer_data(&w),
	     fxt_writer_size(&w) - 12);
	fxt_writer_release(&w);
}

/* Valid records, random words, valid records again. */
static void gen_garbage(const char *dir, int n)
{
	static uint64_t noise[8192];
	struct fxt_writer w;
	char name[64];
	size_t i;

	for (i = 0; i < NARGS(noise); i++)
		noise[i] = rng();
	build_all(&w);
	check(fxt_write_raw(&w, noise, (size_t)(n + 1) * 1024 * 8), "raw");
	write_app(&w);
	snprintf(name, sizeof(name), "garbage-%d.fxt", n);
	save(dir, name, fxt_writer_data(&w), fxt_writer_size(&w));
	fxt_writer_release(&w);
}

/* all.fxt with a few random bytes changed (never the magic number). */
static void gen_flips(const char *dir)
{
	struct fxt_writer w;
	size_t size, i;
	char name[64];
	int n;

	build_all(&w);
	size = fxt_writer_size(&w);
	for (n = 0; n < FLIP_FILES; n++) {
		unsigned char *copy = malloc(size);

		memcpy(copy, fxt_writer_data(&w), size);
		for (i = 0; i < 1 + (size_t)n % 8; i++)
			copy[8 + rng() % (size - 8)] = (unsigned char)rng();
		snprintf(name, sizeof(name), "flip-%d.fxt", n);
		save(dir, name, copy, size);
		free(copy);
	}
	fxt_writer_release(&w);
}

static void gen_hostile(const char *dir)
{
	static uint64_t noise[4096];
	size_t i;
	int n;

	gen_strings(dir);
	gen_malformed(dir);
	gen_truncated(dir);
	for (n = 0; n < GARBAGE_FILES; n++)
		gen_garbage(dir, n);
	gen_flips(dir);
	for (i = 0; i < NARGS(noise); i++)
		noise[i] = rng();
	save(dir, "noise.fxt", noise, sizeof(noise));
	save(dir, "empty.fxt", "", 0);
}

#define MEMORY_THREADS 300000u
#define MEMORY_BLOB_BYTES (20u << 20)

static void gen_memory(const char *dir)
{
	struct fxt_writer_event e = ev(0, fxt_wthread(1, 1), fxt_wstr("c"),
				       "e", NULL, 0);
	char path[4096], name[32];
	struct fxt_writer w;
	unsigned int i;
	void *blob;
	int fd;

	snprintf(path, sizeof(path), "%s/memory.fxt", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(path, errno);
	fxt_writer_init_fd(&w, fd);
	check(fxt_write_magic(&w), "magic");
	check(fxt_write_provider_info(&w, 1, "kernel", 6), "provider");
	check(fxt_write_provider_section(&w, 1), "section");
	write_kernel_strings(&w);
	for (i = 0; i < MEMORY_THREADS; i++) {
		snprintf(name, sizeof(name), "thread-%u", i);
		write_thread_object(&w, 100000 + i, 100000 + i / 4, name);
		e.ts = i;
		e.thread = fxt_wthread(100000 + i / 4, 100000 + i);
		check(fxt_write_event(&w, FXT_EVENT_DURATION_COMPLETE, &e,
				      i + 1),
		      "complete");
	}
	for (i = 0; i < CPU_COUNT_MAX; i++)
		cswitch(&w, MEMORY_THREADS + i, i, FXT_THREAD_RUNNING, 0,
			100000 + i, FXT_SCHED_IDLE_WEIGHT, 1);
	blob = calloc(1, MEMORY_BLOB_BYTES);
	if (!blob)
		die("blob", ENOMEM);
	check(fxt_write_large_blob(&w, fxt_wstr("c"), fxt_wstr("big"), blob,
				   MEMORY_BLOB_BYTES), "large blob");
	free(blob);
	e.name = fxt_wstr("last");
	check(fxt_write_instant(&w, &e, FXT_SCOPE_THREAD), "instant");
	check(fxt_writer_flush(&w), "flush");
	fxt_writer_release(&w);
	if (close(fd))
		die(path, errno);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: convert_gen all|hostile|memory DIR\n");
		return 2;
	}
	if (!strcmp(argv[1], "all"))
		gen_all(argv[2]);
	else if (!strcmp(argv[1], "hostile"))
		gen_hostile(argv[2]);
	else if (!strcmp(argv[1], "memory"))
		gen_memory(argv[2]);
	else
		return 2;
	return 0;
}
