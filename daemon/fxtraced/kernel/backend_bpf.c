// SPDX-License-Identifier: GPL-2.0-only
/*
 * The BPF kernel backend: loads fxt_sched.bpf.c through its generated
 * skeleton, then the stack walkers into the same rings (bpf_stacks.h),
 * and reads the per-CPU mmapped rings (include/fxt/ring.h).
 *
 * The reader is woken by a timer, never by the program: a wakeup per
 * record would itself cause scheduling records, which wake the reader
 * again. The timer's period follows the load (drain_period.h): a CPU
 * busy with scheduling fills the default 2 MiB ring in under 100 ms.
 * It starts at the shortest and grows while the rings stay empty.
 */
#define _GNU_SOURCE /* secure_getenv */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/membarrier.h>
#include <linux/types.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/random.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ring.h>
#include <fxt/sched.h>

#include "fxt_sched_bpf.skel.h"
#include "bpf_stacks.h"
#include "drain_period.h"
#include "kernel_backend.h"

#define BPF_RING_DEFAULT_BYTES (2u << 20)
#define BPF_RING_MIN_BYTES 4096u
#define BPF_RING_MAX_BYTES (1u << 30)
#define BPF_PROGS_MAX ((KERNEL_KEPT_FDS_MAX - 2) / 2)
/* Set (to anything) for a test: the kernel then refuses the walkers. */
#define BPF_REFUSE_STACKS_ENV "FXTRACED_TEST_REFUSE_STACKS"
/* Set for a benchmark: user stacks by frame pointers alone, no tables. */
#define BPF_NO_UNWIND_TABLES_ENV "FXTRACED_NO_UNWIND_TABLES"
/* ... and for its baseline: no Python frames (native frames as before). */
#define BPF_NO_PYTHON_FRAMES_ENV "FXTRACED_NO_PYTHON_FRAMES"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/*
 * Loaded here (skel: the descriptors are its) or taken back from a
 * manager that died (no skel: they are ours to close).
 */
struct bpf_backend {
	struct fxt_sched_bpf *skel;
	/* kernel:sample and kernel:offcpu, when loaded here */
	struct bpf_stacks *stacks;
	uint32_t refused;	/* FXT_SCHED_EV_* whose walkers were refused */
	int ring_fd;
	int prog_fds[BPF_PROGS_MAX];
	int link_fds[BPF_PROGS_MAX];
	unsigned int nprogs, nlinks;
	unsigned int ncpus;
	size_t ring_bytes;	/* data bytes per CPU, a power of two */
	size_t elem_bytes;	/* control and consumer pages + data */
	void *map;		/* the mmapped array */
	size_t map_len;
	/* The programs' globals: the skeleton's, or mapped when adopted. */
	struct fxt_sched_bpf__bss *bss;
	size_t bss_len;		/* when mapped here */
	int globals_fd;		/* the .bss map, when adopted */
	int timer_fd;
	long poll_ns;		/* the timer's period; 0: disarmed */
	enum fxt_buffering_mode mode;
	bool running;
	uint32_t missing;	/* FXT_SCHED_EV_* without their tracepoints */
	uint64_t corrupt;	/* reads that skipped a record of bad size */
};

static bool has_cap(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

static bool may_load_bpf(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	if (has_cap(data, CAP_SYS_ADMIN))
		return true;
	return has_cap(data, CAP_BPF) && has_cap(data, CAP_PERFMON);
}

static int bpf_probe(char *why, size_t why_len)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, why_len,
			 "BPF needs kernel BTF (/sys/kernel/btf/vmlinux: %s; build the kernel with CONFIG_DEBUG_INFO_BTF=y)",
			 strerror(errno));
		return -ENOENT;
	}
	if (!may_load_bpf()) {
		snprintf(why, why_len,
			 "BPF needs root or CAP_BPF+CAP_PERFMON");
		return -EPERM;
	}
	return 0;
}

static char *ring_elem(struct bpf_backend *b, unsigned int cpu)
{
	return (char *)b->map + (size_t)cpu * b->elem_bytes;
}

