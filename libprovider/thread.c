// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Per-thread state: the write sequence word fxt_quiesce() waits on, the
 * string cache, the thread ref. Allocated at a thread's first event,
 * freed by a pthread key destructor when the thread exits.
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "macro.h"
#include "test_hooks.h"
#include "thread.h"

/* &thread->w: what the inline writer of <fxt/provider.h> reads. */
FXT_EXPORT __thread struct fxt_internal_writer *fxt_internal_self
	__attribute__((tls_model("initial-exec")));

/* w is the first member of struct fxt_thread. */
static struct fxt_thread *self_thread(void)
{
	return (struct fxt_thread *)fxt_internal_self;
}

/* Every live thread's state; rules: under threads_lock. */
static struct fxt_thread *threads;
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t thread_key;
static pthread_once_t thread_key_once = PTHREAD_ONCE_INIT;

static void thread_unlink_locked(struct fxt_thread *t)
{
	struct fxt_thread **pp;

	for (pp = &threads; *pp; pp = &(*pp)->next) {
		if (*pp == t) {
			*pp = t->next;
			return;
		}
	}
}

static void thread_exit(void *arg)
{
	struct fxt_thread *t = arg;

	pthread_mutex_lock(&threads_lock);
	thread_unlink_locked(t);
	pthread_mutex_unlock(&threads_lock);
	if (self_thread() == t)
		fxt_internal_self = NULL;
	free(t);
}

static void thread_key_create(void)
{
	(void)pthread_key_create(&thread_key, thread_exit);
}

static __attribute__((noinline)) struct fxt_thread *thread_create(void)
{
	struct fxt_thread *t;

	if (pthread_once(&thread_key_once, thread_key_create))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = (uint32_t)getpid();
	t->tid = (uint32_t)gettid();
	t->gen = 0;	/* no session has generation 0 */
	t->w.site_tag = FXT_SITE_TAG_NONE;
	if (pthread_setspecific(thread_key, t)) {
		free(t);
		return NULL;
	}
	pthread_mutex_lock(&threads_lock);
	t->next = threads;
	threads = t;
	pthread_mutex_unlock(&threads_lock);
	fxt_internal_self = &t->w;
	return t;
}

struct fxt_thread *fxt_thread_self(void)
{
	struct fxt_thread *t = self_thread();

	if (likely(t))
		return t;
	return thread_create();
}

static void wait_for_thread(struct fxt_thread *t)
{
	/* Pairs with the release store in fxt_write_leave(). */
	uint64_t seq = __atomic_load_n(&t->w.seq, __ATOMIC_ACQUIRE);

	if (!(seq & 1))
		return;
	while (__atomic_load_n(&t->w.seq, __ATOMIC_ACQUIRE) == seq)
		sched_yield();
}

void fxt_quiesce(void)
{
	struct fxt_thread *t;

	pthread_mutex_lock(&threads_lock);
	for (t = threads; t; t = t->next)
		wait_for_thread(t);
	pthread_mutex_unlock(&threads_lock);
}

static int membarrier(int cmd)
{
	return (int)syscall(__NR_membarrier, cmd, 0, 0);
}

/* A full memory barrier in every running thread of the process. */
static bool barrier_all_threads(void)
{
	if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
		return true;
	/* Registration is per process: a forked child registers again. */
	if (errno == EPERM &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
	    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
		return true;
	return membarrier(MEMBARRIER_CMD_GLOBAL) == 0;
}

bool fxt_threads_barrier_init(void)
{
	int cmds = membarrier(MEMBARRIER_CMD_QUERY);

	if (cmds < 0)
		return false;
	if ((cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
		return true;
	return cmds & MEMBARRIER_CMD_GLOBAL;
}

void fxt_threads_drop_chunks(void)
{
	struct fxt_thread *t;

	pthread_mutex_lock(&threads_lock);
	for (t = threads; t; t = t->next)
		__atomic_store_n(&t->w.chunk_limit, NULL, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&threads_lock);
	/*
	 * Buffers are mapped only once fxt_threads_barrier_init() said yes;
	 * it cannot fail later but for a sandbox changing its mind.
	 */
	(void)barrier_all_threads();
	fxt_quiesce();
}

void fxt_threads_lock(void)
{
	pthread_mutex_lock(&threads_lock);
}

void fxt_threads_unlock(void)
{
	pthread_mutex_unlock(&threads_lock);
}

/* Only the forking thread survives; it is a new process now. */
void fxt_threads_after_fork_child(void)
{
	struct fxt_thread *t = threads, *next, *self = self_thread();

	pthread_mutex_init(&threads_lock, NULL);
	for (; t; t = next) {
		next = t->next;
		if (t != self)
			free(t);
	}
	threads = self;
	if (self) {
		self->next = NULL;
		self->pid = (uint32_t)getpid();
		self->tid = (uint32_t)gettid();
		self->gen = 0;
		self->w.site_tag = FXT_SITE_TAG_NONE;
		self->w.chunk_pos = NULL;
		self->w.chunk_limit = NULL;
	}
}

unsigned int fxt_test_registered_threads(void)
{
	struct fxt_thread *t;
	unsigned int n = 0;

	pthread_mutex_lock(&threads_lock);
	for (t = threads; t; t = t->next)
		n++;
	pthread_mutex_unlock(&threads_lock);
	return n;
}
