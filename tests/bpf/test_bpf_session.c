// SPDX-License-Identifier: GPL-2.0-only
/*
 * Drives kernel_session with the BPF backend on this machine while two
 * named threads ping-pong through pipes on one CPU, then reads the
 * section back with the FXT reader and checks what it must hold.
 *
 * Needs root (or CAP_BPF+CAP_PERFMON) and kernel BTF; exits 77 (skip)
 * without them. argv[1]: the tracectl binary, run as "dump --strict".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fxt/kdev.h>
#include <fxt/kirq.h>
#include <fxt/ksyscall.h>
#include <fxt/sched.h>

#include "fxt_reader.h"
#include "kernel_session.h"
#include "pingpong.h"
#include "check.h"

#define KERNEL_PROVIDER_ID 1u
#define SKIP 77


struct archive {
	uint8_t *data;
	size_t len, cap;
	size_t body_start;	/* after magic, provider info and preamble */
};

static int append_to_archive(void *ctx, const void *data, size_t len)
{
	struct archive *a = ctx;

	if (len % 8)
		return -EINVAL;
	if (a->len + len > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 1 << 20;
		uint8_t *p;

		while (cap < a->len + len)
			cap *= 2;
		p = realloc(a->data, cap);
		if (!p)
			return -ENOMEM;
		a->data = p;
		a->cap = cap;
	}
	memcpy(a->data + a->len, data, len);
	a->len += len;
	return 0;
}

/* What the manager writes before the section body. */
static void archive_begin(struct archive *a)
{
	uint64_t w[2] = { fxt_magic_record(), 0 };

	append_to_archive(a, w, 8);
	w[0] = fxt_provider_info_header(KERNEL_PROVIDER_ID, 6);
	memcpy(&w[1], "kernel", 6);
	append_to_archive(a, w, 16);
}

struct run {
	struct kernel_session *ks;
	struct pingpong pp;
	struct pingpong pp_cpu1;	/* a second pair, to load CPU 1 too */
	long rounds;
	int cpu;		/* pin both threads here; -1: let them move */
	bool both_cpus;
	atomic_bool done;
};

static void *driver_cpu1(void *arg)
{
	struct run *r = arg;

	r->pp_cpu1 = (struct pingpong){ .rounds = r->rounds, .cpu = 1 };
	if (pingpong_run(&r->pp_cpu1))
		fprintf(stderr, "ping-pong on CPU 1 failed\n");
	return NULL;
}

static void *driver(void *arg)
{
	struct run *r = arg;
	pthread_t t;
	bool second = r->both_cpus && sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
		      !pthread_create(&t, NULL, driver_cpu1, r);

	r->pp = (struct pingpong){ .rounds = r->rounds, .cpu = r->cpu };
	if (pingpong_run(&r->pp))
		fprintf(stderr, "ping-pong failed\n");
	if (second)
		pthread_join(t, NULL);
	atomic_store(&r->done, true);
	return NULL;
}

static void drain(struct run *r, struct archive *a)
{
	int err = kernel_session_drain(r->ks, append_to_archive, a);

	CHECK(!err, "drain: %s", strerror(-err));
}

/* Streaming drains whenever the event fd fires, until the threads end. */
static void capture(struct run *r, struct archive *a, bool drain_live)
{
	int fd = kernel_session_event_fd(r->ks);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	pthread_t t;

	pthread_create(&t, NULL, driver, r);
	while (drain_live && !atomic_load(&r->done)) {
		if (poll(&pfd, 1, 200) > 0)
			drain(r, a);
	}
	pthread_join(t, NULL);
}

struct seen {
	uint64_t records, bytes;	/* body: all but the preamble */
	uint64_t switches_pp, wakeups[2];
	uint64_t init_ticks;
	unsigned int strings;
	bool thread_named[2], process_named, bad_args, ts_backwards;
	bool merge_backwards;	/* any timed record older than one before */
	int64_t first_use[2], first_name[2];	/* record index */
	uint64_t last_ts[256];
	uint64_t max_ts;
	uint64_t diags;
};

static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	struct seen *s = ctx;

	fprintf(stderr, "reader: %s at %" PRIu64 ": %s\n",
		kind == FXT_DIAG_MALFORMED ? "malformed" : "nonconforming",
		offset, reason);
	s->diags++;
}