static struct fxt_ring_consumer *ring_consumer(struct bpf_backend *b,
					       unsigned int cpu)
{
	return (void *)(ring_elem(b, cpu) + FXT_RING_BPF_CONSUMER_OFFSET);
}

/* Whether the programs write (they return at once when closed). */
static void set_closed(struct bpf_backend *b, bool closed)
{
	unsigned int cpu;

	for (cpu = 0; cpu < b->ncpus; cpu++)
		__atomic_store_n(&ring_consumer(b, cpu)->closed, closed,
				 __ATOMIC_RELEASE);
}

static int map_rings(struct bpf_backend *b)
{
	long page = sysconf(_SC_PAGESIZE);

	b->map_len = (b->elem_bytes * b->ncpus + page - 1) & ~(size_t)(page - 1);
	b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      b->ring_fd, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return -errno;
	}
	return 0;
}

/* Whether the running kernel has tracepoint name (its BTF typedef). */
static bool has_tracepoint(const struct btf *vmlinux, const char *name)
{
	char type[128];

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	return !vmlinux ||
	       btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF) > 0;
}

/*
 * Optional events: a kernel without one of their tracepoints runs the
 * others, and says which in b->missing.
 */
static const struct {
	uint32_t event;
	const char *tracepoint;
} optional_tracepoints[] = {
	{ FXT_SCHED_EV_IRQ, "irq_handler_entry" },
	{ FXT_SCHED_EV_IRQ, "irq_handler_exit" },
	{ FXT_SCHED_EV_IRQ, "softirq_entry" },
	{ FXT_SCHED_EV_IRQ, "softirq_exit" },
	{ FXT_SCHED_EV_SYSCALL, "sys_enter" },
	{ FXT_SCHED_EV_SYSCALL, "sys_exit" },
	{ FXT_SCHED_EV_POWER, "cpu_idle" },
	{ FXT_SCHED_EV_POWER, "cpu_frequency" },
	{ FXT_SCHED_EV_BLOCK, "block_rq_issue" },
	{ FXT_SCHED_EV_BLOCK, "block_rq_complete" },
	{ FXT_SCHED_EV_FAULT, "page_fault_user" },	/* x86 only */
	{ FXT_SCHED_EV_MEM, "rss_stat" },
	{ FXT_SCHED_EV_MEM, "mm_vmscan_direct_reclaim_begin" },
	{ FXT_SCHED_EV_MEM, "mm_vmscan_direct_reclaim_end" },
};

static uint32_t missing_events(uint32_t events)
{
	const size_t n = sizeof(optional_tracepoints) /
			 sizeof(*optional_tracepoints);
	uint32_t missing = 0, optional = 0;
	struct btf *vmlinux;
	size_t i;

	for (i = 0; i < n; i++)
		optional |= optional_tracepoints[i].event;
	if (!(events & optional))
		return 0;	/* skip parsing the kernel's BTF */
	vmlinux = btf__load_vmlinux_btf();
	if (libbpf_get_error(vmlinux))
		vmlinux = NULL;
	for (i = 0; i < n; i++)
		if ((events & optional_tracepoints[i].event) &&
		    !has_tracepoint(vmlinux, optional_tracepoints[i].tracepoint))
			missing |= optional_tracepoints[i].event;
	btf__free(vmlinux);
	return missing;
}

/*
 * Whether tracepoint name's argument arg (0: the first after the probe's
 * data pointer) is a pointer, as its BTF typedef declares it.
 */
static bool tracepoint_arg_is_pointer(const struct btf *vmlinux,
				      const char *name, unsigned int arg)
{
	const struct btf_type *t;
	char type[128];
	int id;

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	id = btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return false;
	t = btf__type_by_id(vmlinux, btf__resolve_type(vmlinux, id));
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(vmlinux, t->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < arg + 2)
		return false;
	t = btf__type_by_id(vmlinux,
			    btf__resolve_type(vmlinux, btf_params(t)[arg + 1].type));
	return t && btf_is_ptr(t);
}

