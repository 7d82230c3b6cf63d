// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "thread_job.h"

/* One write of the work: its bytes, kept as they came. */
struct job_write {
	struct job_write *next;
	size_t len;
	unsigned char data[];
};

struct thread_job {
	pthread_t thread;
	bool running; /* joined when false */
	int efd;
	sd_event_source *ended;
	thread_job_fn fn;
	void *arg;
	thread_job_done_fn done;
	void *userdata;
	/* The thread's alone until it signals efd. */
	struct job_write *first, **last;
	int result;
};

static int keep_write(void *ctx, const void *data, size_t len)
{
	struct thread_job *job = ctx;
	struct job_write *w = malloc(sizeof(*w) + len);

	if (!w)
		return -ENOMEM;
	w->next = NULL;
	w->len = len;
	memcpy(w->data, data, len);
	*job->last = w;
	job->last = &w->next;
	return 0;
}

static void *run(void *arg)
{
	struct thread_job *job = arg;
	uint64_t one = 1;

	job->result = job->fn(job->arg, keep_write, job);
	/* The event loop reads result and the writes after this. */
	if (write(job->efd, &one, sizeof(one)) != sizeof(one))
		abort(); /* an eventfd's counter cannot overflow here */
	return NULL;
}

static int on_ended(sd_event_source *s, int fd, uint32_t revents,
		    void *userdata)
{
	struct thread_job *job = userdata;

	job->ended = sd_event_source_disable_unref(job->ended);
	pthread_join(job->thread, NULL);
	job->running = false;
	job->done(job, job->result, job->userdata);
	return 0;
}

int thread_job_start(sd_event *event, const char *name, thread_job_fn fn,
		     void *arg, thread_job_done_fn done, void *userdata,
		     struct thread_job **ret)
{
	struct thread_job *job = calloc(1, sizeof(*job));
	int r;

	if (!job)
		return -ENOMEM;
	*job = (struct thread_job){ .efd = -1,
				    .fn = fn,
				    .arg = arg,
				    .done = done,
				    .userdata = userdata };
	job->last = &job->first;
	job->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r = job->efd < 0 ? -errno : 0;
	if (r >= 0)
		r = sd_event_add_io(event, &job->ended, job->efd, EPOLLIN,
				    on_ended, job);
	if (r >= 0) {
		(void)sd_event_source_set_description(job->ended, name);
		r = -pthread_create(&job->thread, NULL, run, job);
	}
	if (r < 0) {
		thread_job_free(job);
		return r;
	}
	job->running = true;
	*ret = job;
	return 0;
}

int thread_job_replay(struct thread_job *job, thread_job_write_fn write,
		      void *ctx)
{
	struct job_write *w;
	int r = 0;

	for (w = job->first; w && r >= 0; w = w->next)
		r = write(ctx, w->data, w->len);
	return r;
}

void thread_job_free(struct thread_job *job)
{
	struct job_write *w;

	if (!job)
		return;
	if (job->running)
		pthread_join(job->thread, NULL);
	sd_event_source_disable_unref(job->ended);
	if (job->efd >= 0)
		close(job->efd);
	while ((w = job->first)) {
		job->first = w->next;
		free(w);
	}
	free(job);
}