static int tid_slot(const struct run *r, uint64_t tid)
{
	if (tid == (uint64_t)r->pp.ping_tid)
		return 0;
	if (tid == (uint64_t)r->pp.pong_tid)
		return 1;
	return -1;
}

static void note_use(struct seen *s, int slot, int64_t idx)
{
	if (slot >= 0 && s->first_use[slot] < 0)
		s->first_use[slot] = idx;
}

static void check_sched_args(struct seen *s, const struct fxt_record *rec)
{
	const char *names[2] = { "outgoing_weight", "incoming_weight" };
	unsigned int i;

	if (rec->sched.type == FXT_SCHED_THREAD_WAKEUP) {
		s->bad_args |= rec->nargs != 2 ||
			       rec->args[0].type != FXT_ARG_INT32 ||
			       !fxt_str_is(rec->args[0].name, "weight") ||
			       rec->args[1].type != FXT_ARG_KOID ||
			       !fxt_str_is(rec->args[1].name, "waker");
		return;
	}
	s->bad_args |= rec->nargs != 2;
	for (i = 0; i < 2 && i < rec->nargs; i++)
		s->bad_args |= rec->args[i].type != FXT_ARG_INT32 ||
			       !fxt_str_is(rec->args[i].name, names[i]);
}

static void see_sched(struct seen *s, const struct run *r,
		      const struct fxt_record *rec, int64_t idx)
{
	unsigned int cpu = rec->sched.cpu;
	int out, in;

	check_sched_args(s, rec);
	/* A wakeup names the woken task's CPU, not the recording one. */
	if (cpu < 256 && rec->sched.type == FXT_SCHED_CONTEXT_SWITCH) {
		s->ts_backwards |= rec->sched.ts < s->last_ts[cpu];
		s->last_ts[cpu] = rec->sched.ts;
	}
	s->merge_backwards |= rec->sched.ts < s->max_ts;
	if (rec->sched.ts > s->max_ts)
		s->max_ts = rec->sched.ts;
	if (rec->sched.type == FXT_SCHED_THREAD_WAKEUP) {
		in = tid_slot(r, rec->sched.woken.tid);
		if (in >= 0)
			s->wakeups[in]++;
		note_use(s, in, idx);
		return;
	}
	out = tid_slot(r, rec->sched.out_thread.tid);
	in = tid_slot(r, rec->sched.in_thread.tid);
	if (out >= 0 && in >= 0 && out != in)
		s->switches_pp++;
	note_use(s, out, idx);
	note_use(s, in, idx);
}

static void see_object(struct seen *s, const struct run *r,
		       const struct fxt_record *rec, int64_t idx)
{
	const char *want[2] = { "fxt-ping", "fxt-pong" };
	char comm[32] = "";
	int slot;

	if (rec->kernel_object.obj_type == FXT_ZX_OBJ_PROCESS) {
		if (rec->kernel_object.koid == (uint64_t)getpid()) {
			FILE *f = fopen("/proc/self/comm", "r");

			if (f && fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = '\0';
			if (f)
				fclose(f);
			s->process_named |= fxt_str_is(rec->kernel_object.name,
						   comm);
		}
		return;
	}
	slot = tid_slot(r, rec->kernel_object.koid);
	if (slot < 0)
		return;
	if (s->first_name[slot] < 0)
		s->first_name[slot] = idx;
	if (rec->nargs == 1 && rec->args[0].type == FXT_ARG_KOID &&
	    fxt_str_is(rec->args[0].name, "process") &&
	    rec->args[0].value.koid == (uint64_t)getpid() &&
	    fxt_str_is(rec->kernel_object.name, want[slot]))
		s->thread_named[slot] = true;
}

static void read_back(const struct archive *a, const struct run *r,
		      struct seen *s)
{
	struct fxt_reader_options opt = { .expect_magic = true,
					  .diag = on_diag, .diag_ctx = s };
	struct fxt_reader *rd = fxt_reader_open_mem(a->data, a->len, &opt);
	struct fxt_record rec;
	int64_t idx = 0;

	memset(s, 0, sizeof(*s));
	s->first_use[0] = s->first_use[1] = -1;
	s->first_name[0] = s->first_name[1] = -1;
	while (fxt_reader_next(rd, &rec) == 1) {
		idx++;
		switch (rec.type) {
		case FXT_RECORD_METADATA:
			continue;
		case FXT_RECORD_INITIALIZATION:
			s->init_ticks = rec.init.ticks_per_second;
			continue;
		case FXT_RECORD_STRING:
			s->strings++;
			continue;
		case FXT_RECORD_SCHEDULING:
			see_sched(s, r, &rec, idx);
			break;
		case FXT_RECORD_KERNEL_OBJECT:
			/* The preamble names each CPU's idle thread. */
			if (rec.kernel_object.koid >= FXT_KIRQ_IDLE_KOID_BASE)
				continue;
			see_object(s, r, &rec, idx);
			break;
		default:
			break;
		}
		s->records++;
		s->bytes += rec.size_words * 8;
	}
	fxt_reader_close(rd);
}

static int write_file(const struct archive *a, char *path)
{
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, a->data, a->len);
	close(fd);
	return n == (ssize_t)a->len ? 0 : -EIO;
}

