// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guest test of the module's kernel:sample and kernel:offcpu (run by
 * scripts/qemu-kmod-test.sh inside qemu as root, the module loaded):
 * straight from the rings, every record parsed by fxt_ksample_parse()
 * (include/fxt/ksample.h), around its own workload built with frame
 * pointers:
 * - a child burns CPU in burn_a() and burn_b(), 7 to 3: its samples have
 *   their user leaf in those functions roughly 70/30, the next user frame
 *   in their caller (the frame-pointer walk), the period of the rate;
 * - a child blocks in read() on a pipe the parent writes every 100 ms:
 *   off-CPU records of its thread with kernel PCs, the user leaf in the
 *   function that made the system call, blocked_ns of the waits;
 * - a child reads /dev/zero: its samples in the kernel have kernel
 *   stacks from the interrupted function (named by /proc/kallsyms, not
 *   the sampler's own perf, hrtimer or interrupt frames), its user leaf
 *   under them;
 * - again with offcpu_min_ns of a minute: no off-CPU record of it.
 * Kernel PCs are kernel addresses, user PCs user addresses, nothing is
 * dropped. Prints "PASS stack_records_kmod" or "FAIL ...".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>

#define CHECK_RETURNS_1
#include "check.h"
#include "kring.h"

#define TEST_NAME "stack_records_kmod"
#define SAMPLE_HZ 1000u
#define BUFFER_BYTES (8u << 20)
#define BURN_CPU_NS 1000000000ull
#define BLOCKS 5
#define BLOCK_GAP_NS 100000000ull
#define KERNEL_SPACE 0xffff800000000000ull

/* Each in a section of its own: ld gives its bounds (__start_/__stop_). */
#define IN_SECTION(s) __attribute__((noipa, section(s)))

extern const char __start_kst_burn_a[], __stop_kst_burn_a[];
extern const char __start_kst_burn_b[], __stop_kst_burn_b[];
extern const char __start_kst_loop[], __stop_kst_loop[];
extern const char __start_kst_block[], __stop_kst_block[];
extern const char __start_kst_kloop[], __stop_kst_kloop[];

static volatile uint64_t sink;

/*
 * A call now and then: GCC gives a leaf function no frame, even with
 * -fno-omit-frame-pointer, and a walk from its leaf misses its caller.
 */
static __attribute__((noipa)) void burn_tick(unsigned int i)
{
	sink ^= i;
}

static IN_SECTION("kst_burn_a") void burn_a(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		sink = sink * 31 + i;
		if (!(i & 4095))
			burn_tick(i);
	}
}

static IN_SECTION("kst_burn_b") void burn_b(unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		sink = sink * 37 + i;
		if (!(i & 4095))
			burn_tick(i);
	}
}

static uint64_t ns_of(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static IN_SECTION("kst_loop") void burn_loop(uint64_t cpu_ns)
{
	/* Rounds of many sample periods: the timer does not alias with them. */
	while (ns_of(CLOCK_THREAD_CPUTIME_ID) < cpu_ns) {
		burn_a(700000);
		burn_b(300000);
	}
}

/* read(2) made where it is inlined: the user leaf of its thread. */
static inline __attribute__((always_inline)) long sys_read(int fd, void *buf,
							 size_t len)
{
#ifdef __x86_64__
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"((long)SYS_read), "D"((long)fd), "S"(buf),
			   "d"(len)
			 : "rcx", "r11", "memory");
	return ret;
#else
	return read(fd, buf, len);
#endif
}

static IN_SECTION("kst_block") void block_loop(int fd, int n)
{
	char c;

	for (int i = 0; i < n; i++)
		if (sys_read(fd, &c, 1) != 1)
			_exit(1);
}

/* CPU time in the kernel: samples with kernel PCs. */
static IN_SECTION("kst_kloop") void zero_loop(int fd, uint64_t cpu_ns)
{
	static char buf[1 << 20];

	while (ns_of(CLOCK_THREAD_CPUTIME_ID) < cpu_ns)
		if (sys_read(fd, buf, sizeof(buf)) <= 0)
			_exit(1);
}

static bool in(uint64_t pc, const char *start, const char *stop)
{
	return pc >= (uintptr_t)start && pc < (uintptr_t)stop;
}