/* The parts of kernel:mem a kernel may lack, present here. */
struct mem_parts {
	bool memcg, compaction, oom;
};

/*
 * kernel:mem: the parts of it this kernel has beyond RSS and direct
 * reclaim (memory cgroups, compaction and the OOM victim's task are
 * build options or came later) run where present, in page-size units.
 */
static struct mem_parts select_mem(struct fxt_sched_bpf *skel, bool mem)
{
	struct btf *vmlinux = mem ? btf__load_vmlinux_btf() : NULL;
	bool btf = mem && !libbpf_get_error(vmlinux);
	bool memcg = btf && has_tracepoint(vmlinux, "mm_vmscan_memcg_reclaim_begin") &&
		     has_tracepoint(vmlinux, "mm_vmscan_memcg_reclaim_end");
	bool compaction = btf && has_tracepoint(vmlinux, "mm_compaction_begin") &&
			  has_tracepoint(vmlinux, "mm_compaction_end");
	bool oom = btf && tracepoint_arg_is_pointer(vmlinux, "mark_victim", 0);

	skel->rodata->page_shift =
		(__u32)__builtin_ctzl((unsigned long)sysconf(_SC_PAGESIZE));
	/* LRU maps are allocated whole: none to speak of when unused. */
	if (!mem) {
		(void)bpf_map__set_max_entries(skel->maps.fxt_rss, 1);
		(void)bpf_map__set_max_entries(skel->maps.fxt_stalls, 1);
	}
	if (btf)
		btf__free(vmlinux);
	return (struct mem_parts){ memcg, compaction, oom };
}

/* Each program, and whether the events selected (and this kernel) load it. */
struct program_choice {
	struct bpf_program *prog;
	bool load;
};

/* Loads only the programs of the selected FXT_SCHED_EV_* events. */
static void select_programs(struct fxt_sched_bpf *skel, uint32_t events,
			    const uint32_t *syscall_pids)
{
	typeof(skel->progs) *p = &skel->progs;
	bool mem = events & FXT_SCHED_EV_MEM;
	struct mem_parts has = select_mem(skel, mem);
	uint32_t names_or_proc = FXT_SCHED_EV_NAMES | FXT_SCHED_EV_PROC;
	const struct program_choice choices[] = {
		{ p->fxt_sched_switch, events & FXT_SCHED_EV_SWITCH },
		{ p->fxt_sched_waking, events & FXT_SCHED_EV_WAKEUP },
		{ p->fxt_sched_wakeup_new, events & FXT_SCHED_EV_WAKEUP },
		{ p->fxt_sched_fork, events & names_or_proc },
		{ p->fxt_sched_exec, events & names_or_proc },
		{ p->fxt_task_rename, events & FXT_SCHED_EV_NAMES },
		{ p->fxt_sched_exit, events & FXT_SCHED_EV_PROC },
		{ p->fxt_irq_entry, events & FXT_SCHED_EV_IRQ },
		{ p->fxt_irq_exit, events & FXT_SCHED_EV_IRQ },
		{ p->fxt_softirq_entry, events & FXT_SCHED_EV_IRQ },
		{ p->fxt_softirq_exit, events & FXT_SCHED_EV_IRQ },
		{ p->fxt_sys_enter, events & FXT_SCHED_EV_SYSCALL },
		{ p->fxt_sys_exit, events & FXT_SCHED_EV_SYSCALL },
		/* kernel:power, kernel:block, kernel:fault */
		{ p->fxt_cpu_idle, events & FXT_SCHED_EV_POWER },
		{ p->fxt_cpu_frequency, events & FXT_SCHED_EV_POWER },
		{ p->fxt_block_rq_issue, events & FXT_SCHED_EV_BLOCK },
		{ p->fxt_block_rq_complete, events & FXT_SCHED_EV_BLOCK },
		{ p->fxt_page_fault_user, events & FXT_SCHED_EV_FAULT },
		{ p->fxt_rss_stat, mem },
		{ p->fxt_rss_exit, mem },
		{ p->fxt_direct_reclaim_begin, mem },
		{ p->fxt_direct_reclaim_end, mem },
		{ p->fxt_memcg_reclaim_begin, has.memcg },
		{ p->fxt_memcg_reclaim_end, has.memcg },
		{ p->fxt_compaction_begin, has.compaction },
		{ p->fxt_compaction_end, has.compaction },
		{ p->fxt_mark_victim, has.oom },
	};
	size_t i;

	skel->rodata->events = events;
	memcpy((void *)skel->rodata->syscall_pids, syscall_pids,
	       sizeof(skel->rodata->syscall_pids));
	for (i = 0; i < sizeof(choices) / sizeof(*choices); i++)
		bpf_program__set_autoload(choices[i].prog, choices[i].load);
	/* kernel:block's ids are keyed hashes, under a fresh key. */
	if (events & FXT_SCHED_EV_BLOCK)
		(void)!getrandom((void *)skel->rodata->block_key,
				 sizeof(skel->rodata->block_key), 0);
}

