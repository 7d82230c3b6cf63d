// SPDX-License-Identifier: GPL-2.0-only
/*
 * One kernel capture session over a backend (kmod or bpf): choosing the
 * backend, naming the tasks that predate the trace, and writing the
 * "kernel" section body: initialization, the sched string table, names,
 * then every CPU's records merged in timestamp order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>
#include <fxt/kdev.h>
#include <fxt/kirq.h>
#include <fxt/ksyscall.h>
#include <fxt/sched.h>

#include "fxt_writer.h"
#include "kernel_backend.h"
#include "kernel_categories.h"
#include "kernel_clock.h"
#include "kernel_config.h"
#include "kernel_merge.h"
#include "kernel_names.h"
#include "kernel_rss.h"
#include "kernel_sysmem.h"
#include "kernel_session.h"
#include "syscall_names.h"

#define KERNEL_CHUNK_BYTES (256u << 10)
#define KERNEL_OUT_BYTES (64u << 10)
/* Bytes a drain reads from one CPU at most. */
#define KERNEL_DRAIN_BUDGET (64ull << 20)
#define KERNEL_PUBLISH_SLACK_NS 20000000ull

struct kernel_session {
	const struct kernel_backend_ops *ops;
	void *state;
	struct kernel_session_config cfg;
	struct kernel_merge *merge;
	struct kernel_names names;	/* written at the next drain */
	uint64_t name_records;		/* names written so far */
	uint64_t name_bytes;
	/* kernel:mem: RSS counters at start (kernel_rss.h), then as names */
	struct kernel_names rss;
	uint64_t rss_records;
	/* kernel:mem's system counters: the merge's last stream */
	struct kernel_sysmem sysmem;
	bool mem_selected;	/* and this kernel has it */
	/* kernel:sample, kernel:offcpu: raw records become the archive's */
	struct kernel_stacks_hook stacks;
	void *stacks_sink;	/* the trace's, once started */
	uint64_t profile_lost;	/* raw records with no sink to take them */
	bool started;
	bool preamble_written;
	/* The manager's time namespace's boottime offset (kernel_clock.h) */
	int64_t clock_offset_ns;
};

/* Collects records into whole-record batches for the caller's writer. */
struct kernel_out {
	kernel_write_fn write;
	void *ctx;
	const struct kernel_stacks_hook *stacks;
	void *sink;	/* where raw stack records go: NULL, lost */
	uint64_t *profile_lost;
	size_t len;
	uint64_t buf[KERNEL_OUT_BYTES / FXT_WORD_BYTES];
};

static const struct kernel_backend_ops *backend_kmod(void)
{
	return &kernel_backend_kmod;
}

static const struct kernel_backend_ops *backend_bpf(void)
{
#ifdef FXT_HAVE_BPF_BACKEND
	return &kernel_backend_bpf;
#else
	return NULL;
#endif
}

static int probe(const struct kernel_backend_ops *ops, const char *missing,
		 char *why, size_t why_len)
{
	if (!ops) {
		snprintf(why, why_len, "%s", missing);
		return -ENOTSUP;
	}
	return ops->probe(why, why_len);
}

static int choose_auto(const struct kernel_backend_ops **out, char *why,
		       size_t why_len)
{
	char kmod_why[160], bpf_why[160];
	int err;

	err = probe(backend_kmod(), "this build has no fxt_sched module backend",
		    kmod_why, sizeof(kmod_why));
	if (!err) {
		*out = backend_kmod();
		return 0;
	}
	err = probe(backend_bpf(), "this build has no BPF backend (rebuild with -Dbpf=enabled)",
		    bpf_why, sizeof(bpf_why));
	if (!err) {
		*out = backend_bpf();
		return 0;
	}
	snprintf(why, why_len, "no kernel capture: %s and %s", kmod_why,
		 bpf_why);
	return err;
}

static int choose_backend(enum kernel_backend_choice choice,
			  const struct kernel_backend_ops **out, char *why,
			  size_t why_len)
{
	char reason[192];
	int err;

	switch (choice) {
	case KERNEL_BACKEND_AUTO:
		return choose_auto(out, why, why_len);
	case KERNEL_BACKEND_KMOD:
		*out = backend_kmod();
		err = probe(*out, "this build has no fxt_sched module backend",
			    reason, sizeof(reason));
		break;
	case KERNEL_BACKEND_BPF:
		*out = backend_bpf();
		err = probe(*out, "this build has no BPF backend (rebuild with -Dbpf=enabled)",
			    reason, sizeof(reason));
		break;
	default:
		snprintf(why, why_len, "kernel capture is off");
		return -EINVAL;
	}
	if (err)
		snprintf(why, why_len, "no kernel capture: %s", reason);
	return err;
}

