/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Work that must not hold the event loop (naming a trace's stack frames
 * reads other users' ELF files): run on a thread of its own, what it
 * writes kept in memory, in order, and handed back on the event loop
 * when it ends. The owner touches nothing the work uses until then.
 */
#ifndef FXT_THREAD_JOB_H
#define FXT_THREAD_JOB_H

#include <stddef.h>
#include <systemd/sd-event.h>

struct thread_job;

/* What the work writes with: whole records, as kernel_write_fn. */
typedef int (*thread_job_write_fn)(void *ctx, const void *data, size_t len);
/* The work, on its thread: 0 or -errno. */
typedef int (*thread_job_fn)(void *arg, thread_job_write_fn write, void *ctx);
/* On the event loop once the work ended (its result): replay, then free. */
typedef void (*thread_job_done_fn)(struct thread_job *job, int result,
				   void *userdata);

int thread_job_start(sd_event *event, const char *name, thread_job_fn fn,
		     void *arg, thread_job_done_fn done, void *userdata,
		     struct thread_job **ret);

/* What the work wrote, through write, in order; stops at its first error. */
int thread_job_replay(struct thread_job *job, thread_job_write_fn write,
		      void *ctx);

/* Waits for the thread if it still runs (a manager shutting down). */
void thread_job_free(struct thread_job *job);

#endif /* FXT_THREAD_JOB_H */
