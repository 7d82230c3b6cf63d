/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel scheduling capture for a trace: the "kernel" provider section,
 * drained from kernel_session into the archive at stop, and in streaming
 * mode whenever the kernel side passes its watermark.
 */
#ifndef FXT_KERNEL_SOURCE_H
#define FXT_KERNEL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include <fxt/stacks_losses.h>

#include "control_proto.h"

struct archive;
struct kernel_kept_fd;
struct kernel_source;
struct unwind_cache;

/* A trace's kernel capture as kernel_source_open() is to make it. */
struct kernel_source_config {
	enum fxt_ctl_kernel choice;
	enum fxt_buffering_mode mode;
	uint64_t bytes_per_cpu;
	const char *categories;
	const uint32_t *syscall_pids;
	uint64_t mem_interval_ns;
	uint32_t sample_hz;		/* kernel:sample; 0: the default */
	uint64_t offcpu_min_ns;	/* kernel:offcpu */
	/* Its section in archive, under this provider id. */
	uint32_t provider_id;
	struct archive *archive;
	/*
	 * The capture a dead manager left running, taken back
	 * (kernel_session.h; the descriptors are taken in all cases).
	 */
	const struct kernel_kept_fd *adopt;
	size_t nadopt;
	/* The manager's files' rows for the BPF walker (NULL: none). */
	struct unwind_cache *unwind_cache;
};

/*
 * 0 with *ret set, or 0 with *ret NULL and a note in why when the choice
 * is "off" or "auto" finds no capture here; -errno with the reason in why
 * when an explicit backend cannot run. A capture that runs may leave a
 * warning in why (a category this kernel cannot trace).
 */
int kernel_source_open(sd_event *event, const struct kernel_source_config *cfg,
		       struct kernel_source **ret, char *why, size_t why_len);
const char *kernel_source_backend(const struct kernel_source *ks);
/* What keeps the capture alive across a restart (kernel_session.h). */
size_t kernel_source_keep_fds(const struct kernel_source *ks,
			      struct kernel_kept_fd *out, size_t max);
/*
 * Stops capture and writes what is left. With stack samples, their names
 * are looked up on a thread (thread_job.h) while the event loop serves
 * everyone else: 1, and done() is called on the event loop once they are
 * written. Else done at once: 0 or -errno. The result (given or passed
 * to done): the first error, or that of records lost before.
 */
typedef void (*kernel_source_done_fn)(int result, void *userdata);
int kernel_source_finish(struct kernel_source *ks, kernel_source_done_fn done,
			 void *userdata);
/*
 * Streaming: after a write failed, kernel records wait in the rings;
 * drains them and watches again. 0, or the write error again.
 */
int kernel_source_resume(struct kernel_source *ks);
/*
 * A snapshot (circular): the kernel section of archive a, another trace's
 * archive, from what the rings hold now; capture goes on. 0 or -errno.
 */
int kernel_source_snapshot(struct kernel_source *ks, struct archive *a);
/*
 * The wakeup-latency trigger (kernel_session_arm_latency()): armed with
 * threshold_ns, 0 disarms; 0 or -errno. The count of threads that waited
 * longer so far, summed over the CPUs' rings: the manager polls it.
 */
int kernel_source_arm_latency(struct kernel_source *ks, uint64_t threshold_ns);
uint64_t kernel_source_latency_exceeded(const struct kernel_source *ks);
/* Records the writer could not put on disk after all. */
void kernel_source_lost(struct kernel_source *ks, uint64_t records,
			uint64_t bytes, int error);
uint32_t kernel_source_id(const struct kernel_source *ks);
/*
 * The kernel row, one per selected category and, with stack samples, one
 * per reason they lost (FXT_CTL_PROVIDER_LOSS): at most this many.
 */
#define KERNEL_SOURCE_ROWS_MAX (16 + FXT_STACK_LOSS_COUNT)
size_t kernel_source_describe(const struct kernel_source *ks,
			      struct fxt_ctl_provider *out, size_t max);
struct kernel_source *kernel_source_free(struct kernel_source *ks);

#endif /* FXT_KERNEL_SOURCE_H */
