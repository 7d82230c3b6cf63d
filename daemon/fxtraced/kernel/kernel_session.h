/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The manager's view of kernel scheduling capture: one session, backed by
 * the fxt_sched module or by the BPF program, producing the records of the
 * "kernel" provider section.
 */
#ifndef FXT_KERNEL_SESSION_H
#define FXT_KERNEL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/ksyscall.h>
#include <fxt/pyframes.h>
#include <fxt/ring.h>
#include <fxt/unwind.h>

enum kernel_backend_choice {
	KERNEL_BACKEND_AUTO,
	KERNEL_BACKEND_KMOD,
	KERNEL_BACKEND_BPF,
	KERNEL_BACKEND_OFF,
};

/*
 * A descriptor a capture lives by and what it is: the module's session
 * (its rings go with its last descriptor); the BPF ring map, and each
 * program and its link (a link keeps its program attached and writing).
 * The role is "<backend>-<what>".
 */
struct kernel_kept_fd {
	int fd;
	const char *role;
};

#define KERNEL_KEPT_KMOD_SESSION "kmod-session"
#define KERNEL_KEPT_BPF_RING "bpf-ring"
#define KERNEL_KEPT_BPF_LINK "bpf-link"
#define KERNEL_KEPT_BPF_PROG "bpf-prog"
/* The programs' globals (.bss): the latency threshold, set again. */
#define KERNEL_KEPT_BPF_GLOBALS "bpf-globals"
#define KERNEL_KEPT_ROLES                                              \
	{ KERNEL_KEPT_KMOD_SESSION, KERNEL_KEPT_BPF_RING,              \
	  KERNEL_KEPT_BPF_LINK, KERNEL_KEPT_BPF_PROG,                  \
	  KERNEL_KEPT_BPF_GLOBALS }
/* Descriptors one capture keeps at most (a ring, globals, 2 per program). */
#define KERNEL_KEPT_FDS_MAX 64u

struct kernel_session_stats;
struct unwind_cache;
struct py_procs;

/*
 * Where the raw stack records of kernel:sample and kernel:offcpu go
 * (include/fxt/ksample.h, every word named there): the stack side
 * (daemon/fxtraced/stacks/) implements it and capture only calls it, so
 * no raw record, and no kernel address in one, passes capture by another
 * road. A sink takes one stream of records: the trace's own, or a
 * snapshot's, which has its own tables.
 */
typedef int (*kernel_emit_fn)(void *ctx, const uint64_t *rec, size_t words);

struct kernel_stacks_ops {
	/* The trace's sink (snapshot false), or a new one (free it). */
	int (*sink)(void *ctx, bool snapshot, void **ret);
	void (*sink_free)(void *ctx, void *sink);
	/* A raw stack record, written through emit in the archive's form. */
	int (*record)(void *sink, const uint64_t *rec, size_t words,
		      kernel_emit_fn emit, void *emit_ctx);
	/* The end of a sink's stream: names, Perfetto's blobs. Once. */
	int (*finish)(void *ctx, void *sink, kernel_emit_fn emit,
		      void *emit_ctx);
	/* Before each drain of the rings. */
	void (*refresh)(void *ctx);
	/* Samples written and lost, added to the session's counters. */
	void (*add_stats)(void *ctx, struct kernel_session_stats *st);
	/* 0, or why kernel frames are "[kernel]". */
	int (*ksyms_error)(void *ctx);
};

struct kernel_stacks_hook {
	const struct kernel_stacks_ops *ops; /* NULL: raw records are lost */
	void *ctx;
};