static int run_tracectl_strict(const char *tracectl, const char *file)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(127);
		execl(tracectl, tracectl, "dump", "--strict", file, NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct scenario {
	const char *name;
	enum fxt_buffering_mode mode;
	size_t buffer;
	long rounds;
	int cpu;
	bool drain_live;
	bool both_cpus;		/* a second pair pinned to CPU 1 */
};

static void check_common(const struct scenario *sc, const struct seen *s)
{
	CHECK(s->diags == 0, "%s: reader diagnostics", sc->name);
	CHECK(s->init_ticks == 1000000000ull, "%s: init %" PRIu64, sc->name,
	      s->init_ticks);
	/*
	 * Every table the preamble writes: sched, irq, kdev; no system call
	 * names, as kernel:syscall is off.
	 */
	CHECK(s->strings == FXT_SCHED_STR_COUNT +
				    (FXT_KIRQ_STR_END - FXT_KIRQ_STR_BASE) +
				    FXT_KDEV_STR_COUNT,
	      "%s: %u strings", sc->name, s->strings);
	CHECK(!s->bad_args, "%s: scheduling argument types", sc->name);
	CHECK(!s->ts_backwards, "%s: timestamps go back on a CPU", sc->name);
	/* Drains stop at their start time: the whole stream is in order. */
	CHECK(!s->merge_backwards, "%s: merged stream not in order", sc->name);
}

/* Everything the kernel side published is in the archive, nothing else. */
static void check_accounting(const struct scenario *sc, const struct seen *s,
			     const struct kernel_session_stats *st)
{
	if (sc->mode == FXT_BUFFERING_CIRCULAR) {
		CHECK(s->records <= st->records &&
			      s->records + st->dropped >= st->records,
		      "%s: archive %" PRIu64 " records, written %" PRIu64
		      " overwritten %" PRIu64, sc->name, s->records,
		      st->records, st->dropped);
		return;
	}
	CHECK(s->records == st->records,
	      "%s: archive %" PRIu64 " records, session wrote %" PRIu64,
	      sc->name, s->records, st->records);
	CHECK(s->bytes == st->bytes,
	      "%s: archive %" PRIu64 " bytes, session wrote %" PRIu64,
	      sc->name, s->bytes, st->bytes);
}

static void check_full_capture(const struct scenario *sc, const struct run *r,
			       const struct seen *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		pid_t tid = i ? r->pp.pong_tid : r->pp.ping_tid;

		CHECK(s->wakeups[i] > 0, "%s: no wakeup of tid %d", sc->name,
		      tid);
		CHECK(s->thread_named[i], "%s: tid %d named with process %d",
		      sc->name, tid, getpid());
		CHECK(s->first_name[i] >= 0 &&
			      s->first_name[i] < s->first_use[i],
		      "%s: tid %d named at record %" PRId64
		      ", first used at %" PRId64,
		      sc->name, tid, s->first_name[i],
		      s->first_use[i]);
	}
	CHECK(s->process_named, "%s: process %d named", sc->name, getpid());
	if (sc->cpu < 0)
		return;
	CHECK(s->switches_pp >= (uint64_t)sc->rounds,
	      "%s: %" PRIu64 " switches between the threads for %ld rounds",
	      sc->name, s->switches_pp, sc->rounds);
	/*
	 * On one CPU a round trip blocks one thread at least: a thread
	 * preempted by the wakeup it caused is not woken itself.
	 */
	CHECK(s->wakeups[0] + s->wakeups[1] >= (uint64_t)sc->rounds,
	      "%s: %" PRIu64 " wakeups for %ld rounds", sc->name,
	      s->wakeups[0] + s->wakeups[1], sc->rounds);
}

