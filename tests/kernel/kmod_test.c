// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest tests of the fxt_sched module (run by scripts/qemu-kmod-test.sh
 * inside qemu, as root, with the module loaded).
 *
 * Usage: kmod_test MODULE.ko [TEST...]
 * Prints "PASS name" or "FAIL name: reason" per test; exits 1 if any
 * failed. Each test runs in its own process, so a crash is a failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/userfaultfd.h>

#include <fxt/fxt.h>
#include <fxt/kdev.h>
#include <fxt/kirq.h>
#include <fxt/ksyscall.h>
#include <fxt/sched.h>

#define CHECK_RETURNS_1
#include "check.h"
#include "kernel_backend.h"
#include "kdev_work.h"
#include "kring.h"
#include "krec.h"
#include "pingpong.h"

static const char *module_path;

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Every CPU's records, decoded, in ring order per CPU. */
struct capture {
	struct krec *recs;
	size_t n;
	size_t bytes;
	char why[128];		/* first decode failure, if any */
};

static void capture_free(struct capture *c)
{
	free(c->recs);
	memset(c, 0, sizeof(*c));
}

static int decode_into(struct capture *c, const uint64_t *w, size_t words)
{
	size_t i = 0;

	while (i < words) {
		struct krec r;
		unsigned int n = krec_decode(w + i, words - i, &r, c->why,
					     sizeof(c->why));

		if (!n)
			return -EBADMSG;
		c->recs = realloc(c->recs, (c->n + 1) * sizeof(*c->recs));
		if (!c->recs)
			return -ENOMEM;
		c->recs[c->n++] = r;
		i += n;
	}
	return 0;
}

/* Reads (and consumes) every CPU; records keep a cpu_of index. */
static int capture_all(struct kring *k, struct capture *c, int *cpu_of,
		       size_t cpu_of_cap)
{
	size_t cap = k->info.buffer_bytes;
	uint64_t *buf = malloc(cap);
	unsigned int cpu;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	memset(c, 0, sizeof(*c));
	for (cpu = 0; cpu < k->info.ncpus && !err; cpu++) {
		size_t got, first = c->n, i;

		while ((got = kring_read(k, cpu, buf, cap, true)) > 0) {
			c->bytes += got;
			err = decode_into(c, buf, got / 8);
			if (err)
				break;
		}
		for (i = first; cpu_of && i < c->n && i < cpu_of_cap; i++)
			cpu_of[i] = (int)cpu;
	}
	free(buf);
	return err ? err : k->corrupt ? -EBADMSG : 0;	/* a bad record size */
}

static int open_configured(struct kring *k, uint64_t bytes, uint32_t mode,
			   uint64_t watermark)
{
	int err = kring_open(k);

	if (!err)
		err = kring_configure(k, bytes, mode, FXT_SCHED_EV_DEFAULT,
				      watermark);
	if (!err)
		err = kring_map(k);
	return err;
}

static int run_pingpong(int cpu, long rounds, const char *last,
			struct pingpong *pp)
{
	memset(pp, 0, sizeof(*pp));
	pp->cpu = cpu;
	pp->rounds = rounds;
	pp->last_name = last;
	return pingpong_run(pp);
}

static int test_abi(void)
{
	struct kring k;
	int fd;

	fd = open(FXT_SCHED_DEVICE, O_RDWR);
	CHECK(fd >= 0, "open: %s", strerror(errno));
	CHECK(ioctl(fd, FXT_SCHED_IOC_VERSION) == FXT_SCHED_ABI_VERSION,
	      "version");
	close(fd);
	CHECK_OK(kring_open(&k));
	CHECK(k.info.abi_version == FXT_SCHED_ABI_VERSION, "abi");
	CHECK(k.info.ncpus >= 2, "ncpus %u", k.info.ncpus);
	CHECK(k.info.buffer_bytes == FXT_SCHED_BUFFER_DEFAULT, "default size");
	CHECK(k.info.mode == FXT_BUFFERING_STREAMING, "default mode");
	CHECK(k.info.max_record_words == FXT_SCHED_RECORD_MAX_WORDS, "max");
	CHECK(k.info.data_offset == 2 * k.info.page_size, "data offset");
	CHECK(k.info.cpu_stride == k.info.data_offset + k.info.buffer_bytes,
	      "stride");
	CHECK(!k.info.tracing, "tracing at open");
	kring_close(&k);
	return 0;
}

static int configure_errno(struct kring *k, struct fxt_sched_config cfg)
{
	return ioctl(k->fd, FXT_SCHED_IOC_CONFIGURE, &cfg) < 0 ? errno : 0;
}

static int test_bad_args(void)
{
	struct fxt_sched_config ok = { .buffer_bytes = 8192,
				       .mode = FXT_BUFFERING_ONESHOT,
				       .events = FXT_SCHED_EV_DEFAULT };
	struct fxt_sched_config c;
	struct kring k;
	uint64_t stride;
	void *p;

	CHECK_OK(kring_open(&k));
	c = ok, c.buffer_bytes = 12288;
	CHECK(configure_errno(&k, c) == EINVAL, "not a power of two");
	c = ok, c.buffer_bytes = 2048;
	CHECK(configure_errno(&k, c) == EINVAL, "too small");
	c = ok, c.buffer_bytes = FXT_SCHED_BUFFER_MAX * 2;
	CHECK(configure_errno(&k, c) == EINVAL, "too big");
	c = ok, c.mode = 3;
	CHECK(configure_errno(&k, c) == EINVAL, "mode");
	c = ok, c.events = 0;
	CHECK(configure_errno(&k, c) == EINVAL, "no events");
	c = ok, c.events = 1u << 7;
	CHECK(configure_errno(&k, c) == EINVAL, "unknown event");
	c = ok, c.watermark = 8192;
	CHECK(configure_errno(&k, c) == EINVAL, "watermark");
	c = ok, c.reserved[1] = 1;
	CHECK(configure_errno(&k, c) == EINVAL, "reserved");
	c = ok, c.sample_reserved = 1;
	CHECK(configure_errno(&k, c) == EINVAL, "sample_reserved");
	c = ok, c.sample_hz = FXT_SCHED_SAMPLE_HZ_MAX + 1;
	CHECK(configure_errno(&k, c) == EINVAL, "sample rate");
	CHECK(configure_errno(&k, ok) == 0, "good config");
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_INFO, &k.info) == 0, "info");
	CHECK(k.info.buffer_bytes == 8192 && k.info.watermark == 4096,
	      "configured %llu/%llu", (unsigned long long)k.info.buffer_bytes,
	      (unsigned long long)k.info.watermark);
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_STATS, (void *)8) < 0 &&
	      errno == EFAULT, "stats to a bad pointer");
	CHECK(ioctl(k.fd, _IO(FXT_SCHED_IOC_MAGIC, 99)) < 0 && errno == ENOTTY,
	      "unknown ioctl");

	stride = k.info.cpu_stride;
	p = mmap(NULL, stride, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd, 0);
	CHECK(p == MAP_FAILED && errno == EPERM, "writable data mapping");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd, 0);
	CHECK(p == MAP_FAILED && errno == EPERM, "writable ctrl page");
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, k.fd,
		 (off_t)k.info.consumer_offset);
	CHECK(p == MAP_FAILED && errno == EINVAL, "private consumer page");
	p = mmap(NULL, 2 * stride, PROT_READ, MAP_SHARED, k.fd, 0);
	CHECK(p == MAP_FAILED && errno == EINVAL, "mapping across CPUs");
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, k.fd,
		 (off_t)(k.info.ncpus * stride));
	CHECK(p == MAP_FAILED && errno == EINVAL, "mapping past the last CPU");
	p = mmap(NULL, stride, PROT_READ | PROT_EXEC, MAP_SHARED, k.fd, 0);
	CHECK(p == MAP_FAILED, "executable mapping");
	p = mmap(NULL, stride, PROT_READ, MAP_SHARED, k.fd, 0);
	CHECK(p != MAP_FAILED, "read-only mapping: %s", strerror(errno));
	CHECK(mprotect(p, 4096, PROT_READ | PROT_WRITE) < 0 && errno == EACCES,
	      "mprotect to writable");
	CHECK(configure_errno(&k, ok) == EBUSY, "configure while mapped");
	munmap(p, stride);
	CHECK(configure_errno(&k, ok) == 0, "configure after munmap");

	CHECK(ioctl(k.fd, FXT_SCHED_IOC_START) == 0, "start");
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_START) < 0 && errno == EBUSY,
	      "start twice");
	CHECK(configure_errno(&k, ok) == EBUSY, "configure while tracing");
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_RESET) < 0 && errno == EBUSY,
	      "reset while tracing");
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_STOP) == 0, "stop");
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_STOP) == 0, "stop twice");
	kring_close(&k);
	return 0;
}