/* /proc/kallsyms' text symbols, to name kernel PCs. */
struct ksym {
	uint64_t addr;
	char name[64];
};

static struct ksym *ksyms;
static size_t nksyms;

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void ksyms_load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t cap = 0;
	char line[256], type, name[sizeof(ksyms->name)];
	uint64_t addr;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %63s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T') || !addr)
			continue;
		if (nksyms == cap) {
			cap = cap ? cap * 2 : 65536;
			ksyms = realloc(ksyms, cap * sizeof(*ksyms));
			if (!ksyms)
				abort();
		}
		ksyms[nksyms].addr = addr;
		memcpy(ksyms[nksyms].name, name, sizeof(ksyms->name) - 1);
		ksyms[nksyms++].name[sizeof(ksyms->name) - 1] = '\0';
	}
	if (f)
		fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), ksym_cmp);
}

/* The function holding pc, "?" when unknown. */
static const char *ksym_name(uint64_t pc)
{
	size_t lo = 0, hi = nksyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ksyms[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? ksyms[lo - 1].name : "?";
}

/* The sampler's own frames: never a sample's kernel leaf. */
static bool is_glue(const char *fn)
{
	static const char *const glue[] = {
		"perf_", "__perf_", "hrtimer", "__hrtimer", "fxt_",
		"stack_trace_", "arch_stack_walk", "sysvec_", "__sysvec_",
		"asm_sysvec_", "irq_exit", "__irq_exit",
	};
	size_t i;

	for (i = 0; i < sizeof(glue) / sizeof(*glue); i++)
		if (!strncmp(fn, glue[i], strlen(glue[i])))
			return true;
	return false;
}

struct seen {
	pid_t burner, blocker, zeroer;
	uint64_t records, samples, burn_a, burn_b, walked, other;
	uint64_t offcpu, offcpu_leaf, offcpu_kernel, offcpu_long;
	uint64_t zero_kernel, zero_deep, zero_named, zero_user;
	uint64_t bad_pc, bad_period;
	uint64_t user_records, user_words; /* words read at the user sp */
	/* the copies' words, those of STACK_MAX, the records' words */
	uint64_t copied_words, full_copies, record_words;
	char glue_leaf[64];
};

static void see_zeroer(struct seen *s, const struct fxt_ksample *r)
{
	const char *leaf;

	if (!r->nk)
		return;
	leaf = ksym_name(r->pcs[0]);
	s->zero_kernel++;
	s->zero_deep += r->nk >= 3;
	s->zero_named += strcmp(leaf, "?") != 0;
	s->zero_user += r->nu > 0 && in(r->pcs[r->nk], __start_kst_kloop,
					__stop_kst_kloop);
	if (is_glue(leaf))
		snprintf(s->glue_leaf, sizeof(s->glue_leaf), "%s", leaf);
}

static void see(struct seen *s, const struct fxt_ksample *r)
{
	uint32_t i;

	s->records++;
	for (i = 0; i < r->nk + r->nu; i++)
		s->bad_pc += (r->pcs[i] >= KERNEL_SPACE) != (i < r->nk);
	s->user_records += r->nu > 0;
	/* A copy ends at the stack's top: more than a leaf's frame below. */
	s->user_words += r->nu > 0 && r->ns >= FXT_KSAMPLE_STACK_LEAF &&
			 r->user_sp && r->user_sp < KERNEL_SPACE;
	s->copied_words += r->ns;
	s->full_copies += r->ns == FXT_KSAMPLE_STACK_MAX;
	s->record_words += fxt_ksample_words(r->nk, r->nu, r->ns);
	if (r->kind == FXT_KSAMPLE_ONCPU) {
		s->samples++;
		s->bad_period += r->weight_ns != 1000000000u / SAMPLE_HZ;
		if (r->tid == (uint64_t)s->zeroer)
			see_zeroer(s, r);
		if (r->tid != (uint64_t)s->burner || r->nk || !r->nu)
			return;
		if (in(r->pcs[0], __start_kst_burn_a, __stop_kst_burn_a))
			s->burn_a++;
		else if (in(r->pcs[0], __start_kst_burn_b, __stop_kst_burn_b))
			s->burn_b++;
		else
			s->other++;
		s->walked += r->nu > 1 && in(r->pcs[1], __start_kst_loop,
					     __stop_kst_loop);
		return;
	}
	if (r->tid != (uint64_t)s->blocker || r->pid != (uint64_t)s->blocker)
		return;
	s->offcpu++;
	s->offcpu_kernel += r->nk > 0;
	s->offcpu_leaf += r->nu > 0 && in(r->pcs[r->nk], __start_kst_block,
					  __stop_kst_block);
	s->offcpu_long += r->weight_ns >= BLOCK_GAP_NS / 5;
}

static int configure(struct kring *k, uint64_t offcpu_min_ns)
{
	struct fxt_sched_config cfg = {
		.buffer_bytes = BUFFER_BYTES,
		.mode = FXT_BUFFERING_ONESHOT,
		.events = FXT_SCHED_EV_SAMPLE | FXT_SCHED_EV_OFFCPU,
		.sample_hz = SAMPLE_HZ,
		.offcpu_min_ns = offcpu_min_ns,
	};

	if (ioctl(k->fd, FXT_SCHED_IOC_CONFIGURE, &cfg) < 0 ||
	    ioctl(k->fd, FXT_SCHED_IOC_INFO, &k->info) < 0)
		return -errno;
	return kring_map(k);
}

static pid_t spawn_burner(uint64_t cpu_ns)
{
	pid_t pid = fork();

	if (pid == 0) {
		burn_loop(cpu_ns);
		_exit(0);
	}
	return pid;
}

static pid_t spawn_zeroer(uint64_t cpu_ns)
{
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	pid_t pid = fd < 0 ? -1 : fork();

	if (pid == 0) {
		zero_loop(fd, cpu_ns);
		_exit(0);
	}
	if (fd >= 0)
		close(fd);
	return pid;
}

static pid_t spawn_blocker(int *wfd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		block_loop(p[0], BLOCKS);
		_exit(0);
	}
	close(p[0]);
	*wfd = p[1];
	return pid;
}