static int run_scenario(const struct scenario *sc, const char *tracectl)
{
	struct kernel_session_config cfg = {
		.backend = KERNEL_BACKEND_BPF,
		.mode = sc->mode,
		.buffer_bytes_per_cpu = sc->buffer,
	};
	struct kernel_session_stats st;
	struct archive a = { 0 };
	struct run r = { .rounds = sc->rounds, .cpu = sc->cpu,
			 .both_cpus = sc->both_cpus };
	struct seen s;
	char why[256], path[] = "/tmp/fxt-bpf-test-XXXXXX";
	unsigned int before = check_failures;
	int err;

	err = kernel_session_open(&r.ks, &cfg, why, sizeof(why));
	if (err) {
		fprintf(stderr, "FAIL %s: %s\n", sc->name, why);
		check_failures++;
		return 1;
	}
	CHECK(!strcmp(kernel_session_backend(r.ks), "bpf"), "backend %s",
	      kernel_session_backend(r.ks));
	archive_begin(&a);
	err = kernel_session_start(r.ks);
	CHECK(!err, "%s: start: %s", sc->name, strerror(-err));
	capture(&r, &a, sc->drain_live);
	CHECK(!kernel_session_stop(r.ks), "%s: stop", sc->name);
	drain(&r, &a);
	kernel_session_stats(r.ks, &st);
	read_back(&a, &r, &s);
	check_common(sc, &s);
	check_accounting(sc, &s, &st);
	if (sc->buffer == 0)
		check_full_capture(sc, &r, &s);
	else
		CHECK(st.dropped > 0, "%s: a %zu-byte ring lost nothing",
		      sc->name, sc->buffer);
	if (tracectl && !write_file(&a, path)) {
		err = run_tracectl_strict(tracectl, path);
		CHECK(err == 0, "%s: tracectl dump --strict %s exited %d",
		      sc->name, path, err);
		if (!err)
			unlink(path);
	}
	printf("%s: %" PRIu64 " records (%" PRIu64 " bytes) written, %" PRIu64
	       " dropped, archive body %" PRIu64 " records; %" PRIu64
	       " switches ping<->pong, wakeups %" PRIu64 "/%" PRIu64 "\n",
	       sc->name, st.records, st.bytes, st.dropped, s.records,
	       s.switches_pp, s.wakeups[0], s.wakeups[1]);
	kernel_session_close(r.ks);
	free(a.data);
	return check_failures == before ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct scenario scenarios[] = {
		{ "streaming", FXT_BUFFERING_STREAMING, 0, 2000, 0, true, false },
		{ "oneshot-2cpu", FXT_BUFFERING_ONESHOT, 0, 2000, -1, false,
		  false },
		{ "oneshot-full", FXT_BUFFERING_ONESHOT, 4096, 5000, 0, false,
		  false },
		{ "streaming-full", FXT_BUFFERING_STREAMING, 4096, 20000, 0,
		  true, true },
		{ "circular", FXT_BUFFERING_CIRCULAR, 4096, 5000, 0, false,
		  false },
	};
	const char *tracectl = argc > 1 ? argv[1] : NULL;
	unsigned int i;

	if (access("/sys/kernel/btf/vmlinux", R_OK) || geteuid() != 0) {
		fprintf(stderr, "skip: needs root and kernel BTF\n");
		return SKIP;
	}
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		(void)run_scenario(&scenarios[i], i == 0 ? tracectl : NULL);
	return check_failures ? 1 : 0;
}