static const struct krec *find_thread(const struct capture *c, uint64_t tid,
				      const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->recs[i].kind == KREC_THREAD && c->recs[i].tid == tid &&
		    !strcmp(c->recs[i].name, name))
			return &c->recs[i];
	return NULL;
}

/* Traces a ping-pong on CPU 0 with a 4 MiB streaming ring. */
static int traced_pingpong(struct capture *c, int **cpu_of,
			   struct pingpong *pp, uint64_t *t0, uint64_t *t1,
			   struct fxt_sched_stats *st)
{
	struct kring k;
	int err;

	err = open_configured(&k, 4 << 20, FXT_BUFFERING_STREAMING, 0);
	if (err)
		return err;
	*t0 = boottime_ns();
	err = kring_ioctl(&k, FXT_SCHED_IOC_START);
	if (!err)
		err = run_pingpong(0, 300, NULL, pp);
	if (!err)
		err = kring_ioctl(&k, FXT_SCHED_IOC_STOP);
	*t1 = boottime_ns();
	if (!err)
		err = kring_stats(&k, st);
	*cpu_of = calloc((4u << 20) / 24 * k.info.ncpus, sizeof(int));
	if (!err)
		err = capture_all(&k, c, *cpu_of,
				  (4u << 20) / 24 * k.info.ncpus);
	kring_close(&k);
	return err;
}

/* What one side of the ping-pong did: how often it slept and who woke it. */
struct side_counts {
	size_t blocked; /* switched out blocked */
	size_t woken; /* woken by anyone */
	size_t woken_by_other; /* woken by the other side, on CPU 0 */
};

static int count_side(const struct krec *r, uint64_t self, uint64_t other,
		      struct side_counts *sc)
{
	sc->blocked += r->kind == KREC_SWITCH && r->out_tid == self &&
		       r->out_state == FXT_THREAD_BLOCKED;
	sc->woken += r->kind == KREC_WAKEUP && r->tid == self;
	if (r->kind == KREC_WAKEUP && r->tid == self && r->waker == other) {
		sc->woken_by_other++;
		CHECK(r->cpu == 0 && r->weight == 1024,
		      "wakeup cpu %u weight %d", r->cpu, r->weight);
	}
	return 0;
}

/*
 * Every time a side blocked, a wakeup brought it back (all but the last, if
 * it never ran again), and besides the other side only the start (creation,
 * the barrier) wakes it. Which side blocks in a round depends on timing: a
 * task preempted on its way to sleep is woken while still on its CPU, with
 * no wakeup event, and under emulation one side may never block at all.
 */
static int check_side(const char *name, const struct side_counts *sc)
{
	CHECK(sc->woken + 1 >= sc->blocked &&
	      sc->woken_by_other + 2 >= sc->blocked &&
	      sc->woken <= sc->blocked + 2,
	      "%s blocked %zu times, woken %zu times (%zu by the other)", name,
	      sc->blocked, sc->woken, sc->woken_by_other);
	return 0;
}

static int check_pingpong_switch(const struct krec *r)
{
	/* Blocked in read(), preempted by the other's wakeup, or dead. */
	CHECK(r->out_state == FXT_THREAD_BLOCKED ||
	      r->out_state == FXT_THREAD_RUNNING ||
	      r->out_state == FXT_THREAD_DEAD,
	      "left in state %u", r->out_state);
	CHECK(r->out_weight == 1024 && r->in_weight == 1024,
	      "nice 0 weights %d %d", r->out_weight, r->in_weight);
	return 0;
}

static int test_pingpong(void)
{
	size_t i, switches = 0, back = 0, blocked = 0;
	struct side_counts ping_sc = { 0 }, pong_sc = { 0 };
	uint64_t t0, t1, ping_tid, pong_tid;
	struct fxt_sched_stats st;
	struct pingpong pp;
	struct capture c;
	int *cpu_of;
	const struct krec *ping, *pong;

	CHECK_OK(traced_pingpong(&c, &cpu_of, &pp, &t0, &t1, &st));
	ping_tid = (uint64_t)pp.ping_tid;
	pong_tid = (uint64_t)pp.pong_tid;
	ping = find_thread(&c, ping_tid, "fxt-ping");
	pong = find_thread(&c, pong_tid, "fxt-pong");
	CHECK(ping && ping->process == (uint64_t)getpid(), "ping thread record");
	CHECK(pong && pong->process == (uint64_t)getpid(), "pong thread record");
	for (i = 0; i < c.n; i++) {
		const struct krec *r = &c.recs[i];
		bool there = r->kind == KREC_SWITCH && r->cpu == 0 &&
			     r->out_tid == ping_tid && r->in_tid == pong_tid;
		bool again = r->kind == KREC_SWITCH && r->cpu == 0 &&
			     r->out_tid == pong_tid && r->in_tid == ping_tid;

		if (there || again) {
			switches += there;
			back += again;
			blocked += r->out_state == FXT_THREAD_BLOCKED;
			if (check_pingpong_switch(r))
				return 1;
		}
		if (count_side(r, ping_tid, pong_tid, &ping_sc) ||
		    count_side(r, pong_tid, ping_tid, &pong_sc))
			return 1;
		if (r->kind == KREC_SWITCH && (r->out_tid == 0 || r->in_tid == 0))
			CHECK((r->out_tid ? r->in_weight : r->out_weight) ==
			      FXT_SCHED_IDLE_WEIGHT, "idle weight");
	}
	/* A lost record explains any count below: say so first. */
	CHECK(st.dropped == 0, "dropped %llu", (unsigned long long)st.dropped);
	/* Wakeup preemption merges some rounds: not 300 of each. */
	CHECK(switches >= 100 && back >= 100, "switches %zu/%zu", switches, back);
	if (check_side("ping", &ping_sc) || check_side("pong", &pong_sc))
		return 1;
	/* One of the two blocks each round, and the other wakes it. */
	CHECK(blocked >= 250, "left blocked only %zu times", blocked);
	CHECK(ping_sc.woken_by_other + pong_sc.woken_by_other + 4 >= blocked,
	      "%zu blocks, %zu wakeups by the other side", blocked,
	      ping_sc.woken_by_other + pong_sc.woken_by_other);
	capture_free(&c);
	free(cpu_of);
	return 0;
}