/*
 * A selected category whose tracepoints this kernel lacks, or whose BPF
 * programs its verifier refused, records nothing: say so in why (the
 * start's note), naming them, and trace the others.
 */
static void warn_missing(const struct kernel_session *ks, char *why,
			 size_t why_len)
{
	struct kernel_session_stats st;
	size_t i, used = 0;

	ks->ops->stats(ks->state, &st);
	for (i = 0; i < kernel_ncategories && used < why_len; i++) {
		const struct kernel_category *c = &kernel_categories[i];

		if (c->counted & ks->cfg.events & st.refused)
			used += snprintf(why + used, why_len - used,
					 "%s%s records nothing: this kernel refused its BPF program (the manager's log has the verifier's reason)",
					 used ? "; " : "", c->name);
		else if (c->counted & ks->cfg.events & st.missing)
			used += snprintf(why + used, why_len - used,
					 "%s%s records nothing: this kernel lacks one of its tracepoints (%s)",
					 used ? "; " : "", c->name, c->tracepoints);
	}
}

/*
 * The backend whose name begins every role of what is taken back
 * ("kmod-session": kmod), or NULL: none, or a mix.
 */
static const struct kernel_backend_ops *
adopted_backend(const struct kernel_session_config *cfg)
{
	const struct kernel_backend_ops *all[] = { backend_kmod(),
						   backend_bpf() };
	const struct kernel_backend_ops *ops = NULL;
	size_t i, j, len;

	for (i = 0; i < cfg->nadopt; i++) {
		const char *role = cfg->adopt_fds[i].role;
		const struct kernel_backend_ops *found = NULL;

		for (j = 0; j < sizeof(all) / sizeof(*all); j++) {
			if (!all[j])
				continue;
			len = strlen(all[j]->name);
			if (!strncmp(role, all[j]->name, len) &&
			    role[len] == '-')
				found = all[j];
		}
		if (!found || (ops && found != ops))
			return NULL;
		ops = found;
	}
	return ops;
}

static void close_adopted(const struct kernel_session_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nadopt; i++)
		if (cfg->adopt_fds[i].fd >= 0)
			close(cfg->adopt_fds[i].fd);
}

static int dump_names(struct kernel_session *ks);

/* The trace's stack sink, once, before the first sample can be taken. */
static int stacks_sink_open(struct kernel_session *ks)
{
	if (!ks->stacks.ops || ks->stacks_sink ||
	    !(ks->cfg.events & FXT_SCHED_EV_STACKS))
		return 0;
	return ks->stacks.ops->sink(ks->stacks.ctx, false, &ks->stacks_sink);
}
static bool mem_selected(const struct kernel_session *ks);