static int load_skeleton(struct bpf_backend *b,
			 const struct kernel_session_config *cfg)
{
	struct fxt_sched_bpf *skel = b->skel;
	int err;

	skel->rodata->ring_bytes = b->ring_bytes;
	skel->rodata->ring_mode = b->mode;
	b->missing = missing_events(cfg->events);
	select_programs(skel, cfg->events & ~b->missing, cfg->syscall_pids);
	err = bpf_map__set_value_size(skel->maps.fxt_ring,
				      (__u32)b->elem_bytes);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.fxt_ring, b->ncpus);
	if (!err)
		err = fxt_sched_bpf__load(skel);
	if (!err)
		b->ring_fd = bpf_map__fd(skel->maps.fxt_ring);
	return err;
}

/*
 * The walkers into the rings just loaded: a refusal (the verifier's log
 * on stderr) costs their events alone, said in b->refused.
 */
static void load_stacks(struct bpf_backend *b,
			const struct kernel_session_config *cfg)
{
	const struct bpf_stacks_config sc = {
		.events = cfg->events & FXT_SCHED_EV_STACKS,
		.ring_bytes = b->ring_bytes,
		.ring_mode = b->mode,
		.offcpu_min_ns = cfg->offcpu_min_ns,
		.sample_hz = cfg->sample_hz,
		.ring_fd = b->ring_fd,
		.nested_fd = bpf_map__fd(b->skel->maps.fxt_nested),
		.refuse_for_test = secure_getenv(BPF_REFUSE_STACKS_ENV) != NULL,
		.no_unwind_tables =
			secure_getenv(BPF_NO_UNWIND_TABLES_ENV) != NULL,
		.unwind_cache = cfg->unwind_cache,
		.py_procs = cfg->py_procs,
		.no_python_frames =
			secure_getenv(BPF_NO_PYTHON_FRAMES_ENV) != NULL,
	};
	int err;

	if (!sc.events)
		return;
	err = bpf_stacks_load(&sc, &b->stacks);
	if (!err)
		return;
	fprintf(stderr, "kernel capture (bpf): the stack walkers were refused (%s): no kernel:sample, kernel:offcpu; libbpf's messages above say why\n",
		strerror(-err));
	b->refused = sc.events;
}

/* The skeletons' loaded programs and, once attached, their links. */
static void note_skeleton_fds(struct bpf_backend *b)
{
	const struct bpf_object_skeleton *s = b->skel->skeleton;
	int i, fd;

	b->nprogs = b->nlinks = 0;
	for (i = 0; i < s->prog_cnt && b->nprogs < BPF_PROGS_MAX; i++) {
		fd = bpf_program__fd(*s->progs[i].prog);
		if (fd >= 0)
			b->prog_fds[b->nprogs++] = fd;
		if (*s->progs[i].link) {
			fd = bpf_link__fd(*s->progs[i].link);
			if (fd >= 0)
				b->link_fds[b->nlinks++] = fd;
		}
	}
	b->nprogs += bpf_stacks_prog_fds(b->stacks, b->prog_fds + b->nprogs,
					 BPF_PROGS_MAX - b->nprogs);
	b->nlinks += bpf_stacks_link_fds(b->stacks, b->link_fds + b->nlinks,
					 BPF_PROGS_MAX - b->nlinks);
}