static int test_timestamps(void)
{
	uint64_t last[64] = { 0 }, t0, t1;
	struct fxt_sched_stats st;
	struct pingpong pp;
	struct capture c;
	size_t i, checked = 0;
	int *cpu_of;

	CHECK_OK(traced_pingpong(&c, &cpu_of, &pp, &t0, &t1, &st));
	for (i = 0; i < c.n; i++) {
		const struct krec *r = &c.recs[i];
		int cpu = cpu_of[i];

		if (r->kind != KREC_SWITCH && r->kind != KREC_WAKEUP)
			continue;
		CHECK(cpu < 64, "cpu");
		CHECK(r->ts >= last[cpu], "cpu %d: ts %" PRIu64 " after %" PRIu64,
		      cpu, r->ts, last[cpu]);
		CHECK(r->ts >= t0 && r->ts <= t1, "ts %" PRIu64 " outside "
		      "[%" PRIu64 ", %" PRIu64 "] (CLOCK_BOOTTIME)", r->ts, t0, t1);
		if (r->kind == KREC_SWITCH)
			CHECK(r->cpu == (unsigned int)cpu, "switch of cpu %u in "
			      "ring %d", r->cpu, cpu);
		last[cpu] = r->ts;
		checked++;
	}
	CHECK(checked > 400, "only %zu timestamps", checked);
	capture_free(&c);
	free(cpu_of);
	return 0;
}

static int test_conformance(void)
{
	size_t i, kinds[KREC_KIND_COUNT] = { 0 };
	struct fxt_sched_stats st;
	struct pingpong pp;
	struct capture c;
	uint64_t t0, t1;
	int *cpu_of;
	int err;

	err = traced_pingpong(&c, &cpu_of, &pp, &t0, &t1, &st);
	CHECK(err == 0, "%s (%s)", strerror(-err), c.why);
	for (i = 0; i < c.n; i++)
		kinds[c.recs[i].kind]++;
	CHECK(c.n == st.records, "decoded %zu of %llu records", c.n,
	      (unsigned long long)st.records);
	CHECK(c.bytes == st.bytes, "read %zu of %llu bytes", c.bytes,
	      (unsigned long long)st.bytes);
	CHECK(kinds[KREC_SWITCH] && kinds[KREC_WAKEUP] &&
	      kinds[KREC_THREAD] && kinds[KREC_PROCESS],
	      "kinds %zu %zu %zu %zu", kinds[0], kinds[1], kinds[2], kinds[3]);
	/* The state dump names this process and init. */
	for (i = 0; i < c.n; i++)
		if (c.recs[i].kind == KREC_PROCESS && c.recs[i].tid == 1)
			break;
	CHECK(i < c.n, "no process record for pid 1");
	capture_free(&c);
	free(cpu_of);
	return 0;
}

static int test_oneshot(void)
{
	const struct fxt_ring_ctrl *ctrl;
	struct fxt_sched_stats st;
	struct pingpong pp;
	struct capture c;
	struct kring k;
	uint64_t head, records;

	CHECK_OK(open_configured(&k, 4096, FXT_BUFFERING_ONESHOT, 0));
	ctrl = kring_ctrl(&k, 0);
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 500, NULL, &pp));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK_OK(kring_stats(&k, &st));
	head = ctrl->head;
	records = ctrl->records;
	CHECK(ctrl->dropped > 0, "cpu 0 dropped nothing");
	CHECK(st.dropped >= ctrl->dropped, "stats dropped");
	CHECK(head <= 4096 && head > 4096 - FXT_SCHED_RECORD_MAX_WORDS * 8,
	      "head %" PRIu64 " not at the end", head);
	CHECK(ctrl->overwritten == 0, "oneshot overwrote");
	CHECK_OK(capture_all(&k, &c, NULL, 0));
	CHECK(c.n == st.records, "decoded %zu of %llu", c.n,
	      (unsigned long long)st.records);
	capture_free(&c);

	/* Stopped for good: even with room again, nothing more until reset. */
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 50, NULL, &pp));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK(ctrl->head == head && ctrl->records == records,
	      "oneshot wrote after it was full");
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_RESET));
	CHECK(ctrl->head == 0 && ctrl->dropped == 0, "reset");
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 5, NULL, &pp));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK(ctrl->head > 0, "nothing written after reset");
	kring_close(&k);
	return 0;
}

static int test_circular(void)
{
	const struct fxt_ring_ctrl *ctrl;
	struct pingpong pp;
	struct capture c;
	struct kring k;
	uint64_t *buf = malloc(4096);
	size_t got, i;
	char why[128];

	CHECK(buf, "malloc");
	CHECK_OK(open_configured(&k, 4096, FXT_BUFFERING_CIRCULAR, 0));
	ctrl = kring_ctrl(&k, 0);
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 500, "fxt-last", &pp));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK(ctrl->overwritten > 0 && ctrl->dropped == 0,
	      "overwritten %llu dropped %llu",
	      (unsigned long long)ctrl->overwritten,
	      (unsigned long long)ctrl->dropped);
	CHECK(ctrl->head - ctrl->oldest <= 4096 &&
	      ctrl->head - ctrl->oldest > 4096 - FXT_SCHED_RECORD_MAX_WORDS * 8,
	      "held [%llu, %llu)", (unsigned long long)ctrl->oldest,
	      (unsigned long long)ctrl->head);
	got = kring_read(&k, 0, buf, 4096, true);
	CHECK(got == ctrl->head - ctrl->oldest, "read %zu of %llu bytes", got,
	      (unsigned long long)(ctrl->head - ctrl->oldest));
	memset(&c, 0, sizeof(c));
	CHECK(decode_into(&c, buf, got / 8) == 0, "decode: %s", c.why);
	CHECK(c.n + ctrl->overwritten == ctrl->records, "records %zu + %llu",
	      c.n, (unsigned long long)ctrl->overwritten);
	/* The newest records are held: the rename after the last round. */
	for (i = 0; i < c.n; i++)
		if (c.recs[i].kind == KREC_THREAD &&
		    !strcmp(c.recs[i].name, "fxt-last"))
			break;
	CHECK(i < c.n, "the last rename is not held");
	for (i = 1; i < c.n; i++)
		CHECK(!c.recs[i].ts || !c.recs[i - 1].ts ||
		      c.recs[i].ts >= c.recs[i - 1].ts, "ts order");
	(void)why;
	capture_free(&c);
	free(buf);
	kring_close(&k);
	return 0;
}

struct pp_thread {
	struct pingpong pp;
	int err;
	volatile int done;
};