static void feed(int fd)
{
	const struct timespec gap = { 0, BLOCK_GAP_NS };
	int i;

	for (i = 0; i < BLOCKS; i++) {
		nanosleep(&gap, NULL);
		if (write(fd, "x", 1) != 1)
			break;
	}
	close(fd);
}

static int reap(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status) ? 0 : -1;
}

/* Every record of every CPU, each a raw stack record. */
static int read_all(struct kring *k, struct seen *s)
{
	static uint64_t buf[BUFFER_BYTES / 8];
	struct fxt_ksample r = { 0 };
	unsigned int cpu;
	size_t got, at;

	for (cpu = 0; cpu < k->info.ncpus; cpu++) {
		while ((got = kring_read(k, cpu, buf, sizeof(buf), true)) > 0) {
			for (at = 0; at < got / 8;) {
				uint64_t words = fxt_record_words(buf[at]);

				CHECK(words && fxt_ksample_parse((const __u64 *)&buf[at], words,
								 &r),
				      "cpu %u: not a stack record: %016" PRIx64
				      " %016" PRIx64, cpu, buf[at],
				      buf[at + 1]);
				CHECK(r.cpu < k->info.ncpus, "cpu %u", r.cpu);
				see(s, &r);
				at += words;
			}
		}
		CHECK(!kring_ctrl(k, cpu)->dropped, "cpu %u dropped %" PRIu64,
		      cpu, (uint64_t)kring_ctrl(k, cpu)->dropped);
	}
	CHECK(!k->corrupt, "corrupt ring reads");
	return 0;
}

/* One trace around the workloads; burn_ns 0: the blocker alone. */
static int run(uint64_t offcpu_min_ns, uint64_t burn_ns, struct seen *s)
{
	struct kring k = { .fd = -1 };
	int wfd = -1;

	k.fd = open(FXT_SCHED_DEVICE, O_RDWR | O_CLOEXEC);
	CHECK(k.fd >= 0, "open: %s", strerror(errno));
	CHECK_OK(configure(&k, offcpu_min_ns));
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_START));
	s->burner = burn_ns ? spawn_burner(burn_ns) : 0;
	s->blocker = spawn_blocker(&wfd);
	CHECK(s->burner >= 0 && s->blocker > 0, "fork: %s", strerror(errno));
	feed(wfd);
	CHECK(!reap(s->blocker), "blocker failed");
	CHECK(!s->burner || !reap(s->burner), "burner failed");
	/*
	 * Alone: under qemu's TCG one thread runs both vCPUs in turns, and
	 * two busy vCPUs skew where samples land.
	 */
	s->zeroer = burn_ns ? spawn_zeroer(burn_ns / 3) : 0;
	CHECK(s->zeroer >= 0, "fork: %s", strerror(errno));
	CHECK(!s->zeroer || !reap(s->zeroer), "zeroer failed");
	CHECK_OK(kring_ioctl(&k, FXT_SCHED_IOC_STOP));
	CHECK(!read_all(&k, s), "records");
	kring_close(&k);
	return 0;
}