static void close_fds(int *fds, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static int make_timer(struct bpf_backend *b)
{
	b->timer_fd = timerfd_create(CLOCK_MONOTONIC,
				     TFD_NONBLOCK | TFD_CLOEXEC);
	return b->timer_fd < 0 ? -errno : 0;
}

static void bpf_close(void *state)
{
	struct bpf_backend *b = state;

	if (!b)
		return;
	if (b->map)
		munmap(b->map, b->map_len);
	if (b->bss_len)
		munmap(b->bss, b->bss_len);
	if (b->skel) {
		bpf_stacks_free(b->stacks);
		fxt_sched_bpf__destroy(b->skel);
	} else {
		close_fds(b->link_fds, b->nlinks);
		close_fds(b->prog_fds, b->nprogs);
		if (b->ring_fd >= 0)
			close(b->ring_fd);
		if (b->globals_fd >= 0)
			close(b->globals_fd);
	}
	if (b->timer_fd >= 0)
		close(b->timer_fd);
	free(b);
}

/* A backend of one ring per possible CPU, nothing loaded or mapped yet. */
static int backend_new(const struct kernel_session_config *cfg,
		       struct bpf_backend **out)
{
	struct bpf_backend *b;
	int n = libbpf_num_possible_cpus();

	if (n <= 0)
		return n ? n : -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->timer_fd = b->ring_fd = b->globals_fd = -1;
	b->mode = cfg->mode;
	b->ncpus = n;
	*out = b;
	return 0;
}

static int bpf_open(const struct kernel_session_config *cfg, void **state)
{
	struct bpf_backend *b;
	int err = backend_new(cfg, &b);

	if (err)
		return err;
	b->ring_bytes = fxt_ring_data_bytes(cfg->buffer_bytes_per_cpu,
					    BPF_RING_MIN_BYTES,
					    BPF_RING_MAX_BYTES,
					    BPF_RING_DEFAULT_BYTES);
	b->elem_bytes = FXT_RING_BPF_DATA_OFFSET + b->ring_bytes;
	b->skel = fxt_sched_bpf__open();
	if (!b->skel) {
		err = -errno;
		goto fail;
	}
	err = load_skeleton(b, cfg);
	if (err)
		goto fail;
	load_stacks(b, cfg);
	note_skeleton_fds(b);
	b->bss = b->skel->bss;
	err = map_rings(b);
	if (!err)
		err = make_timer(b);
	if (err)
		goto fail;
	*state = b;
	return 0;
fail:
	bpf_close(b);
	return err < 0 ? err : -EINVAL;
}

static int arm_timer(struct bpf_backend *b, long interval_ns)
{
	struct itimerspec its = {
		.it_interval = { .tv_nsec = interval_ns },
		.it_value = { .tv_nsec = interval_ns },
	};

	if (timerfd_settime(b->timer_fd, 0, &its, NULL))
		return -errno;
	b->poll_ns = interval_ns;
	return 0;
}

/* At each drain while capture runs: the period, from the fullest ring. */
static void adapt_timer(struct bpf_backend *b)
{
	uint64_t fullest = 0, next;
	unsigned int cpu;

	for (cpu = 0; cpu < b->ncpus; cpu++) {
		const struct fxt_ring_ctrl *ctrl = (const void *)ring_elem(b, cpu);
		uint64_t used = __atomic_load_n(&ctrl->head, __ATOMIC_RELAXED) -
				__atomic_load_n(&ring_consumer(b, cpu)->tail,
						__ATOMIC_RELAXED);

		if (used > fullest)
			fullest = used;
	}
	next = drain_period_next((uint64_t)b->poll_ns, fullest, b->ring_bytes);
	if ((long)next != b->poll_ns)
		(void)arm_timer(b, (long)next);
}

static int bpf_start(void *state)
{
	struct bpf_backend *b = state;
	int err = fxt_sched_bpf__attach(b->skel);

	if (!err && b->stacks)
		err = bpf_stacks_attach(b->stacks, b->ncpus);
	if (err)
		return err;
	note_skeleton_fds(b);
	b->running = true;
	/* Circular rings are read only after stop: no reason to wake. */
	if (b->mode == FXT_BUFFERING_CIRCULAR)
		return 0;
	return arm_timer(b, DRAIN_PERIOD_MIN_NS);
}

/*
 * Detaching does not wait for programs running on other CPUs; an RCU
 * grace period does (membarrier GLOBAL is synchronize_rcu()): after it
 * the rings and counters no longer move.
 */
static int bpf_stop(void *state)
{
	struct bpf_backend *b = state;

	set_closed(b, true);
	if (b->skel) {
		bpf_stacks_detach(b->stacks);
		fxt_sched_bpf__detach(b->skel);
	} else {
		close_fds(b->link_fds, b->nlinks);
	}
	b->nlinks = 0;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(100000);	/* no membarrier: a grace period is shorter */
	b->running = false;
	return arm_timer(b, 0);
}

static int bpf_event_fd(void *state)
{
	return ((struct bpf_backend *)state)->timer_fd;
}

static unsigned int bpf_ncpus(void *state)
{
	return ((struct bpf_backend *)state)->ncpus;
}

static void ack_timer(struct bpf_backend *b)
{
	uint64_t expirations;

	(void)!read(b->timer_fd, &expirations, sizeof(expirations));
}

static int bpf_ring(void *state, unsigned int cpu, struct fxt_ring_reader *r)
{
	struct bpf_backend *b = state;
	char *elem;

	if (cpu >= b->ncpus)
		return -EINVAL;
	elem = ring_elem(b, cpu);
	*r = (struct fxt_ring_reader){
		.ctrl = (const void *)elem,
		.consumer = ring_consumer(b, cpu),
		.data = elem + FXT_RING_BPF_DATA_OFFSET,
		.mask = b->ring_bytes - 1,
	};
	return 0;
}

static ssize_t bpf_read_cpu(void *state, unsigned int cpu, void *buf,
			    size_t cap)
{
	struct bpf_backend *b = state;

	if (cpu == 0) {
		ack_timer(b);	/* the merge reads every CPU once per drain */
		if (b->running && b->poll_ns)
			adapt_timer(b);
	}
	if (cpu >= b->ncpus)
		return -EINVAL;
	if (b->running && b->mode == FXT_BUFFERING_CIRCULAR)
		return 0;
	return kernel_backend_read_ring(b, cpu, buf, cap, bpf_ring,
					&b->corrupt);
}

/* The programs read the threshold from .bss at each switch and wakeup. */
static int bpf_arm_latency(void *state, uint64_t threshold_ns)
{
	struct bpf_backend *b = state;

	if (!b->bss)
		return -EOPNOTSUPP;
	/* Left from an earlier arming: not this one's wakeups. */
	if (threshold_ns && !b->bss->latency_ns)
		memset((void *)b->bss->wake_slots, 0,
		       sizeof(b->bss->wake_slots));
	__atomic_store_n(&b->bss->latency_ns, threshold_ns, __ATOMIC_RELAXED);
	return 0;
}

/* Events the kernel skipped because one of our programs was running. */
static uint64_t recursion_misses(struct bpf_backend *b)
{
	uint64_t misses = 0;
	unsigned int i;

	for (i = 0; i < b->nprogs; i++) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);

		if (!bpf_obj_get_info_by_fd(b->prog_fds[i], &info, &len))
			misses += info.recursion_misses;
	}
	return misses;
}