static void *pp_thread_main(void *arg)
{
	struct pp_thread *t = arg;

	t->err = pingpong_run(&t->pp);
	__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int drain(struct kring *k, struct capture *c, uint64_t *buf, size_t cap)
{
	unsigned int cpu;
	size_t got;
	int err;

	for (cpu = 0; cpu < k->info.ncpus; cpu++) {
		while ((got = kring_read(k, cpu, buf, cap, true)) > 0) {
			c->bytes += got;
			err = decode_into(c, buf, got / 8);
			if (err)
				return err;
		}
	}
	return k->corrupt ? -EBADMSG : 0;	/* a bad record size */
}

static int test_streaming(void)
{
	struct fxt_sched_stats st;
	struct pp_thread t = { .pp = { .cpu = 0, .rounds = 5000 } };
	struct capture c = { 0 };
	uint64_t buf[8192];
	struct kring k;
	pthread_t th;
	size_t wakeups = 0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	CHECK(sched_setaffinity(0, sizeof(set), &set) == 0, "pin reader");
	CHECK_OK(open_configured(&k, 65536, FXT_BUFFERING_STREAMING, 4096));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK(pthread_create(&th, NULL, pp_thread_main, &t) == 0, "thread");
	while (!__atomic_load_n(&t.done, __ATOMIC_ACQUIRE)) {
		struct pollfd pfd = { .fd = k.fd, .events = POLLIN };
		int n = poll(&pfd, 1, 100);

		CHECK(n >= 0, "poll: %s", strerror(errno));
		if (n == 1 && (pfd.revents & POLLIN))
			wakeups++;
		CHECK(drain(&k, &c, buf, sizeof(buf)) == 0, "%s", c.why);
	}
	pthread_join(th, NULL);
	CHECK_OK(t.err);
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK(drain(&k, &c, buf, sizeof(buf)) == 0, "%s", c.why);
	CHECK_OK(kring_stats(&k, &st));
	CHECK(wakeups > 0, "poll never reported the watermark");
	CHECK(c.n == st.records, "received %zu of %llu records", c.n,
	      (unsigned long long)st.records);
	/*
	 * More than the ring holds went through: the reader drained while
	 * the writer wrote. How much more depends on how often a loaded
	 * machine lets the reader run, not on the ring.
	 */
	CHECK(st.bytes > 65536, "only %llu bytes: nothing drained?",
	      (unsigned long long)st.bytes);
	printf("  streaming: %zu records, %zu poll wakeups, %llu dropped\n",
	       c.n, wakeups, (unsigned long long)st.dropped);
	capture_free(&c);

	/* Nobody reads: the newest records are dropped and counted. */
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_RESET));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 2000, NULL, &t.pp));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK_OK(kring_stats(&k, &st));
	CHECK(kring_ctrl(&k, 0)->dropped > 0, "full ring dropped nothing");
	CHECK(kring_ctrl(&k, 0)->head <= 65536, "head past the ring");
	CHECK(drain(&k, &c, buf, sizeof(buf)) == 0, "%s", c.why);
	CHECK(c.n + st.dropped >= 3 * 2000, "records %zu + dropped %llu",
	      c.n, (unsigned long long)st.dropped);
	capture_free(&c);
	kring_close(&k);
	return 0;
}

static int test_start_stop(void)
{
	struct fxt_sched_stats st;
	struct capture c;
	struct kring k;
	int i;

	CHECK_OK(open_configured(&k, 1 << 20, FXT_BUFFERING_CIRCULAR, 0));
	for (i = 0; i < 1000; i++) {
		CHECK(ioctl(k.fd, FXT_SCHED_IOC_START) == 0, "start %d: %s", i,
		      strerror(errno));
		sched_yield();
		CHECK(ioctl(k.fd, FXT_SCHED_IOC_STOP) == 0, "stop %d: %s", i,
		      strerror(errno));
	}
	CHECK_OK(kring_stats(&k, &st));
	CHECK(!st.tracing && st.records > 0, "records %llu",
	      (unsigned long long)st.records);
	CHECK(capture_all(&k, &c, NULL, 0) == 0, "decode: %s", c.why);
	capture_free(&c);
	kring_close(&k);
	return 0;
}

static int test_two_readers(void)
{
	struct kring k;
	int fd, status;
	pid_t child;

	CHECK_OK(kring_open(&k));
	fd = open(FXT_SCHED_DEVICE, O_RDWR);
	CHECK(fd < 0 && errno == EBUSY, "second open: fd %d errno %d", fd, errno);
	child = fork();
	if (!child)
		_exit(open(FXT_SCHED_DEVICE, O_RDWR) < 0 && errno == EBUSY ? 0 : 1);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0, "second open from another process");
	kring_close(&k);
	CHECK_OK(kring_open(&k));
	kring_close(&k);
	return 0;
}

/*
 * An ioctl whose argument page faults, against an mmap() of the device:
 * mmap() runs under mmap_lock and takes the device lock; the fault takes
 * mmap_lock. The module must not hold its lock across the user copy. A
 * userfaultfd page keeps the ioctl inside its fault for as long as the
 * test wants, so the outcome does not depend on timing.
 */
struct fault_ioctl {
	int fd;
	unsigned long cmd;
	void *arg;
	int ret;
	int err;
};

static void *fault_ioctl_main(void *arg)
{
	struct fault_ioctl *f = arg;

	f->ret = ioctl(f->fd, f->cmd, f->arg);
	f->err = errno;
	return NULL;
}

struct map_once {
	int fd;
	pid_t tid;
	void *map;
	volatile int done;
};

static void *map_once_main(void *arg)
{
	struct map_once *m = arg;

	__atomic_store_n(&m->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	m->map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, m->fd, 0);
	if (m->map != MAP_FAILED)
		munmap(m->map, 4096);
	__atomic_store_n(&m->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Sleeping on the device lock: wchan names the mutex or ->mmap(). */
static bool waits_on_device_lock(pid_t tid)
{
	char path[64], wchan[128] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/wchan", (int)tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, wchan, sizeof(wchan) - 1);
	close(fd);
	wchan[n > 0 ? n : 0] = '\0';
	return strstr(wchan, "mutex") || strstr(wchan, "fxt_dev_mmap");
}

static int fault_during_mmap(struct kring *k, unsigned long cmd,
			     const void *contents, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct fault_ioctl f = { .fd = k->fd, .cmd = cmd };
	struct map_once m = { .fd = k->fd };
	struct uffdio_copy copy = { .len = 4096 };
	struct uffd_msg msg;
	pthread_t ioctl_th, map_th;
	uint8_t *page, *src;
	int uffd;

	/*
	 * Once the mmap() thread holds mmap_lock, a page fault of ours would
	 * wait behind it: fault in our pages and the checking path now.
	 */
	CHECK(mlockall(MCL_CURRENT) == 0, "mlockall: %s", strerror(errno));
	CHECK(!waits_on_device_lock((pid_t)syscall(SYS_gettid)), "wchan");
	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	CHECK(uffd >= 0, "userfaultfd: %s", strerror(errno));
	CHECK(ioctl(uffd, UFFDIO_API, &api) == 0, "UFFDIO_API");
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	src = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(page != MAP_FAILED && src != MAP_FAILED, "mmap");
	memcpy(src, contents, len);
	reg.range.start = (uintptr_t)page;
	reg.range.len = 4096;
	CHECK(ioctl(uffd, UFFDIO_REGISTER, &reg) == 0, "UFFDIO_REGISTER: %s",
	      strerror(errno));

	f.arg = page;
	CHECK(pthread_create(&ioctl_th, NULL, fault_ioctl_main, &f) == 0,
	      "thread");
	/* The ioctl now sits in its fault on page until we fill it. */
	CHECK(read(uffd, &msg, sizeof(msg)) == sizeof(msg) &&
	      msg.event == UFFD_EVENT_PAGEFAULT, "no fault event");
	CHECK(pthread_create(&map_th, NULL, map_once_main, &m) == 0, "thread");
	while (!__atomic_load_n(&m.done, __ATOMIC_ACQUIRE)) {
		pid_t tid = __atomic_load_n(&m.tid, __ATOMIC_ACQUIRE);

		/* Stuck for good: exiting kills the fault and frees both. */
		CHECK(!tid || !waits_on_device_lock(tid),
		      "mmap() waits for the device lock held by an ioctl "
		      "faulting on its argument (deadlock with mmap_lock)");
		sched_yield();
	}
	pthread_join(map_th, NULL);
	CHECK(m.map != MAP_FAILED, "mmap: %s", strerror(errno));
	copy.dst = (uintptr_t)page;
	copy.src = (uintptr_t)src;
	CHECK(ioctl(uffd, UFFDIO_COPY, &copy) == 0, "UFFDIO_COPY: %s",
	      strerror(errno));
	pthread_join(ioctl_th, NULL);
	CHECK(f.ret == 0, "ioctl after the fault: %s", strerror(f.err));
	munmap(page, 4096);
	munmap(src, 4096);
	close(uffd);
	munlockall();
	return 0;
}

static int test_ioctl_fault_vs_mmap(void)
{
	struct fxt_sched_config cfg = { .buffer_bytes = 8192,
					.mode = FXT_BUFFERING_ONESHOT,
					.events = FXT_SCHED_EV_DEFAULT };
	struct fxt_sched_stats st = { 0 };
	struct kring k;

	CHECK_OK(kring_open(&k));
	CHECK(fault_during_mmap(&k, FXT_SCHED_IOC_STATS, &st, sizeof(st)) == 0,
	      "stats");
	CHECK(fault_during_mmap(&k, FXT_SCHED_IOC_INFO, &st, sizeof(st)) == 0,
	      "info");
	CHECK(fault_during_mmap(&k, FXT_SCHED_IOC_CONFIGURE, &cfg,
				sizeof(cfg)) == 0, "configure");
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_INFO, &k.info) == 0 &&
	      k.info.buffer_bytes == 8192, "configure from a faulting page");
	kring_close(&k);
	return 0;
}

