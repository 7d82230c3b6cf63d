// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The link to the trace manager: one background thread per process,
 * started by the first call site evaluated (never by a constructor, so a
 * program that links the library but never traces gets no thread).
 *
 * The thread connects to $FXTRACE_SOCKET (default FXT_MANAGER_SOCKET),
 * says HELLO, then waits for the manager's messages: BUFFER (a memfd,
 * mapped here), START, STOP, TERMINATE, SAVED; between them it writes
 * each page of a new buffer once, ahead of the writers (buffer.c: the
 * first 10 ms of it before the trace starts here, the rest 1 ms at a
 * time). Without a manager it tries again once a second, forever; one
 * failed connect() a second is its whole cost. It never prints and never blocks the application:
 * application threads only ever send SAVE, with MSG_DONTWAIT.
 *
 * A manager that goes away during a trace may come back (restarted by
 * systemd): the trace goes on here, into the buffer, and the thread
 * reconnects with RESUME, handing the buffer back; the socket's number
 * stays the same (the new connection is dup'ed onto it), so the buffer's
 * SAVE requests go to the new manager. A SAVE that found no manager is
 * kept and sent again.
 *
 * fork(): the child forgets the trace (it must not write into the
 * parent's buffer), closes its copy of the socket, and connects as a new
 * provider when it next evaluates a call site.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <fxt/fxt_msg.h>

#include "buffer.h"
#include "clock.h"
#include "early.h"
#include "intern.h"
#include "macro.h"
#include "session.h"
#include "test_hooks.h"
#include "thread.h"
#include "transport.h"

/*
 * Writing a new buffer's pages once (buffer.c): as much as this before a
 * trace starts here, then this much at a time between messages.
 */
#define TOUCH_START_NS 10000000ull
#define TOUCH_SLICE_NS 1000000ull

/* Rules: under transport_lock, except where the background thread owns. */
static pthread_mutex_t transport_lock = PTHREAD_MUTEX_INITIALIZER;
static bool transport_started;
static bool transport_disabled;
static bool hello_sent;
/* Rules: under name_lock, which writers take (transport_lock they never). */
static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;
static char provider_name[FXT_PROVIDER_NAME_MAX];
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/*
 * $FXTRACE_START_WAIT_MS: how long call sites wait for the first
 * connection attempt to settle (a trace joined, or no manager, or a
 * manager that is not tracing). Unset or 0: no wait. Every thread that
 * reaches a call site meanwhile waits, not only the one that started the
 * connection (its events would be lost, uncounted: no buffer exists yet),
 * and all until the same deadline, so the process waits that long at
 * most. Then transport_ready: call sites never wait again.
 */
static pthread_cond_t settled_cond;	/* CLOCK_MONOTONIC (init_settled_cond) */
static struct timespec settle_deadline;	/* rules: under transport_lock */
/* Settled, past the deadline, or no wait: set under transport_lock. */
static bool transport_ready;
/* The first attempt settled: set under transport_lock. */
static bool transport_settled;

/* Owned by the background thread (and by the fork child handler). */
static int manager_fd = -1;
static struct fxt_buffer *buffer;
static struct fxt_session *session;
/* The manager's socket while a trace runs here, for fxt_trigger(); -1. */
static _Atomic int trigger_fd = -1;

/*
 * Streaming, per half: generation + 1 of the fill whose SAVE got no
 * SAVED yet, and of the last fill SAVED (0: none). Application threads
 * set pending_save (send_save), the background thread the rest.
 */
static _Atomic uint64_t pending_save[2], saved_generation[2];

/* Test hooks' session (no manager). */
static struct fxt_session *test_session;

union fxt_msg_any {
	struct fxt_msg_header hdr;
	struct fxt_msg_provider_hello hello;
	struct fxt_msg_buffer buffer;
	struct fxt_msg_start start;
	struct fxt_msg_save save;
	struct fxt_msg_provider_resume resume;
	uint8_t bytes[2048];
};

FXT_EXPORT int fxt_provider_init(const char *name)
{
	int r = 0;

	if (!name || !*name)
		return -EINVAL;
	pthread_mutex_lock(&name_lock);
	if (hello_sent && strncmp(name, provider_name, sizeof(provider_name) - 1))
		r = -EALREADY;
	else
		strncpy(provider_name, name, sizeof(provider_name) - 1);
	pthread_mutex_unlock(&name_lock);
	return r;
}

/* The name (the program's unless set); for HELLO, it is final then. */
static void copy_name(char name[FXT_PROVIDER_NAME_MAX], bool hello)
{
	pthread_mutex_lock(&name_lock);
	if (!provider_name[0])
		strncpy(provider_name, program_invocation_short_name,
			sizeof(provider_name) - 1);
	memcpy(name, provider_name, FXT_PROVIDER_NAME_MAX);
	hello_sent |= hello;
	pthread_mutex_unlock(&name_lock);
}

static int send_simple(int fd, unsigned int type)
{
	struct fxt_msg_header h;

	fxt_msg_init(&h, type, sizeof(h));
	return fxt_msg_send(fd, &h, sizeof(h), -1);
}

/*
 * The buffer's request to save a full half (fxt_buffer_save_fn); ctx is
 * the manager's socket, non-blocking: an application thread never waits.
 */
static int send_save(void *ctx, unsigned int half, uint64_t generation)
{
	struct fxt_msg_save m;
	int r;

	fxt_msg_init(&m, FXT_MSG_PROVIDER_SAVE, sizeof(m));
	m.half = half;
	m.generation = generation;
	atomic_store(&pending_save[half], generation + 1);
	r = fxt_msg_send((int)(intptr_t)ctx, &m, sizeof(m), -1);
	/* The manager is gone: the half waits, asked for again on resume. */
	if (r == -EPIPE || r == -ECONNRESET || r == -ENOTCONN)
		return 0;
	if (r < 0)
		atomic_store(&pending_save[half], 0);
	return r;
}

static void forget_saves(void)
{
	unsigned int h;

	for (h = 0; h < 2; h++) {
		atomic_store(&pending_save[h], 0);
		atomic_store(&saved_generation[h], 0);
	}
}

static void on_saved(const struct fxt_msg_save *m)
{
	uint64_t pending = m->generation + 1;

	if (!buffer || m->half > 1)
		return;
	atomic_store(&saved_generation[m->half], m->generation + 1);
	atomic_compare_exchange_strong(&pending_save[m->half], &pending, 0);
	fxt_buffer_saved(buffer, m->half, m->generation);
}

/* A trace on b; its full halves are saved through save_fd (-1: never). */
static struct fxt_session *start_session(struct fxt_buffer *b,
					 unsigned int mode,
					 const char *categories, int save_fd)
{
	char name[FXT_PROVIDER_NAME_MAX];
	struct fxt_session_config c = {
		.mode = (enum fxt_buffering_mode)mode,
		.categories = categories,
		.provider_name = name,
		.save = save_fd >= 0 ? send_save : NULL,
		.save_ctx = (void *)(intptr_t)save_fd,
	};

	copy_name(name, false);
	/* The head of the buffer before events come, the rest in serve(). */
	fxt_buffer_touch(b, fxt_clock_gettime_ns() + TOUCH_START_NS);
	return fxt_session_start(b, &c);
}

static int send_hello(int fd)
{
	struct fxt_msg_provider_hello m;

	fxt_msg_init(&m, FXT_MSG_PROVIDER_HELLO, sizeof(m));
	m.pid = (uint32_t)getpid();
	copy_name(m.name, true);
	m.name[sizeof(m.name) - 1] = 0;
	return fxt_msg_send(fd, &m, sizeof(m), -1);
}

static void settle(void)
{
	/* The first trace joined (on_start) counts what it missed. */
	fxt_early_settled(session);
	pthread_mutex_lock(&transport_lock);
	__atomic_store_n(&transport_ready, true, __ATOMIC_RELEASE);
	transport_settled = true;
	pthread_cond_broadcast(&settled_cond);
	pthread_mutex_unlock(&transport_lock);
}

static void end_session(void)
{
	atomic_store(&trigger_fd, -1);
	if (session) {
		fxt_session_stop(session);
		session = NULL;
	}
}

static void drop_buffer(void)
{
	end_session();
	forget_saves();
	if (buffer) {
		fxt_buffer_unmap(buffer);
		buffer = NULL;	/* never freed: see session.h */
	}
}

/*
 * A buffer anyone could shrink under our mapping would kill the
 * application with SIGBUS: only a memfd sealed against it is mapped.
 */
static bool sealed(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);

	return seals >= 0 && (seals & F_SEAL_SHRINK);
}

static struct fxt_buffer *map_buffer(int fd, uint64_t size)
{
	struct fxt_buffer *b = malloc(sizeof(*b));

	if (b && fxt_buffer_map(b, fd, size) < 0) {
		free(b);
		return NULL;
	}
	return b;
}

static void on_buffer(const struct fxt_msg_buffer *m, int fd)
{
	struct fxt_buffer *b;

	drop_buffer();
	b = sealed(fd) ? map_buffer(fd, m->size) : NULL;
	if (!b) {
		close(fd);
		return;		/* the manager sees no STARTED */
	}
	b->provider_id = m->provider_id;
	buffer = b;
}

static void on_start(int fd, const struct fxt_msg_start *m)
{
	char categories[FXT_CATEGORIES_MAX];

	if (buffer) {
		end_session();
		memcpy(categories, m->categories, sizeof(categories));
		categories[sizeof(categories) - 1] = 0;
		session = start_session(buffer, m->mode, categories, fd);
	}
	if (session) {
		atomic_store(&trigger_fd, fd);
		(void)send_simple(fd, FXT_MSG_PROVIDER_STARTED);
	}
	settle();	/* joined, or no trace here: waiting is over either way */
}

int fxt_transport_send_trigger(const char *name)
{
	int fd = atomic_load(&trigger_fd);
	struct fxt_msg_trigger m;
	int r;

	if (fd < 0)
		return 0;	/* not tracing */
	fxt_msg_init(&m, FXT_MSG_PROVIDER_TRIGGER, sizeof(m));
	strncpy(m.name, name, sizeof(m.name) - 1);
	/* Non-blocking socket: a full one loses the trigger, never waits. */
	r = fxt_msg_send(fd, &m, sizeof(m), -1);
	return r == -EPIPE || r == -ECONNRESET || r == -ENOTCONN ? 0 : r;
}

static size_t msg_min_length(unsigned int type)
{
	switch (type) {
	case FXT_MSG_BUFFER:
		return sizeof(struct fxt_msg_buffer);
	case FXT_MSG_START:
		return sizeof(struct fxt_msg_start);
	case FXT_MSG_SAVED:
		return sizeof(struct fxt_msg_save);
	default:
		return sizeof(struct fxt_msg_header);
	}
}

/* Handle one message; false ends the connection. */
static bool handle_msg(int fd, union fxt_msg_any *m, size_t n, int passed_fd)
{
	const struct fxt_msg_header *h = &m->hdr;

	if (n < msg_min_length(h->type) ||
	    (passed_fd >= 0) != (h->type == FXT_MSG_BUFFER))
		goto bad;
	switch (h->type) {
	case FXT_MSG_BUFFER:
		on_buffer(&m->buffer, passed_fd);
		break;
	case FXT_MSG_START:
		on_start(fd, &m->start);
		break;
	case FXT_MSG_STOP:
		end_session();
		(void)send_simple(fd, FXT_MSG_PROVIDER_STOPPED);
		break;
	case FXT_MSG_TERMINATE:
		drop_buffer();
		break;
	case FXT_MSG_IDLE:
		settle(); /* no trace to join: waiting is over */
		break;
	case FXT_MSG_SAVED:
		on_saved(&m->save);
		break;
	default:
		break;		/* newer manager: ignore what we do not know */
	}
	return true;
bad:
	if (passed_fd >= 0)
		close(passed_fd);
	return false;
}

/*
 * Messages, and between them the buffer's pages written once ahead of
 * the writers (buffer.c), TOUCH_SLICE_NS at a time.
 */
static void serve(int fd)
{
	union fxt_msg_any *m = malloc(sizeof(*m));

	if (!m)
		return;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		bool touch = buffer && fxt_buffer_touch_pending(buffer);
		int passed_fd, r;
		ssize_t n;

		r = poll(&pfd, 1, touch ? 0 : -1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (r == 0) {
			fxt_buffer_touch(buffer, fxt_clock_gettime_ns() +
							 TOUCH_SLICE_NS);
			continue;
		}
		n = fxt_msg_recv(fd, m, sizeof(*m), &passed_fd);
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n <= 0 || !handle_msg(fd, m, (size_t)n, passed_fd))
			break;
	}
	free(m);
}