static int test(void)
{
	struct seen s = { 0 }, quiet = { 0 };
	uint64_t burned;

	CHECK(!run(0, BURN_CPU_NS, &s), "run");
	burned = s.burn_a + s.burn_b;
	printf("  %" PRIu64 " records, %" PRIu64 " samples; burner: %" PRIu64
	       " in burn_a, %" PRIu64 " in burn_b, %" PRIu64
	       " elsewhere, %" PRIu64 " with the caller; blocker: %" PRIu64
	       " off-CPU, %" PRIu64 " with kernel PCs, %" PRIu64
	       " with the leaf, %" PRIu64 " long\n",
	       s.records, s.samples, s.burn_a, s.burn_b, s.other, s.walked,
	       s.offcpu, s.offcpu_kernel, s.offcpu_leaf, s.offcpu_long);
	printf("  reader of /dev/zero: %" PRIu64 " samples in the kernel, %"
	       PRIu64 " with 3 kernel PCs or more, %" PRIu64 " named, %" PRIu64
	       " with its user leaf\n",
	       s.zero_kernel, s.zero_deep, s.zero_named, s.zero_user);
	printf("  user stack copies: %" PRIu64 " words a stack on average, %"
	       PRIu64 " of %" PRIu64 " whole (%u words); %" PRIu64
	       " bytes a record on average\n",
	       s.user_records ? s.copied_words / s.user_records : 0,
	       s.full_copies, s.user_records, FXT_KSAMPLE_STACK_MAX,
	       s.records ? s.record_words * 8 / s.records : 0);
	CHECK(!s.bad_pc, "%" PRIu64 " PCs on the wrong side", s.bad_pc);
	/*
	 * A nofault read cannot bring in a page that is not present (a
	 * stack page not touched yet, or reclaimed): rarely, a stack
	 * comes without its words.
	 */
	CHECK(s.user_records && s.user_words * 100 >= s.user_records * 99,
	      "%" PRIu64 " of %" PRIu64 " user stacks without the words at sp",
	      s.user_records - s.user_words, s.user_records);
	CHECK(s.zero_kernel >= 20, "too few kernel samples");
	CHECK(s.zero_deep * 10 >= s.zero_kernel * 9 &&
	      s.zero_named == s.zero_kernel,
	      "kernel stacks not unwound from the interrupted PC");
	CHECK(!s.glue_leaf[0], "a kernel leaf in the sampler: %s", s.glue_leaf);
	/* Not all: some are in its fork and its exit. */
	CHECK(s.zero_user * 2 >= s.zero_kernel,
	      "no user stack under the kernel one");
	CHECK(!s.bad_period, "%" PRIu64 " samples of another period",
	      s.bad_period);
	CHECK(burned >= 100, "too few burner samples");
	CHECK(s.burn_a * 100 >= burned * 55 && s.burn_a * 100 <= burned * 85,
	      "burn_a's share is not about 70%%");
	CHECK(s.walked * 10 >= burned * 9, "user stacks stop at the leaf");
	CHECK(s.offcpu_leaf >= BLOCKS && s.offcpu_kernel == s.offcpu &&
	      s.offcpu_long >= 1,
	      "off-CPU records of the blocker");

	CHECK(!run(60000000000ull, 0, &quiet), "run with offcpu_min");
	CHECK(!quiet.offcpu, "%" PRIu64 " blocks under offcpu_min written",
	      quiet.offcpu);
	return 0;
}

int main(void)
{
	int failed;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksyms_load();
	failed = test();
	printf("%s %s\n", failed ? "FAIL" : "PASS", TEST_NAME);
	return failed;
}