static int drop_trace_caps(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_SYS_ADMIN / 32].effective &= ~(1u << (CAP_SYS_ADMIN % 32));
	data[CAP_PERFMON / 32].effective &= ~(1u << (CAP_PERFMON % 32));
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

static int test_capabilities(void)
{
	int status, fd;
	pid_t child;

	fd = open(FXT_SCHED_DEVICE, O_RDWR);
	CHECK(fd >= 0, "open as root: %s", strerror(errno));
	child = fork();
	if (!child) {
		struct fxt_sched_stats st;

		if (drop_trace_caps())
			_exit(2);
		if (ioctl(fd, FXT_SCHED_IOC_STATS, &st) == 0 || errno != EPERM)
			_exit(3);
		if (mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) != MAP_FAILED)
			_exit(4);
		close(fd);
		if (open(FXT_SCHED_DEVICE, O_RDWR) >= 0 || errno != EPERM)
			_exit(5);
		_exit(0);
	}
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status),
	      "child");
	CHECK(WEXITSTATUS(status) == 0, "without CAP_SYS_ADMIN/CAP_PERFMON: "
	      "step %d was allowed", WEXITSTATUS(status));
	close(fd);
	return 0;
}

static int load_module(void)
{
	int fd = open(module_path, O_RDONLY | O_CLOEXEC);
	int i, err;

	if (fd < 0)
		return -errno;
	err = syscall(SYS_finit_module, fd, "", 0) ? -errno : 0;
	close(fd);
	for (i = 0; !err && i < 500 && access(FXT_SCHED_DEVICE, F_OK); i++)
		usleep(10000);	/* devtmpfs creates the node */
	return err;
}

static int unload_module(void)
{
	return syscall(SYS_delete_module, "fxt_sched", O_NONBLOCK) ? -errno : 0;
}

static int test_rmmod_mapped(void)
{
	struct pingpong pp;
	struct capture c;
	struct kring k;
	int err;

	CHECK_OK(open_configured(&k, 65536, FXT_BUFFERING_CIRCULAR, 0));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 20, NULL, &pp));
	close(k.fd);	/* release() stops tracing once the maps are gone */
	k.fd = -1;
	err = unload_module();
	CHECK(err == -EBUSY || err == -EAGAIN, "rmmod while mapped: %s",
	      strerror(-err));
	CHECK(capture_all(&k, &c, NULL, 0) == 0 && c.n > 0,
	      "mapping unreadable after the refused rmmod: %s", c.why);
	capture_free(&c);
	kring_unmap(&k);
	CHECK_OK(unload_module());
	CHECK(access(FXT_SCHED_DEVICE, F_OK) < 0, "device left after rmmod");
	CHECK_OK(load_module());

	/* Unload right after closing a session that was tracing. */
	CHECK_OK(open_configured(&k, 65536, FXT_BUFFERING_STREAMING, 0));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 20, NULL, &pp));
	kring_close(&k);
	CHECK_OK(unload_module());
	CHECK_OK(load_module());
	return 0;
}

static int test_backend(void)
{
	const struct kernel_backend_ops *b = &kernel_backend_kmod;
	struct kernel_session_config cfg = {
		.backend = KERNEL_BACKEND_KMOD,
		.mode = FXT_BUFFERING_STREAMING,
		.buffer_bytes_per_cpu = 1 << 20,
		.events = FXT_SCHED_EV_DEFAULT,
	};
	struct kernel_session_stats st;
	struct capture c = { 0 };
	uint64_t *buf = malloc(1 << 20);
	struct pingpong pp;
	char why[200] = "";
	unsigned int cpu, ncpus;
	size_t i, switches = 0;
	void *state;
	ssize_t got;

	CHECK(buf, "malloc");
	CHECK(b->probe(why, sizeof(why)) == 0, "probe: %s", why);
	CHECK_OK(b->open(&cfg, &state));
	CHECK(b->event_fd(state) >= 0, "event fd");
	ncpus = b->ncpus(state);
	CHECK(ncpus >= 2, "ncpus %u", ncpus);
	CHECK_OK(b->start(state));
	CHECK_OK(run_pingpong(0, 100, NULL, &pp));
	CHECK_OK(b->stop(state));
	for (cpu = 0; cpu < ncpus; cpu++) {
		/* A small buffer: read_cpu must stop at whole records. */
		while ((got = b->read_cpu(state, cpu, buf, 100)) > 0) {
			CHECK(got % 8 == 0 && got <= 100, "read %zd", got);
			CHECK(decode_into(&c, buf, (size_t)got / 8) == 0, "%s",
			      c.why);
		}
		CHECK(got == 0, "read_cpu: %s", strerror((int)-got));
	}
	b->stats(state, &st);
	CHECK(st.records == c.n && st.dropped == 0 && st.ncpus == ncpus,
	      "stats %llu records, %zu read", (unsigned long long)st.records,
	      c.n);
	for (i = 0; i < c.n; i++)
		switches += c.recs[i].kind == KREC_SWITCH &&
			    c.recs[i].out_tid == (uint64_t)pp.ping_tid;
	CHECK(switches >= 90, "switches from ping: %zu", switches);
	b->close(state);
	capture_free(&c);
	free(buf);
	return 0;
}

/* Appends words to a growing archive. */
struct archive {
	uint64_t *w;
	size_t n, cap;
};

static void put(struct archive *a, uint64_t word)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 4096;
		a->w = realloc(a->w, a->cap * sizeof(*a->w));
		if (!a->w)
			abort();
	}
	a->w[a->n++] = word;
}

static void put_string(struct archive *a, const char *str)
{
	size_t len = strlen(str), i;

	for (i = 0; i < fxt_words((uint32_t)len); i++) {
		uint64_t word = 0;
		size_t part = len - i * 8 < 8 ? len - i * 8 : 8;

		memcpy(&word, str + i * 8, part);
		put(a, word);
	}
}

/* The kernel provider's section, as the manager writes it. */
static void put_section_start(struct archive *a)
{
	static const char *const table[] = FXT_SCHED_STRING_TABLE;
	static const char *const kdev[] = FXT_KDEV_STRING_TABLE;
	unsigned int i;

	put(a, fxt_magic_record());
	put(a, fxt_provider_info_header(1, 6));
	put_string(a, "kernel");
	put(a, fxt_init_header());
	put(a, 1000000000u);
	for (i = 1; i <= FXT_SCHED_STR_COUNT; i++) {
		put(a, fxt_string_header((uint16_t)i,
					 (uint16_t)strlen(table[i])));
		put_string(a, table[i]);
	}
	for (i = 0; i < FXT_KDEV_STR_COUNT; i++) {
		put(a, fxt_string_header((uint16_t)(FXT_KDEV_STR_BASE + i),
					 (uint16_t)strlen(kdev[i])));
		put_string(a, kdev[i]);
	}
}

static int write_file(const char *path, const struct archive *a)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -errno;
	ok = fwrite(a->w, 8, a->n, f) == a->n;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