struct kernel_session_config {
	enum kernel_backend_choice backend;
	enum fxt_buffering_mode mode;
	size_t buffer_bytes_per_cpu;	/* 0: the backend's default */
	uint32_t events;	/* FXT_SCHED_EV_*; 0: the default categories */
	/* kernel:syscall only for these processes (0 ends); none: all */
	uint32_t syscall_pids[FXT_KSYSCALL_PIDS_MAX];
	/*
	 * kernel:mem: /proc/meminfo and /proc/vmstat are sampled this often
	 * (0: never), by the caller (kernel_session_sample_memory()).
	 */
	uint64_t mem_interval_ns;
	/* kernel:sample: samples per second per CPU (0: the default) */
	uint32_t sample_hz;
	/* kernel:offcpu: shorter blocks are not written (0: every block) */
	uint64_t offcpu_min_ns;
	/*
	 * Take back the capture of a manager that died, configured and
	 * capturing (kept in systemd's descriptor store): its rings hold
	 * what was recorded since. The descriptors' roles name the backend.
	 * Taken by kernel_session_open(), also when it fails.
	 */
	const struct kernel_kept_fd *adopt_fds;
	size_t nadopt;
	/* With kernel:sample or kernel:offcpu; outlives the session. */
	struct kernel_stacks_hook stacks;
	/* The BPF walker's files' rows, kept across sessions (NULL: none). */
	struct unwind_cache *unwind_cache;
	/*
	 * The CPython processes the BPF walker finds, for the stack side to
	 * name their frames (NULL: none); outlives the session.
	 */
	struct py_procs *py_procs;
};

/* Python frames in the BPF samples (include/fxt/pyframes.h). */
struct kernel_python_stats {
	uint64_t walk[FXT_PY_STAT_COUNT];	/* summed over CPUs */
	uint64_t interpreters;		/* files with a layout */
	uint64_t interpreters_unread;	/* without: why, the last one's */
	int unread_err;
	const char *unread_missing;	/* a static string, or NULL */
	uint64_t processes;		/* entries written */
};

/* The BPF walker's unwinding tables (bpf_unwind.h). */
struct kernel_unwind_stats {
	/* The walks' counters, summed over CPUs (include/fxt/unwind.h) */
	uint64_t walk[FXT_UNWIND_STAT_COUNT];
	uint64_t processes;	/* entries written */
	uint64_t files;		/* files with rows */
	uint64_t files_reused;	/* of those, compiled by an earlier trace */
	uint64_t rows;		/* rows written */
	uint64_t build_ns;	/* spent compiling them */
	uint64_t files_full;	/* files left without rows: the map full */
	uint64_t files_unread;	/* not opened, or without .eh_frame */
	struct kernel_python_stats python;
};

struct kernel_session_stats {
	uint64_t records;	/* written by the kernel side */
	uint64_t bytes;
	uint64_t dropped;	/* lost to full buffers */
	unsigned int ncpus;
	uint32_t missing;	/* FXT_SCHED_EV_* this kernel cannot trace */
	uint32_t refused;	/* FXT_SCHED_EV_* whose programs it refused */
	/* Per FXT_SCHED_EV_BIT_*: records written and dropped. */
	uint64_t event_records[FXT_RING_EVENT_KINDS];
	uint64_t event_dropped[FXT_RING_EVENT_KINDS];
	/* Stack samples written but left out of the Perfetto blobs. */
	uint64_t perfetto_dropped;
	struct kernel_unwind_stats unwind;
};

/* Adds one CPU's per-event counters (a backend's stats). */
static inline void kernel_session_add_event_counts(
	struct kernel_session_stats *st, const struct fxt_ring_ctrl *c)
{
	unsigned int i;

	for (i = 0; i < FXT_RING_EVENT_KINDS; i++) {
		st->event_records[i] +=
			__atomic_load_n(&c->event_records[i], __ATOMIC_RELAXED);
		st->event_dropped[i] +=
			__atomic_load_n(&c->event_dropped[i], __ATOMIC_RELAXED);
	}
}

/* Appends bytes (whole records) to the archive; returns 0 or -errno. */
typedef int (*kernel_write_fn)(void *ctx, const void *data, size_t len);

struct kernel_session;

/*
 * The FXT_SCHED_EV_* of the "kernel:" entries of a comma-separated
 * category list (others are the providers'): kernel:sched, kernel:proc,
 * or a pattern ("kernel:s*", "kernel:*": every category it begins); with
 * none, the default kernel:sched,kernel:proc. An unknown kernel category
 * (or a pattern of none) is -EINVAL with a one-line reason in why.
 */
int kernel_categories_parse(const char *list, uint32_t *events, char *why,
			    size_t why_len);

/*
 * Opens the backend cfg asks for (auto: kmod if /dev/fxt_sched exists,
 * else BPF if the kernel has BTF and we may load programs). On failure
 * returns -errno and a one-line reason for the user in why.
 */