/* The clock of the records as translated (kernel_clock.h); 0 if unreadable. */
static uint64_t boottime_ns(void)
{
	struct timespec now;

	if (clock_gettime(CLOCK_BOOTTIME, &now))
		return 0;
	return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/* Where the records' times go: this time namespace's boottime. */
static int read_clock_offset(struct kernel_session *ks, char *why,
			     size_t why_len)
{
	int err = kernel_clock_read_offset("/proc/self/timens_offsets",
					   &ks->clock_offset_ns);

	if (err)
		snprintf(why, why_len,
			 "kernel capture: cannot read this time namespace's offset (/proc/self/timens_offsets): %s",
			 strerror(-err));
	return err;
}

int kernel_session_open(struct kernel_session **out,
			const struct kernel_session_config *cfg, char *why,
			size_t why_len)
{
	struct kernel_session *ks;
	int err = 0;

	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	ks->cfg = *cfg;
	ks->stacks = cfg->stacks;
	if (!ks->cfg.events)
		ks->cfg.events = kernel_categories_default();
	err = read_clock_offset(ks, why, why_len);
	if (err)
		goto fail;
	/*
	 * A session taken back skips the probe (the module's would open the
	 * device, which its one session holds: EBUSY).
	 */
	if (cfg->nadopt) {
		ks->ops = adopted_backend(cfg);
		if (!ks->ops || !ks->ops->adopt) {
			snprintf(why, why_len,
				 "kernel capture: what the descriptor store kept cannot be taken back");
			err = -EOPNOTSUPP;
			goto fail;
		}
	} else {
		err = choose_backend(cfg->backend, &ks->ops, why, why_len);
	}
	if (err)
		goto fail;
	err = cfg->nadopt ? ks->ops->adopt(&ks->cfg, &ks->state) :
			    ks->ops->open(&ks->cfg, &ks->state);
	/*
	 * Taken back running: started. The module's names are in its rings;
	 * those a BPF session read from /proc died with its manager (a
	 * oneshot or circular trace kept them for the end): read again.
	 */
	if (!err)
		ks->mem_selected = mem_selected(ks);
	ks->started = cfg->nadopt && !err;
	if (ks->started)
		err = stacks_sink_open(ks);
	if (ks->started && !err)
		err = dump_names(ks);
	if (err) {
		snprintf(why, why_len, "kernel capture (%s): cannot set up: %s%s",
			 ks->ops->name, strerror(-err),
			 ks->ops == backend_bpf() ?
				 " (libbpf's messages say why; the programs need Linux >= 5.18 with BTF)" :
				 "");
		goto fail;
	}
	/* Each CPU's ring, then the system counters' queue. */
	ks->merge = kernel_merge_new(ks->ops->ncpus(ks->state) + 1,
				     KERNEL_CHUNK_BYTES);
	if (!ks->merge) {
		err = -ENOMEM;
		snprintf(why, why_len, "out of memory");
		goto fail;
	}
	warn_missing(ks, why, why_len);
	*out = ks;
	return 0;
fail:
	/* Taken in all cases: once adopted, the session closes them. */
	if (!ks->state)
		close_adopted(cfg);
	kernel_session_close(ks);
	return err;
}

size_t kernel_session_keep_fds(const struct kernel_session *ks,
			       struct kernel_kept_fd *out, size_t max)
{
	if (!ks->started || !ks->ops->keep_fds)
		return 0;
	return ks->ops->keep_fds(ks->state, out, max);
}

const char *kernel_session_backend(const struct kernel_session *ks)
{
	return ks->ops->name;
}

/*
 * The module names every task itself when it starts; the BPF programs
 * only see names change, so the others come from /proc, read after the
 * programs are attached: a task renamed in between shows up in both, and
 * the later record wins.
 */
static int dump_names(struct kernel_session *ks)
{
	int err;

	if (ks->ops == backend_kmod())
		return 0;
	err = kernel_names_dump(&ks->names, "/proc");
	return err == -ENOMEM ? err : 0;
}

/*
 * kernel:mem's counters at start, stamped before the programs attached:
 * every record of the rings comes after them.
 */
static int dump_rss(struct kernel_session *ks, uint64_t ts)
{
	int err;

	if (!ks->mem_selected)
		return 0;
	err = kernel_rss_dump(&ks->rss, "/proc", ts);
	return err == -ENOMEM ? err : 0;
}

int kernel_session_start(struct kernel_session *ks)
{
	uint64_t t0 = boottime_ns();
	int err;

	if (ks->started)
		return -EALREADY;
	err = stacks_sink_open(ks);
	if (!err)
		err = ks->ops->start(ks->state);
	if (err)
		return err;
	ks->started = true;
	err = dump_names(ks);
	return err ? err : dump_rss(ks, t0);
}

/* Whether kernel:mem is selected and this kernel has it. */
static bool mem_selected(const struct kernel_session *ks)
{
	struct kernel_session_stats st;

	if (!(ks->cfg.events & FXT_SCHED_EV_MEM))
		return false;
	ks->ops->stats(ks->state, &st);
	return !(st.missing & FXT_SCHED_EV_MEM);
}

uint64_t kernel_session_mem_interval(const struct kernel_session *ks)
{
	return ks->mem_selected ? ks->cfg.mem_interval_ns : 0;
}

void kernel_session_sample_memory(struct kernel_session *ks)
{
	if (ks->started && kernel_session_mem_interval(ks))
		kernel_sysmem_sample(&ks->sysmem, "/proc", boottime_ns());
}

int kernel_session_arm_latency(struct kernel_session *ks, uint64_t threshold_ns)
{
	const uint32_t sched = FXT_SCHED_EV_SWITCH | FXT_SCHED_EV_WAKEUP;

	if (!ks->ops->arm_latency || !ks->ops->ring || !ks->started ||
	    ks->cfg.mode != FXT_BUFFERING_CIRCULAR ||
	    (ks->cfg.events & sched) != sched)
		return -EOPNOTSUPP;
	return ks->ops->arm_latency(ks->state, threshold_ns);
}

uint64_t kernel_session_latency_exceeded(const struct kernel_session *ks)
{
	unsigned int cpu, n = ks->ops->ncpus(ks->state);
	struct fxt_ring_reader r;
	uint64_t sum = 0;

	if (!ks->ops->ring || !ks->started)
		return 0;
	for (cpu = 0; cpu < n; cpu++)
		if (ks->ops->ring(ks->state, cpu, &r) == 0)
			sum += __atomic_load_n(&r.ctrl->latency_exceeded,
					       __ATOMIC_RELAXED);
	return sum;
}

int kernel_session_event_fd(const struct kernel_session *ks)
{
	return ks->ops->event_fd ? ks->ops->event_fd(ks->state) : -1;
}

static int out_flush(struct kernel_out *o)
{
	int err = 0;

	if (o->len)
		err = o->write(o->ctx, o->buf, o->len);
	o->len = 0;
	return err;
}

static int out_put(void *ctx, const uint64_t *rec, size_t words)
{
	struct kernel_out *o = ctx;
	size_t bytes = words * FXT_WORD_BYTES;
	int err;

	if (o->len + bytes > sizeof(o->buf)) {
		err = out_flush(o);
		if (err)
			return err;
	}
	if (bytes > sizeof(o->buf))
		return o->write(o->ctx, rec, bytes);
	memcpy((char *)o->buf + o->len, rec, bytes);
	o->len += bytes;
	return 0;
}

/* Every record on its way out: raw stack records leave by the hook. */
static int out_emit(void *ctx, const uint64_t *rec, size_t words)
{
	struct kernel_out *o = ctx;

	if (words < 2 || !fxt_ksample_is(rec[0], rec[1]))
		return out_put(ctx, rec, words);
	if (!o->sink) {
		(*o->profile_lost)++;
		return 0;
	}
	return o->stacks->ops->record(o->sink, rec, words, out_put, o);
}

static void out_init(struct kernel_out *o, struct kernel_session *ks,
		     kernel_write_fn write, void *ctx, void *sink)
{
	o->write = write;
	o->ctx = ctx;
	o->len = 0;
	o->stacks = &ks->stacks;
	o->sink = sink;
	o->profile_lost = &ks->profile_lost;
}

static void stacks_refresh(struct kernel_session *ks)
{
	if (ks->stacks.ops)
		ks->stacks.ops->refresh(ks->stacks.ctx);
}

/* Thread "swapper/<cpu>" of process 0: the idle task of each CPU. */
static void write_idle_threads(struct fxt_writer *w, unsigned int ncpus)
{
	__u64 rec[FXT_SCHED_RECORD_MAX_WORDS];
	char name[FXT_SCHED_NAME_MAX + 1];
	unsigned int cpu;
	uint32_t len;

	for (cpu = 0; cpu < ncpus; cpu++) {
		len = (uint32_t)snprintf(name, sizeof(name), "swapper/%u", cpu);
		len = len < FXT_SCHED_NAME_MAX ? len : FXT_SCHED_NAME_MAX;
		memset(rec, 0, sizeof(rec));
		memcpy(&rec[2], name, len);
		fxt_sched_write_thread_object(rec, fxt_kirq_thread_koid(0, cpu),
					      0, len);
		fxt_write_raw(w, rec, fxt_sched_thread_words(len) * FXT_WORD_BYTES);
	}
}

/*
 * The strings the kernel side's records index: the sched table, the irq
 * and syscall table, the power, block and fault table
 * (include/fxt/kdev.h), and, when kernel:syscall records, a name for
 * every system call number (about 20 KiB, written once).
 */
static void write_strings(struct fxt_writer *w, bool syscalls)
{
	static const char *const sched[] = FXT_SCHED_STRING_TABLE;
	static const char *const kirq[] = FXT_KIRQ_STRING_TABLE;
	static const char *const kdev[] = FXT_KDEV_STRING_TABLE;
	char unnamed[32];
	unsigned int i;

	for (i = 1; i <= FXT_SCHED_STR_COUNT; i++)
		fxt_write_string(w, (uint16_t)i, sched[i], strlen(sched[i]));
	for (i = 0; i < sizeof(kirq) / sizeof(*kirq); i++)
		fxt_write_string(w, (uint16_t)(FXT_KIRQ_STR_BASE + i), kirq[i],
				 strlen(kirq[i]));
	for (i = 0; i < FXT_KDEV_STR_COUNT; i++)
		fxt_write_string(w, (uint16_t)(FXT_KDEV_STR_BASE + i), kdev[i],
				 strlen(kdev[i]));
	for (i = 0; syscalls && i < FXT_KSYSCALL_NR_MAX; i++) {
		const char *name = i < sizeof(kernel_syscall_names) /
					       sizeof(*kernel_syscall_names) ?
					   kernel_syscall_names[i] :
					   NULL;

		if (!name) {
			snprintf(unnamed, sizeof(unnamed), "syscall_%u", i);
			name = unnamed;
		}
		fxt_write_string(w, (uint16_t)(FXT_KSYSCALL_NAME_BASE + i),
				 name, strlen(name));
	}
}

static int write_preamble(struct kernel_session *ks, struct kernel_out *o)
{
	struct fxt_writer w;
	int err;

	fxt_writer_init(&w);
	fxt_write_init(&w, 1000000000ull);
	write_strings(&w, ks->cfg.events & FXT_SCHED_EV_SYSCALL);
	write_idle_threads(&w, ks->ops->ncpus(ks->state));
	err = fxt_writer_error(&w);
	if (!err)
		err = out_emit(o, fxt_writer_data(&w),
			       fxt_writer_size(&w) / FXT_WORD_BYTES);
	fxt_writer_release(&w);
	return err;
}

static ssize_t session_read_cpu(void *ctx, unsigned int cpu, void *buf,
				size_t cap)
{
	struct kernel_session *ks = ctx;
	ssize_t n;

	if (cpu == ks->ops->ncpus(ks->state))
		return (ssize_t)kernel_sysmem_read(&ks->sysmem, buf, cap);
	n = ks->ops->read_cpu(ks->state, cpu, buf, cap);
	if (n > 0)
		kernel_clock_shift(buf, (size_t)n / FXT_WORD_BYTES,
				   ks->clock_offset_ns);
	return n;
}

/* Whole records already: they go to the writer as one block. */
static int write_block(struct kernel_session *ks, struct kernel_out *o,
		       struct kernel_names *block, uint64_t *records)
{
	size_t bytes = block->len * FXT_WORD_BYTES;
	int err;

	if (!bytes)
		return 0;
	err = out_flush(o);
	if (!err)
		err = o->write(o->ctx, block->words, bytes);
	if (err)
		return err;
	*records += block->records;
	ks->name_bytes += bytes;
	kernel_names_clear(block);
	return 0;
}

/* The names, then the RSS counters at start: before the rings' records. */
static int write_names(struct kernel_session *ks, struct kernel_out *o)
{
	int err = write_block(ks, o, &ks->names, &ks->name_records);

	return err ? err : write_block(ks, o, &ks->rss, &ks->rss_records);
}

/*
 * While capture runs, a drain stops short of the time it began: a record
 * stamped before that may not be published yet (its writer interrupted,
 * or its virtual CPU descheduled, between the clock read and the
 * publish). The kernel side stamps records with CLOCK_BOOTTIME, read
 * here in this time namespace, as the records are (kernel_clock.h).
 */
static uint64_t drain_horizon(const struct kernel_session *ks)
{
	uint64_t ns = boottime_ns();

	if (!ks->started || !ns)
		return UINT64_MAX;
	return ns > KERNEL_PUBLISH_SLACK_NS ? ns - KERNEL_PUBLISH_SLACK_NS : 0;
}

int kernel_session_drain(struct kernel_session *ks, kernel_write_fn write,
			 void *ctx)
{
	struct kernel_out *o = malloc(sizeof(*o));
	int err = 0;

	if (!o)
		return -ENOMEM;
	out_init(o, ks, write, ctx, ks->stacks_sink);
	stacks_refresh(ks);
	if (!ks->preamble_written) {
		err = write_preamble(ks, o);
		ks->preamble_written = !err;
	}
	if (!err)
		err = write_names(ks, o);
	if (!err)
		err = kernel_merge_run(ks->merge, session_read_cpu, ks, out_emit,
				       o, KERNEL_DRAIN_BUDGET, drain_horizon(ks));
	if (!err)
		err = out_flush(o);
	free(o);
	return err;
}

bool kernel_session_names_pending(const struct kernel_session *ks)
{
	return !ks->started && ks->stacks_sink;
}

int kernel_session_write_names(struct kernel_session *ks,
			       kernel_write_fn write, void *ctx)
{
	struct kernel_out *o;
	int err;

	if (ks->started || !ks->stacks_sink)
		return 0;
	o = malloc(sizeof(*o));
	if (!o)
		return -ENOMEM;
	out_init(o, ks, write, ctx, NULL);
	err = ks->stacks.ops->finish(ks->stacks.ctx, ks->stacks_sink, out_put,
				     o);
	if (!err)
		err = out_flush(o);
	free(o);
	return err;
}

/* One CPU's records as a snapshot copied them, handed out whole. */
struct peeked_cpu {
	unsigned char *data;
	size_t len, pos;
};

static ssize_t peeked_read_cpu(void *ctx, unsigned int cpu, void *buf,
			       size_t cap)
{
	struct peeked_cpu *p = (struct peeked_cpu *)ctx + cpu;
	size_t len = 0;

	while (p->pos + len < p->len) {
		uint64_t bytes = fxt_record_bytes(
			*(const uint64_t *)(p->data + p->pos + len));

		if (len + bytes > cap)
			break;
		len += bytes;
	}
	memcpy(buf, p->data + p->pos, len);
	p->pos += len;
	return (ssize_t)len;
}

static void peeked_free(struct peeked_cpu *cpus, unsigned int n)
{
	unsigned int i;

	for (i = 0; cpus && i < n; i++)
		free(cpus[i].data);
	free(cpus);
}

/* Every CPU's ring as it is now (fxt_ring_peek()); capture goes on. */
static int peek_all(struct kernel_session *ks, struct peeked_cpu **out)
{
	unsigned int i, n = ks->ops->ncpus(ks->state);
	struct peeked_cpu *cpus = calloc(n ? n : 1, sizeof(*cpus));
	int err = 0;

	if (!cpus)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++) {
		struct fxt_ring_reader r;

		err = ks->ops->ring(ks->state, i, &r);
		if (err)
			break;
		cpus[i].data = malloc(r.mask + 1);
		if (!cpus[i].data)
			err = -ENOMEM;
		else
			cpus[i].len = fxt_ring_peek(&r, cpus[i].data);
		if (cpus[i].data)
			kernel_clock_shift((uint64_t *)cpus[i].data,
					   cpus[i].len / FXT_WORD_BYTES,
					   ks->clock_offset_ns);
	}
	if (err) {
		peeked_free(cpus, n);
		return err;
	}
	*out = cpus;
	return 0;
}