static int run_dump_strict(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execl("/bin/tracectl", "tracectl", "dump", "--strict", path,
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The rings' records, behind the section start the manager writes, pass
 * tracectl dump --strict (the project's reader); a malformed one does
 * not.
 */
static int test_archive_strict(void)
{
	struct fxt_sched_stats st;
	struct archive a = { 0 };
	struct pingpong pp;
	struct kring k;
	uint64_t *buf;
	unsigned int cpu;
	size_t got, i, first_wakeup = 0;
	int status;

	CHECK(access("/bin/tracectl", X_OK) == 0, "no /bin/tracectl in the "
	      "initramfs");
	CHECK_OK(open_configured(&k, 1 << 20, FXT_BUFFERING_STREAMING, 0));
	buf = malloc(1 << 20);
	CHECK(buf, "malloc");
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(run_pingpong(0, 100, NULL, &pp));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK_OK(kring_stats(&k, &st));
	put_section_start(&a);
	for (cpu = 0; cpu < k.info.ncpus; cpu++) {
		while ((got = kring_read(&k, cpu, buf, 1 << 20, true)) > 0)
			for (i = 0; i < got / 8; i++)
				put(&a, buf[i]);
	}
	kring_close(&k);
	CHECK_OK(write_file("/tmp/kernel.fxt", &a));
	status = run_dump_strict("/tmp/kernel.fxt");
	CHECK(status == 0, "tracectl dump --strict exit %d on %llu records",
	      status, (unsigned long long)st.records);

	/* A waker koid argument one word short: strict must fail. */
	for (i = 0; i < a.n && !first_wakeup; i++)
		if (FXT_GET(a.w[i], FXT_HDR_TYPE) == FXT_RECORD_SCHEDULING &&
		    FXT_GET(a.w[i], FXT_SCHED_TYPE) == FXT_SCHED_THREAD_WAKEUP)
			first_wakeup = i;
	CHECK(first_wakeup, "no wakeup in the archive");
	a.w[first_wakeup + 4] = fxt_arg_header(FXT_ARG_KOID, 1,
					       FXT_SCHED_STR_WAKER, 0);
	CHECK_OK(write_file("/tmp/kernel-bad.fxt", &a));
	status = run_dump_strict("/tmp/kernel-bad.fxt");
	CHECK(status == 1, "tracectl dump --strict exit %d on a short koid",
	      status);
	free(a.w);
	free(buf);
	return 0;
}

/* Both of a traced window's children: an exec'd exit 7 and a SIGTERM. */
struct proc_children {
	pid_t exec_child, signal_child;
};

static pid_t spawn(int exec_it)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (exec_it) {
		execl("/bin/busybox", "sh", "-c", "exit 7", (char *)NULL);
		_exit(127);
	}
	raise(SIGTERM);
	_exit(0);
}

/* Traces the two children with the given FXT_SCHED_EV_* events. */
static int traced_children(uint32_t events, struct capture *c,
			   struct proc_children *pc)
{
	struct kring k;
	int status, err;

	err = kring_open(&k);
	if (!err)
		err = kring_configure(&k, 4 << 20, FXT_BUFFERING_STREAMING,
				      events, 0);
	if (!err)
		err = kring_map(&k);
	if (!err)
		err = kring_ioctl(&k, FXT_SCHED_IOC_START);
	if (err)
		return err;
	pc->exec_child = spawn(1);
	if (pc->exec_child > 0)
		waitpid(pc->exec_child, &status, 0);
	pc->signal_child = spawn(0);
	if (pc->signal_child > 0)
		waitpid(pc->signal_child, &status, 0);
	err = kring_ioctl(&k, FXT_SCHED_IOC_STOP);
	if (!err)
		err = capture_all(&k, c, NULL, 0);
	kring_close(&k);
	if (pc->exec_child <= 0 || pc->signal_child <= 0)
		return -ECHILD;
	return err;
}

static const struct krec *find_kind(const struct capture *c,
				    enum krec_kind kind, uint64_t tid)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->recs[i].kind == kind && c->recs[i].tid == tid)
			return &c->recs[i];
	return NULL;
}

static size_t count_kind(const struct capture *c, enum krec_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		n += c->recs[i].kind == kind;
	return n;
}

/* kernel:proc: fork, exec with its file name, exit with code or signal. */
static int test_proc_events(void)
{
	uint64_t self = (uint64_t)getpid();
	const struct krec *fork1 = NULL, *fork2 = NULL, *exec, *exit1, *exit2;
	struct proc_children pc;
	struct capture c;
	size_t i;

	CHECK_OK(traced_children(FXT_SCHED_EV_DEFAULT, &c, &pc));
	for (i = 0; i < c.n; i++) {
		const struct krec *r = &c.recs[i];

		if (r->kind != KREC_FORK || r->tid != self ||
		    r->process != self)
			continue;
		if (r->child == (uint64_t)pc.exec_child)
			fork1 = r;
		if (r->child == (uint64_t)pc.signal_child)
			fork2 = r;
	}
	CHECK(fork1 && fork2, "no fork of %d and %d on thread %d",
	      pc.exec_child, pc.signal_child, getpid());
	exec = find_kind(&c, KREC_EXEC, pc.exec_child);
	CHECK(exec && exec->process == (uint64_t)pc.exec_child,
	      "no exec of %d", pc.exec_child);
	CHECK(!strcmp(exec->filename, "/bin/busybox"), "exec file name '%s'",
	      exec->filename);
	exit1 = find_kind(&c, KREC_EXIT, pc.exec_child);
	CHECK(exit1 && exit1->code == 7 && !exit1->signal,
	      "exit of %d: code %d signal %d", pc.exec_child,
	      exit1 ? exit1->code : 0, exit1 ? exit1->signal : 0);
	exit2 = find_kind(&c, KREC_EXIT, pc.signal_child);
	CHECK(exit2 && exit2->code == -1 && exit2->signal == SIGTERM,
	      "exit of %d: code %d signal %d", pc.signal_child,
	      exit2 ? exit2->code : 0, exit2 ? exit2->signal : 0);
	CHECK(fork1->ts < exec->ts && exec->ts < exit1->ts &&
	      exit1->ts < fork2->ts && fork2->ts < exit2->ts,
	      "fork, exec, exit out of order");
	CHECK(find_thread(&c, pc.exec_child, "busybox"),
	      "exec'd child not named");
	capture_free(&c);

	/* kernel:proc alone: its events, no scheduling, no names. */
	CHECK_OK(traced_children(FXT_SCHED_EV_PROC, &c, &pc));
	CHECK(find_kind(&c, KREC_EXIT, pc.exec_child), "proc alone: no exit");
	CHECK(!count_kind(&c, KREC_SWITCH) && !count_kind(&c, KREC_WAKEUP) &&
	      !count_kind(&c, KREC_THREAD), "proc alone: other records");
	capture_free(&c);

	/* Scheduling without kernel:proc: no events. */
	CHECK_OK(traced_children(FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP |
					 FXT_SCHED_EV_NAMES, &c, &pc));
	CHECK(count_kind(&c, KREC_SWITCH) && !count_kind(&c, KREC_FORK) &&
	      !count_kind(&c, KREC_EXEC) && !count_kind(&c, KREC_EXIT),
	      "sched alone: %zu switches, proc events", count_kind(&c, KREC_SWITCH));
	capture_free(&c);
	return 0;
}

/* The loop driver, a module in the guest: /loop.ko in the initramfs. */
static int load_loop(void)
{
	int fd, i, err = 0;

	if (!access("/dev/loop-control", F_OK))
		return 0;
	fd = open("/loop.ko", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST)
		err = -errno;
	close(fd);
	for (i = 0; !err && i < 500 && access("/dev/loop-control", F_OK); i++)
		usleep(10000);	/* devtmpfs creates the node */
	return err;
}