static void bpf_stats(void *state, struct kernel_session_stats *st)
{
	struct bpf_backend *b = state;
	unsigned int cpu;

	memset(st, 0, sizeof(*st));
	for (cpu = 0; cpu < b->ncpus; cpu++) {
		const struct fxt_ring_ctrl *c = (const void *)ring_elem(b, cpu);

		st->records += __atomic_load_n(&c->records, __ATOMIC_RELAXED);
		st->bytes += __atomic_load_n(&c->head, __ATOMIC_RELAXED);
		st->dropped += __atomic_load_n(&c->dropped, __ATOMIC_RELAXED) +
			       __atomic_load_n(&c->overwritten, __ATOMIC_RELAXED);
	}
	st->dropped += recursion_misses(b) + b->corrupt;
	st->ncpus = b->ncpus;
	st->missing = b->missing;
	st->refused = b->refused;
	for (cpu = 0; cpu < b->ncpus; cpu++) {
		const struct fxt_ring_ctrl *c = (const void *)ring_elem(b, cpu);

		kernel_session_add_event_counts(st, c);
	}
	bpf_stacks_unwind_stats(b->stacks, &st->unwind);
}

static size_t bpf_keep_fds(void *state, struct kernel_kept_fd *out,
			   size_t max)
{
	struct bpf_backend *b = state;
	size_t n = 0;
	unsigned int i;

	int globals = b->skel ? bpf_map__fd(b->skel->maps.bss) : b->globals_fd;

	if (max < 2 + b->nlinks + b->nprogs)
		return 0;	/* all or nothing: a part would not resume */
	out[n++] = (struct kernel_kept_fd){ b->ring_fd, KERNEL_KEPT_BPF_RING };
	if (globals >= 0)
		out[n++] = (struct kernel_kept_fd){ globals,
						    KERNEL_KEPT_BPF_GLOBALS };
	for (i = 0; i < b->nlinks; i++)
		out[n++] = (struct kernel_kept_fd){ b->link_fds[i],
						    KERNEL_KEPT_BPF_LINK };
	for (i = 0; i < b->nprogs; i++)
		out[n++] = (struct kernel_kept_fd){ b->prog_fds[i],
						    KERNEL_KEPT_BPF_PROG };
	return n;
}