int kernel_session_snapshot(struct kernel_session *ks, kernel_write_fn write,
			    void *ctx)
{
	unsigned int n = ks->ops->ncpus(ks->state);
	struct kernel_names names = { 0 };
	struct peeked_cpu *cpus = NULL;
	struct kernel_merge *merge = NULL;
	void *profile = NULL;
	struct kernel_out *o = NULL;
	int err;

	if (!ks->ops->ring || ks->cfg.mode != FXT_BUFFERING_CIRCULAR ||
	    !ks->started)
		return -EOPNOTSUPP;
	err = peek_all(ks, &cpus);
	if (err)
		return err;
	/* The rings may have lost the fork records: name the living. */
	err = kernel_names_dump(&names, "/proc");
	if (err == -ENOMEM)
		goto out;
	/* Its own tables: the snapshot is read without the archive. */
	err = ks->stacks.ops ? ks->stacks.ops->sink(ks->stacks.ctx, true,
						    &profile) :
			       0;
	if (err)
		goto out;
	err = -ENOMEM;
	o = malloc(sizeof(*o));
	merge = kernel_merge_new(n, KERNEL_CHUNK_BYTES);
	if (!o || !merge)
		goto out;
	out_init(o, ks, write, ctx, profile);
	stacks_refresh(ks);
	err = write_preamble(ks, o);
	if (!err)
		err = out_flush(o);
	if (!err && names.len)
		err = write(ctx, names.words, names.len * FXT_WORD_BYTES);
	if (!err)
		err = kernel_merge_run(merge, peeked_read_cpu, cpus, out_emit, o,
				       UINT64_MAX, UINT64_MAX);
	if (!err && profile)
		err = ks->stacks.ops->finish(ks->stacks.ctx, profile, out_put, o);
	if (!err)
		err = out_flush(o);
out:
	if (profile)
		ks->stacks.ops->sink_free(ks->stacks.ctx, profile);
	free(o);
	kernel_merge_free(merge);
	kernel_names_free(&names);
	peeked_free(cpus, n);
	return err;
}