/* The first end under id at or after ts, in any CPU's ring; or NULL. */
static const struct krec *block_end(const struct capture *c, uint64_t id,
				    uint64_t ts)
{
	const struct krec *end = NULL;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct krec *r = &c->recs[i];

		if (r->kind == KREC_BLOCK_END && r->async_id == id &&
		    r->ts >= ts && (!end || r->ts < end->ts))
			end = r;
	}
	return end;
}

/*
 * Each write's begin, then its end under its id with status 0. A request
 * may complete on another CPU than the one that issued it: its end is in
 * another ring, so the capture's order says nothing.
 */
static int block_pairs(const struct capture *c, unsigned int minor,
		       unsigned int count, uint32_t bytes)
{
	const struct krec *end;
	unsigned int done = 0, w;
	size_t i;

	for (w = 0; w < count; w++) {
		for (i = 0; i < c->n; i++) {
			const struct krec *b = &c->recs[i];

			if (b->kind == KREC_BLOCK_BEGIN && b->major == 7 &&
			    b->minor == minor && b->bytes == bytes &&
			    b->op == FXT_KDEV_STR_BLOCK_WRITE &&
			    b->sector == (uint64_t)w * bytes / 512)
				break;
		}
		if (i == c->n)
			continue;
		end = block_end(c, c->recs[i].async_id, c->recs[i].ts);
		done += end && !end->status &&
			end->op == FXT_KDEV_STR_BLOCK_WRITE;
	}
	return done == count ? 0 : -1;
}

/*
 * kernel:fault, kernel:block, kernel:power: a workload for each, read
 * back from the rings. cpu_frequency needs a cpufreq driver, which this
 * guest has not: it is not checked.
 */
static int test_kdev_events(void)
{
	const unsigned int pages = 64, writes = 8;
	const uint32_t bytes = 65536;
	unsigned int minor = 0, i, faulted = 0, enter = 0, leave = 0, other = 0;
	uint64_t self = (uint64_t)getpid();
	uint8_t seen[64] = { 0 };
	struct fxt_sched_stats st;
	struct capture c;
	struct kring k;
	uintptr_t base;
	char dev[32];

	CHECK_OK(load_loop());
	CHECK_OK(kdev_loop_attach("/tmp/kdev-disk.img", dev, sizeof(dev),
				  &minor));
	CHECK_OK(kring_open(&k));
	CHECK_OK(kring_configure(&k, 4 << 20, FXT_BUFFERING_STREAMING,
				 FXT_SCHED_EV_DEV, 0));
	CHECK_OK(kring_map(&k));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(kdev_touch_pages(pages, &base));
	CHECK_OK(kdev_direct_writes(dev, writes, bytes));
	usleep(200000);		/* idle CPUs */
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK_OK(kring_stats(&k, &st));
	CHECK(capture_all(&k, &c, NULL, 0) == 0, "decode: %s", c.why);
	kring_close(&k);
	kdev_loop_detach(dev);
	CHECK(c.n == st.records && !st.dropped, "decoded %zu of %llu, %llu "
	      "dropped", c.n, (unsigned long long)st.records,
	      (unsigned long long)st.dropped);
	for (i = 0; i < c.n; i++) {
		const struct krec *r = &c.recs[i];

		if (r->kind == KREC_FAULT && r->tid == self &&
		    r->process == self && r->address >= base &&
		    r->address < base + pages * 4096 &&
		    (r->error_code & 6) == 6)
			seen[(r->address - base) / 4096] = 1;
		if (r->kind == KREC_IDLE) {
			CHECK(r->cpu < 32 && r->value >= -1, "idle %lld of CPU %u",
			      (long long)r->value, r->cpu);
			enter |= (r->value >= 0) << r->cpu;
			leave |= (r->value == -1) << r->cpu;
		}
		other += r->kind < KREC_IDLE;
	}
	for (i = 0; i < pages; i++)
		faulted += seen[i];
	CHECK(faulted == pages, "faults on %u of %u touched pages", faulted,
	      pages);
	CHECK(enter & leave, "no CPU entered and left idle (%x, %x)", enter,
	      leave);
	CHECK(block_pairs(&c, minor, writes, bytes) == 0,
	      "not every write of %s paired", dev);
	CHECK(!other, "%u records of other categories", other);
	capture_free(&c);
	return 0;
}

/* One wakeup-latency round in a fresh circular capture, read back. */
static int latency_capture(uint64_t threshold_ns, unsigned int hog_ms,
			   struct capture *c, int *wakee, uint64_t *exceeded,
			   uint64_t *max_wait_us)
{
	struct fxt_sched_stats st;
	struct kring k;
	unsigned int cpu;

	CHECK_OK(kring_open(&k));
	CHECK_OK(kring_configure(&k, 4 << 20, FXT_BUFFERING_CIRCULAR,
				 FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP, 0));
	CHECK_OK(kring_map(&k));
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_LATENCY, &threshold_ns) == 0,
	      "FXT_SCHED_IOC_LATENCY: %s", strerror(errno));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	CHECK_OK(kdev_wakeup_latency(2, hog_ms, wakee, max_wait_us));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK_OK(kring_stats(&k, &st));
	*exceeded = 0;
	for (cpu = 0; cpu < k.info.ncpus; cpu++)
		*exceeded += kring_ctrl(&k, cpu)->latency_exceeded;
	CHECK(capture_all(&k, c, NULL, 0) == 0, "decode: %s", c->why);
	kring_close(&k);
	CHECK(c->n == st.records && !st.overwritten,
	      "decoded %zu of %llu, %llu overwritten", c->n,
	      (unsigned long long)st.records,
	      (unsigned long long)st.overwritten);
	return 0;
}

/* The wakee's sched_latency records: how many, the longest wait. */
static size_t latency_of(const struct capture *c, int tid, uint64_t *longest)
{
	size_t i, n = 0;

	*longest = 0;
	for (i = 0; i < c->n; i++) {
		const struct krec *r = &c->recs[i];

		if (r->kind != KREC_LATENCY || r->tid != (uint64_t)tid)
			continue;
		n++;
		if (r->latency_ns > *longest)
			*longest = r->latency_ns;
	}
	return n;
}

/*
 * The wakeup-latency check: a wakee that a SCHED_FIFO hog keeps from its
 * CPU for hog_ms waits at least that long: with the threshold below it,
 * a sched_latency record on the wakee (>= the threshold, ending at its
 * switch in) and a count in the ring's control page; not armed, or with
 * no hog, none. TCG is slow: the hog and threshold are generous.
 */
static int test_wakeup_latency(void)
{
	const uint64_t threshold_ns = 100000000;
	const unsigned int hog_ms = 300;
	uint64_t exceeded, longest, max_wait_us;
	struct capture c;
	size_t n, i;
	int wakee;

	CHECK_OK(latency_capture(threshold_ns, hog_ms, &c, &wakee, &exceeded,
				 &max_wait_us));
	n = latency_of(&c, wakee, &longest);
	printf("  hog %u ms: wakee %d waited %llu us (its own clock), "
	       "sched_latency %zu, longest %llu us, %llu over the threshold\n",
	       hog_ms, wakee, (unsigned long long)max_wait_us, n,
	       (unsigned long long)(longest / 1000),
	       (unsigned long long)exceeded);
	CHECK(n >= 1 && longest >= threshold_ns,
	      "no sched_latency >= %llu ns on the wakee",
	      (unsigned long long)threshold_ns);
	CHECK(exceeded >= n, "ctrl->latency_exceeded %llu < %zu records",
	      (unsigned long long)exceeded, n);
	for (i = 0; i < c.n; i++)
		if (c.recs[i].kind == KREC_LATENCY)
			CHECK(c.recs[i].latency_ns >= threshold_ns,
			      "sched_latency of %llu ns below the threshold",
			      (unsigned long long)c.recs[i].latency_ns);
	capture_free(&c);

	/* Not armed: the same hog writes nothing. */
	CHECK_OK(latency_capture(0, hog_ms, &c, &wakee, &exceeded,
				 &max_wait_us));
	n = latency_of(&c, wakee, &longest);
	CHECK(n == 0 && exceeded == 0, "not armed: %zu records, %llu counted",
	      n, (unsigned long long)exceeded);
	for (i = 0; i < c.n; i++)
		CHECK(c.recs[i].kind != KREC_LATENCY,
		      "not armed: sched_latency");
	capture_free(&c);

	/* No hog: the wakee gets its CPU at once. */
	CHECK_OK(latency_capture(threshold_ns, 0, &c, &wakee, &exceeded,
				 &max_wait_us));
	n = latency_of(&c, wakee, &longest);
	CHECK(n == 0, "no hog: %zu sched_latency on the wakee (%llu us)", n,
	      (unsigned long long)(longest / 1000));
	capture_free(&c);
	return 0;
}