/* The buffer of a trace the manager left: kept for a manager that resumes it. */
static bool keep_for_resume(void)
{
	return buffer && buffer->hdr && buffer->started;
}

/* A new manager's connection: RESUME with the buffer, then its SAVEs. */
static int resume_connection(int fd)
{
	struct fxt_msg_provider_resume m;
	unsigned int h;
	int r;

	fxt_msg_init(&m, FXT_MSG_PROVIDER_RESUME, sizeof(m));
	m.hello.pid = (uint32_t)getpid();
	copy_name(m.hello.name, true);
	m.hello.name[sizeof(m.hello.name) - 1] = 0;
	m.provider_id = buffer->provider_id;
	m.flags = session ? FXT_RESUME_STARTED : 0;
	for (h = 0; h < 2; h++) {
		m.saved_generation[h] = atomic_load(&saved_generation[h]);
		m.pending_save[h] = atomic_load(&pending_save[h]);
	}
	r = fxt_msg_send(fd, &m, sizeof(m), buffer->fd);
	/* The session's SAVEs go to the socket's number: now this one. */
	if (r >= 0 && dup3(fd, manager_fd, O_CLOEXEC) < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		return r;
	/* A SAVE that found no manager after the snapshot; repeats are harmless. */
	for (h = 0; h < 2 && session; h++) {
		uint64_t g = atomic_load(&pending_save[h]);

		if (g && g != m.pending_save[h])
			(void)send_save((void *)(intptr_t)manager_fd, h, g - 1);
	}
	return 0;
}

static int take_connection(int fd)
{
	int r;

	if (manager_fd >= 0)
		return resume_connection(fd);
	manager_fd = fd;
	r = send_hello(fd);
	if (r < 0) {
		close(fd);
		manager_fd = -1;
	}
	return r;
}

static void *transport_thread(void *arg)
{
	(void)arg;
	for (;;) {
		int fd = fxt_msg_connect_flags(fxt_msg_socket_path(),
					       SOCK_NONBLOCK);

		if (fd < 0)
			settle();	/* no manager: nothing to wait for */
		if (fd >= 0 && take_connection(fd) == 0) {
			serve(manager_fd);
			settle();
			/*
			 * The manager is gone. During a trace, the buffer and
			 * the socket's number wait for one that resumes it;
			 * otherwise what it did not take is lost.
			 */
			if (!keep_for_resume()) {
				drop_buffer();
				close(manager_fd);
				manager_fd = -1;
			}
		}
		sleep(1);
	}
	return NULL;
}

static void init_settled_cond(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	/* The deadline is on CLOCK_MONOTONIC: a clock step cannot stretch it. */
	(void)pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&settled_cond, &attr);
	pthread_condattr_destroy(&attr);
}