/* Circular rings may have lost the fork records: name the survivors again. */
int kernel_session_stop(struct kernel_session *ks)
{
	int err;

	if (!ks->started)
		return 0;
	err = ks->ops->stop(ks->state);
	ks->started = false;
	if (!err && ks->cfg.mode == FXT_BUFFERING_CIRCULAR)
		err = dump_names(ks);
	return err;
}

/* records and bytes count what the section body holds beyond its preamble. */
void kernel_session_stats(const struct kernel_session *ks,
			  struct kernel_session_stats *st)
{
	ks->ops->stats(ks->state, st);
	st->records += ks->name_records + ks->rss_records + ks->sysmem.records;
	st->dropped += ks->sysmem.dropped;
	st->bytes += ks->name_bytes;
	st->dropped += kernel_merge_malformed(ks->merge);
	st->dropped += ks->profile_lost;
	if (ks->stacks.ops)
		ks->stacks.ops->add_stats(ks->stacks.ctx, st);
}

int kernel_session_ksyms_error(const struct kernel_session *ks)
{
	return ks->stacks.ops ? ks->stacks.ops->ksyms_error(ks->stacks.ctx) :
				0;
}

size_t kernel_session_category_stats(const struct kernel_session *ks,
				     struct kernel_category_stats *out,
				     size_t max)
{
	struct kernel_session_stats st;
	size_t i, n = 0;
	unsigned int bit;

	ks->ops->stats(ks->state, &st);
	st.event_records[FXT_SCHED_EV_BIT_NAMES] += ks->name_records;
	st.event_records[FXT_SCHED_EV_BIT_MEM] +=
		ks->rss_records + ks->sysmem.records;
	st.event_dropped[FXT_SCHED_EV_BIT_MEM] += ks->sysmem.dropped;
	if (ks->stacks.ops)
		ks->stacks.ops->add_stats(ks->stacks.ctx, &st);
	for (i = 0; i < kernel_ncategories && n < max; i++) {
		const struct kernel_category *c = &kernel_categories[i];
		struct kernel_category_stats *cs = &out[n];

		/* Names come with several categories: not a reason to list one. */
		if (!(c->counted & ~FXT_SCHED_EV_NAMES & ks->cfg.events))
			continue;
		memset(cs, 0, sizeof(*cs));
		cs->name = c->name;
		cs->missing = !!(c->counted & st.missing);
		cs->refused = !!(c->counted & st.refused);
		cs->unnamed_kernel_frames = (c->counted & FXT_SCHED_EV_STACKS) &&
					    kernel_session_ksyms_error(ks);
		for (bit = 0; bit < FXT_RING_EVENT_KINDS; bit++) {
			if (!(c->counted & (1u << bit)))
				continue;
			cs->records += st.event_records[bit];
			cs->dropped += st.event_dropped[bit];
		}
		n++;
	}
	return n;
}

void kernel_session_close(struct kernel_session *ks)
{
	if (!ks)
		return;
	if (ks->started)
		(void)kernel_session_stop(ks);
	if (ks->state)
		ks->ops->close(ks->state);
	kernel_merge_free(ks->merge);
	kernel_names_free(&ks->names);
	kernel_names_free(&ks->rss);
	kernel_sysmem_free(&ks->sysmem);
	free(ks);
}