static int by_ts(const void *a, const void *b)
{
	const struct krec *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Ends that close another slice than their thread's innermost begin. */
static size_t improperly_nested(const struct capture *c)
{
	enum { THREADS = 1024, DEPTH = 16 };
	static uint64_t tids[THREADS];
	static unsigned int depth[THREADS], names[THREADS][DEPTH];
	size_t i, t, bad = 0, ntids = 0;

	for (i = 0; i < c->n; i++) {
		const struct krec *r = &c->recs[i];

		if (r->kind != KREC_BEGIN && r->kind != KREC_END)
			continue;
		for (t = 0; t < ntids && tids[t] != r->tid; t++)
			;
		if (t == ntids) {
			if (ntids == THREADS)
				return bad + 1;
			tids[ntids] = r->tid;
			depth[ntids++] = 0;
		}
		if (r->kind == KREC_BEGIN) {
			if (depth[t] == DEPTH)
				return bad + 1;
			names[t][depth[t]++] = r->name_ref;
		} else if (depth[t]) {	/* else begun before the trace */
			bad += names[t][--depth[t]] != r->name_ref;
		}
	}
	return bad;
}

/*
 * kernel:irq and kernel:syscall, limited to this process: its reads and
 * writes as begin/end pairs with their numbers and return values, none of
 * its child's, interrupts on some thread (the guest's timer), properly
 * nested slices, and no context switch on the shared idle koid 0.
 */
static int test_irq_syscall_events(void)
{
	struct fxt_sched_config cfg = { .buffer_bytes = 8 << 20,
					.mode = FXT_BUFFERING_STREAMING,
					.events = FXT_SCHED_EV_DEFAULT |
						  FXT_SCHED_EV_IRQ |
						  FXT_SCHED_EV_SYSCALL };
	uint64_t self = (uint64_t)getpid();
	size_t i, reads = 0, read_ends = 0, writes = 0, irqs = 0, idle = 0;
	size_t others = 0;
	struct capture c;
	struct kring k;
	char byte;
	pid_t child;
	int zero, null, status;

	cfg.syscall_pids[0] = getpid();
	CHECK_OK(kring_open(&k));
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_CONFIGURE, &cfg) == 0, "configure: %s",
	      strerror(errno));
	CHECK(ioctl(k.fd, FXT_SCHED_IOC_INFO, &k.info) == 0, "info");
	CHECK(!k.info.missing, "this kernel lacks tracepoints of events 0x%x",
	      k.info.missing);
	CHECK_OK(kring_map(&k));
	zero = open("/dev/zero", O_RDONLY);
	null = open("/dev/null", O_WRONLY);
	CHECK(zero >= 0 && null >= 0, "open /dev/zero, /dev/null");
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	for (i = 0; i < 2000; i++)
		if (read(zero, &byte, 1) != 1 || write(null, &byte, 1) != 1)
			break;
	child = fork();
	if (!child) {
		for (i = 0; i < 100; i++)
			(void)!read(zero, &byte, 1);
		_exit(0);
	}
	waitpid(child, &status, 0);
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK_OK(capture_all(&k, &c, NULL, 0));
	kring_close(&k);
	qsort(c.recs, c.n, sizeof(*c.recs), by_ts);
	for (i = 0; i < c.n; i++) {
		const struct krec *r = &c.recs[i];

		if (r->kind == KREC_SWITCH)
			idle += !r->out_tid || !r->in_tid;
		if (r->kind != KREC_BEGIN && r->kind != KREC_END)
			continue;
		if (r->category == FXT_KIRQ_STR_CAT_IRQ) {
			irqs += r->kind == KREC_BEGIN;
			continue;
		}
		if (r->process != self) {
			others++;
			continue;
		}
		if (r->name_ref == FXT_KSYSCALL_NAME_BASE + __NR_read) {
			reads += r->kind == KREC_BEGIN &&
				 r->value == __NR_read;
			read_ends += r->kind == KREC_END && r->value == 1;
		}
		writes += r->name_ref == FXT_KSYSCALL_NAME_BASE + __NR_write &&
			  r->kind == KREC_BEGIN;
	}
	printf("  irq/syscall: %zu reads (%zu ends of 1 byte), %zu writes, %zu interrupts, %zu other processes' syscalls\n",
	       reads, read_ends, writes, irqs, others);
	CHECK(reads >= 2000 && read_ends >= 2000 && writes >= 2000,
	      "too few read/write slices");
	CHECK(!others, "--pid: %zu system calls of other processes", others);
	CHECK(irqs, "no interrupt slice");
	CHECK(!idle, "%zu context switches on idle koid 0", idle);
	CHECK(!improperly_nested(&c), "improperly nested slices");
	capture_free(&c);
	return 0;
}

struct test {
	const char *name;
	int (*fn)(void);
};

static const struct test tests[] = {
	{ "abi", test_abi },
	{ "bad_args", test_bad_args },
	{ "capabilities", test_capabilities },
	{ "pingpong_records", test_pingpong },
	{ "timestamps_per_cpu", test_timestamps },
	{ "records_conform", test_conformance },
	{ "mode_oneshot", test_oneshot },
	{ "mode_circular", test_circular },
	{ "mode_streaming", test_streaming },
	{ "start_stop_1000", test_start_stop },
	{ "two_readers", test_two_readers },
	{ "ioctl_fault_vs_mmap", test_ioctl_fault_vs_mmap },
	{ "rmmod_while_mapped", test_rmmod_mapped },
	{ "backend_kmod", test_backend },
	{ "archive_dump_strict", test_archive_strict },
	{ "proc_events", test_proc_events },
	{ "kdev_events", test_kdev_events },
	{ "irq_syscall_events", test_irq_syscall_events },
	{ "wakeup_latency", test_wakeup_latency },
};

static int run_one(const struct test *t)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int failed = t->fn();

		fflush(stdout);
		_exit(failed);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("FAIL %s: fork/wait: %s\n", t->name, strerror(errno));
		return 1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("PASS %s\n", t->name);
		return 0;
	}
	if (WIFSIGNALED(status))
		printf("FAIL %s: killed by signal %d\n", t->name,
		       WTERMSIG(status));
	else
		printf("FAIL %s\n", t->name);
	return 1;
}

int main(int argc, char **argv)
{
	size_t i;
	int j, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: %s MODULE.ko [TEST...]\n", argv[0]);
		return 2;
	}
	module_path = argv[1];
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		int selected = argc == 2;

		for (j = 2; j < argc; j++)
			selected |= !strcmp(argv[j], tests[i].name);
		if (selected)
			failed |= run_one(&tests[i]);
	}
	return failed;
}