/*
 * The ring map of a session: our program's array, mmappable, one element
 * of control and consumer pages and a power of two of data per CPU.
 */
static int check_ring_map(struct bpf_backend *b, int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	__u64 data;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	data = info.value_size > FXT_RING_BPF_DATA_OFFSET ?
		       info.value_size - FXT_RING_BPF_DATA_OFFSET : 0;
	if (info.type != BPF_MAP_TYPE_ARRAY ||
	    !(info.map_flags & BPF_F_MMAPABLE) ||
	    strcmp(info.name, "fxt_ring") || info.key_size != sizeof(__u32) ||
	    info.max_entries != b->ncpus || data < BPF_RING_MIN_BYTES ||
	    data > BPF_RING_MAX_BYTES || (data & (data - 1)))
		return -EBADMSG;
	b->ring_bytes = data;
	b->elem_bytes = info.value_size;
	return 0;
}

/* A program and link of ours are of these types (tp_btf, perf_event). */
static int check_kept(const struct kernel_kept_fd *k)
{
	struct bpf_prog_info prog = {};
	struct bpf_link_info link = {};
	__u32 len;

	if (!strcmp(k->role, KERNEL_KEPT_BPF_PROG)) {
		len = sizeof(prog);
		if (bpf_obj_get_info_by_fd(k->fd, &prog, &len))
			return -errno;
		return prog.type == BPF_PROG_TYPE_TRACING ||
				       prog.type == BPF_PROG_TYPE_PERF_EVENT ?
			       0 :
			       -EBADMSG;
	}
	len = sizeof(link);
	if (bpf_obj_get_info_by_fd(k->fd, &link, &len))
		return -errno;
	return link.type == BPF_LINK_TYPE_RAW_TRACEPOINT ||
			       link.type == BPF_LINK_TYPE_TRACING ||
			       link.type == BPF_LINK_TYPE_PERF_EVENT ?
		       0 :
		       -EBADMSG;
}