int kernel_session_open(struct kernel_session **out,
			const struct kernel_session_config *cfg, char *why,
			size_t why_len);
/*
 * The descriptors that keep the capture alive, for the descriptor store:
 * at most max into out; returns how many (0 before it starts). They stay
 * the session's.
 */
size_t kernel_session_keep_fds(const struct kernel_session *ks,
			       struct kernel_kept_fd *out, size_t max);
/* "kmod" or "bpf". */
const char *kernel_session_backend(const struct kernel_session *ks);
int kernel_session_start(struct kernel_session *ks);
/*
 * The wakeup-latency trigger, computed by the kernel side: from now on a
 * thread that waits longer than threshold_ns (0: off) between its wakeup
 * and getting a CPU gets a sched_latency instant and counts in
 * kernel_session_latency_exceeded(). Circular, capturing kernel:sched;
 * else -EOPNOTSUPP.
 */
int kernel_session_arm_latency(struct kernel_session *ks,
			       uint64_t threshold_ns);
/* Threads that waited too long so far, over all CPUs. */
uint64_t kernel_session_latency_exceeded(const struct kernel_session *ks);
/*
 * kernel:mem's system counters: how often to call
 * kernel_session_sample_memory() while capture runs (0: never, not
 * selected, or this kernel lacks kernel:mem), which queues a sample of
 * /proc/meminfo and /proc/vmstat (kernel_sysmem.h) that drains write in
 * time order among the rings' records.
 */
uint64_t kernel_session_mem_interval(const struct kernel_session *ks);
void kernel_session_sample_memory(struct kernel_session *ks);
/* Readable when a CPU buffer passed its watermark; -1 if there is none. */
int kernel_session_event_fd(const struct kernel_session *ks);

/*
 * Stopped, with stack samples: their user frames' names and Perfetto's
 * blobs are still to be written (kernel_session_write_names()), after
 * the last drain.
 */
bool kernel_session_names_pending(const struct kernel_session *ks);

/*
 * Writes them (the hook's finish): it reads ELF files, so it may run on a
 * thread of its own while nothing else touches ks. Once.
 */
int kernel_session_write_names(struct kernel_session *ks,
			       kernel_write_fn write, void *ctx);


/*
 * Writes what the kernel side holds, every CPU merged in timestamp order,
 * names before the records that use them. The first call starts with the
 * section's initialization record and the FXT_SCHED_STRING_TABLE string
 * records (the caller writes the provider info record before it).
 * Streaming: call when the event fd is readable; all modes: once after stop.
 */
int kernel_session_drain(struct kernel_session *ks, kernel_write_fn write,
			 void *ctx);
/*
 * Circular, while capture runs: writes what every CPU's ring holds now
 * (a record overwritten while it is copied is left out), as a whole
 * section body of its own: initialization, string table, the names of
 * the tasks that exist, the records merged. Nothing is released: capture
 * and a later drain go on as if it had not happened. -EOPNOTSUPP in
 * other modes.
 */
int kernel_session_snapshot(struct kernel_session *ks, kernel_write_fn write,
			    void *ctx);
int kernel_session_stop(struct kernel_session *ks);
void kernel_session_stats(const struct kernel_session *ks,
			  struct kernel_session_stats *st);
void kernel_session_close(struct kernel_session *ks);

struct kernel_category_stats {
	const char *name;	/* "kernel:irq" */
	uint64_t records;	/* written by the kernel side (and names) */
	uint64_t dropped;	/* lost to full buffers */
	bool missing;		/* this kernel lacks its tracepoints */
	bool refused;		/* it refused its programs (BPF's verifier) */
	bool unnamed_kernel_frames; /* stacks: kernel_session_ksyms_error() */
};

/*
 * 0, or why the kernel frames of stack samples are all "[kernel]": -EPERM
 * when /proc/kallsyms shows us no addresses (no CAP_SYSLOG while
 * kernel.perf_event_paranoid > 1), else why it could not be read.
 */
int kernel_session_ksyms_error(const struct kernel_session *ks);

/* The selected categories' counts, at most max; returns how many. */
size_t kernel_session_category_stats(const struct kernel_session *ks,
				     struct kernel_category_stats *out,
				     size_t max);

#endif /* FXT_KERNEL_SESSION_H */