/*
 * Lock order: threads_lock first. fxt_quiesce() holds it while waiting
 * for writers, and writers may need any of the others (never it).
 */
static void atfork_prepare(void)
{
	fxt_threads_lock();
	pthread_mutex_lock(&transport_lock);
	pthread_mutex_lock(&name_lock);
	fxt_sites_lock();
	fxt_intern_lock();
}

static void atfork_parent(void)
{
	fxt_intern_unlock();
	fxt_sites_unlock();
	pthread_mutex_unlock(&name_lock);
	pthread_mutex_unlock(&transport_lock);
	fxt_threads_unlock();
}

static void atfork_child(void)
{
	pthread_mutex_init(&transport_lock, NULL);
	pthread_mutex_init(&name_lock, NULL);
	fxt_session_forget();
	fxt_intern_after_fork_child();
	fxt_threads_after_fork_child();
	fxt_buffers_after_fork_child();
	fxt_clock_after_fork_child();
	/* The parent's trace stays the parent's: no write, no unmap race. */
	if (buffer && buffer->hdr)
		munmap(buffer->hdr, buffer->map_size);
	if (buffer && buffer->fd >= 0)
		close(buffer->fd);
	buffer = NULL;
	session = NULL;
	test_session = NULL;
	if (manager_fd >= 0)
		close(manager_fd);
	manager_fd = -1;
	transport_started = false;
	transport_ready = false;
	transport_settled = false;
	fxt_early_after_fork_child();
	hello_sent = false;
	init_settled_cond();
}