/* Sorts what was kept into b; the ring first checked. */
static int take_kept(struct bpf_backend *b,
		     const struct kernel_session_config *cfg)
{
	const struct kernel_kept_fd *k;
	int ring = -1, err;
	size_t i;

	for (i = 0; i < cfg->nadopt; i++) {
		k = &cfg->adopt_fds[i];
		if (!strcmp(k->role, KERNEL_KEPT_BPF_RING)) {
			if (ring >= 0)
				return -EBADMSG;
			ring = k->fd;
			continue;
		}
		if (!strcmp(k->role, KERNEL_KEPT_BPF_GLOBALS)) {
			if (b->globals_fd >= 0)
				return -EBADMSG;
			b->globals_fd = k->fd;
			continue;
		}
		if (strcmp(k->role, KERNEL_KEPT_BPF_LINK) &&
		    strcmp(k->role, KERNEL_KEPT_BPF_PROG))
			return -EBADMSG;
		err = check_kept(k);
		if (err)
			return err;
		if (!strcmp(k->role, KERNEL_KEPT_BPF_LINK) &&
		    b->nlinks < BPF_PROGS_MAX)
			b->link_fds[b->nlinks++] = k->fd;
		else if (b->nprogs < BPF_PROGS_MAX)
			b->prog_fds[b->nprogs++] = k->fd;
		else
			return -E2BIG;
	}
	if (ring < 0 || !b->nlinks)
		return -EBADMSG;
	b->ring_fd = ring;
	return check_ring_map(b, ring);
}

/*
 * The globals of a capture a dead manager left attached (the .bss map
 * kept beside its ring): mapped again, so the latency threshold the
 * programs read can be set; a capture kept without it still resumes.
 */
static void map_kept_globals(struct bpf_backend *b)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	void *p;

	if (b->globals_fd < 0 ||
	    bpf_obj_get_info_by_fd(b->globals_fd, &info, &len) ||
	    info.value_size != sizeof(*b->bss) ||
	    !(info.map_flags & BPF_F_MMAPABLE))
		return;
	p = mmap(NULL, info.value_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 b->globals_fd, 0);
	if (p == MAP_FAILED)
		return;
	b->bss = p;
	b->bss_len = info.value_size;
}

/*
 * A capture a dead manager left attached: its programs still write into
 * the ring map, which holds what they wrote since (the names it read
 * from /proc died with it: the session reads them again).
 */
static int bpf_adopt(const struct kernel_session_config *cfg, void **state)
{
	struct bpf_backend *b;
	int err = backend_new(cfg, &b);

	if (err)
		return err;
	err = take_kept(b, cfg);
	if (!err)
		err = map_rings(b);
	if (!err)
		map_kept_globals(b);
	if (!err)
		err = make_timer(b);
	if (!err && b->mode != FXT_BUFFERING_CIRCULAR)
		err = arm_timer(b, DRAIN_PERIOD_MIN_NS);
	if (err) {
		/* The caller's still. */
		b->ring_fd = b->globals_fd = -1;
		b->nlinks = b->nprogs = 0;
		bpf_close(b);
		return err;
	}
	/* A manager that died stopping had closed the rings. */
	set_closed(b, false);
	b->missing = missing_events(cfg->events);
	b->running = true;
	*state = b;
	return 0;
}

const struct kernel_backend_ops kernel_backend_bpf = {
	.name = "bpf",
	.probe = bpf_probe,
	.open = bpf_open,
	.adopt = bpf_adopt,
	.keep_fds = bpf_keep_fds,
	.start = bpf_start,
	.stop = bpf_stop,
	.event_fd = bpf_event_fd,
	.ncpus = bpf_ncpus,
	.read_cpu = bpf_read_cpu,
	.ring = bpf_ring,
	.arm_latency = bpf_arm_latency,
	.stats = bpf_stats,
	.close = bpf_close,
};