static void transport_init_once(void)
{
	init_settled_cond();
	(void)pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static int spawn_thread(void)
{
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t tid;
	int r;

	if (pthread_attr_init(&attr))
		return -ENOMEM;
	(void)pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	(void)pthread_attr_setstacksize(&attr, 64 * 1024);
	/* The application's signals are not ours to receive. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	r = pthread_create(&tid, &attr, transport_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (!r)
		(void)pthread_setname_np(tid, "fxt-provider");
	return -r;
}

static long start_wait_ms(void)
{
	const char *v = secure_getenv(FXT_START_WAIT_ENV);
	char *end;
	long ms;

	if (!v || !*v)
		return 0;
	ms = strtol(v, &end, 10);
	if (*end || ms < 0)
		return 0;
	return ms > 10000 ? 10000 : ms;
}

/* Under transport_lock: the deadline of every wait, ms from now. */
static void set_settle_deadline(long ms)
{
	clock_gettime(CLOCK_MONOTONIC, &settle_deadline);
	settle_deadline.tv_sec += ms / 1000;
	settle_deadline.tv_nsec += (ms % 1000) * 1000000;
	if (settle_deadline.tv_nsec >= 1000000000) {
		settle_deadline.tv_sec++;
		settle_deadline.tv_nsec -= 1000000000;
	}
}

/* Under transport_lock: until the first attempt settles, or the deadline. */
static void wait_settled_locked(void)
{
	while (!transport_ready)
		if (pthread_cond_timedwait(&settled_cond, &transport_lock,
					   &settle_deadline))
			/* The deadline passed: no call site waits again. */
			__atomic_store_n(&transport_ready, true,
					 __ATOMIC_RELEASE);
}

/* Under transport_lock: the background thread runs, or is disabled. */
static bool start_locked(void)
{
	long wait_ms;

	if (transport_started || transport_disabled)
		return true;
	if (spawn_thread() < 0)
		return false;	/* tried again at the next call site */
	__atomic_store_n(&transport_started, true, __ATOMIC_RELEASE);
	/* No socket, no manager: no trace is missed meanwhile. */
	if (access(fxt_msg_socket_path(), F_OK) < 0)
		fxt_early_settled(NULL);
	wait_ms = start_wait_ms();
	if (wait_ms)
		set_settle_deadline(wait_ms);
	else
		__atomic_store_n(&transport_ready, true, __ATOMIC_RELEASE);
	return true;
}

void fxt_transport_ensure_started(void)
{
	if (__atomic_load_n(&transport_started, __ATOMIC_ACQUIRE))
		return;
	(void)pthread_once(&atfork_once, transport_init_once);
	pthread_mutex_lock(&transport_lock);
	(void)start_locked();
	pthread_mutex_unlock(&transport_lock);
}

/*
 * At exit, the events missed before joining a trace are counted only if
 * its START (or IDLE) comes: when some were, wait for it, 1 s at most.
 */
__attribute__((destructor)) static void settle_at_exit(void)
{
	struct timespec deadline;

	if (!fxt_early_pending())
		return;
	pthread_mutex_lock(&transport_lock);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += 1;
	while (transport_started && !transport_disabled && !transport_settled &&
	       !pthread_cond_timedwait(&settled_cond, &transport_lock,
				       &deadline))
		;
	pthread_mutex_unlock(&transport_lock);
}

void fxt_transport_join(void)
{
	if (__atomic_load_n(&transport_ready, __ATOMIC_ACQUIRE))
		return;
	(void)pthread_once(&atfork_once, transport_init_once);
	pthread_mutex_lock(&transport_lock);
	if (transport_disabled)
		__atomic_store_n(&transport_ready, true, __ATOMIC_RELEASE);
	else if (start_locked())
		wait_settled_locked();
	pthread_mutex_unlock(&transport_lock);
}

/* ---- test hooks ----------------------------------------------------- */

void fxt_test_disable_transport(void)
{
	pthread_mutex_lock(&transport_lock);
	transport_disabled = true;
	pthread_mutex_unlock(&transport_lock);
	(void)pthread_once(&atfork_once, transport_init_once);
}

struct fxt_buffer *fxt_test_attach(int memfd, uint64_t size,
				   enum fxt_buffering_mode mode,
				   const char *categories, int save_fd)
{
	struct fxt_buffer *b = map_buffer(memfd, size);

	if (b)
		test_session = start_session(b, mode, categories, save_fd);
	return b;
}

void fxt_test_stop(struct fxt_buffer *b)
{
	if (test_session && test_session->trace.buf == b) {
		fxt_session_stop(test_session);
		test_session = NULL;
	}
	fxt_buffer_stop(b);
}

void fxt_test_detach(struct fxt_buffer *b)
{
	fxt_test_stop(b);
	fxt_buffer_unmap(b);
}

struct fxt_buffer *fxt_test_transport_buffer(void)
{
	return __atomic_load_n(&buffer, __ATOMIC_ACQUIRE);
}
