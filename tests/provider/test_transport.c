// SPDX-License-Identifier: GPL-2.0-only
/*
 * The provider against a fake manager on a real socket: HELLO, BUFFER
 * with the memfd by SCM_RIGHTS, START, streaming SAVE/SAVED while the
 * application writes, STOP/STOPPED, TERMINATE; the buffer handed back
 * (RESUME) after the manager goes away mid-trace; a fork child connecting as a new provider.
 *
 * The fake manager speaks provider_abi.h only; the provider side is the
 * real library with its real background thread.
 */
#include "provider_test.h"

#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>

#define WAIT_LIMIT_MS 30000	/* a hang guard, not a timing check */

static char socket_path[108];
static int listen_fd = -1;

union msg {
	struct fxt_msg_header hdr;
	struct fxt_msg_provider_hello hello;
	struct fxt_msg_save save;
	struct fxt_msg_start start;
	struct fxt_msg_buffer buffer;
	uint8_t bytes[2048];
};

static void header_init(struct fxt_msg_header *h, unsigned int type,
			size_t len)
{
	*h = (struct fxt_msg_header){
		.magic = FXT_PROTO_MAGIC, .version = FXT_PROTO_VERSION,
		.type = (uint16_t)type, .length = (uint32_t)len,
	};
}

static void send_simple(int fd, unsigned int type)
{
	struct fxt_msg_header h;

	header_init(&h, type, sizeof(h));
	assert_int_equal(send(fd, &h, sizeof(h), MSG_NOSIGNAL), sizeof(h));
}

static void send_buffer(int fd, int memfd, uint64_t size)
{
	struct fxt_msg_buffer m = { .size = size, .provider_id = 7 };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct iovec iov = { .iov_base = &m, .iov_len = sizeof(m) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control, .msg_controllen = sizeof(control),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	header_init(&m.hdr, FXT_MSG_BUFFER, sizeof(m));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &memfd, sizeof(int));
	assert_int_equal(sendmsg(fd, &mh, MSG_NOSIGNAL), sizeof(m));
}

static void send_start(int fd, enum fxt_buffering_mode mode,
		       const char *categories)
{
	struct fxt_msg_start m = { .mode = mode };

	header_init(&m.hdr, FXT_MSG_START, sizeof(m));
	strncpy(m.categories, categories, sizeof(m.categories) - 1);
	assert_int_equal(send(fd, &m, sizeof(m), MSG_NOSIGNAL), sizeof(m));
}

/* The next message (waiting for it); its type, or -1 at end of stream. */
static int recv_any(int fd, union msg *m)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	assert_int_equal(poll(&p, 1, WAIT_LIMIT_MS), 1);
	n = recv(fd, m, sizeof(*m), 0);
	if (n <= 0)
		return -1;
	assert_true((size_t)n >= sizeof(m->hdr));
	assert_true(m->hdr.magic == FXT_PROTO_MAGIC);
	assert_int_equal(m->hdr.version, FXT_PROTO_VERSION);
	assert_int_equal(m->hdr.length, n);
	return m->hdr.type;
}

static int accept_provider(pid_t pid, const char *name)
{
	struct pollfd p = { .fd = listen_fd, .events = POLLIN };
	union msg m;
	int fd;

	assert_int_equal(poll(&p, 1, WAIT_LIMIT_MS), 1);
	fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(recv_any(fd, &m), FXT_MSG_PROVIDER_HELLO);
	assert_int_equal(m.hello.pid, pid);
	assert_string_equal(m.hello.name, name);
	return fd;
}

static void wait_enabled(const char *category, bool want)
{
	struct timespec ms = { .tv_nsec = 1000000 };
	int i;

	for (i = 0; i < WAIT_LIMIT_MS; i++) {
		if (fxt_category_enabled(category) == want)
			return;
		nanosleep(&ms, NULL);
	}
	fail_msg("category %s never became %s", category,
		 want ? "enabled" : "disabled");
}

/* ---- streaming ------------------------------------------------------ */

static void wait_other_half_free(void)
{
	struct timespec us = { .tv_nsec = 10000 };
	struct fxt_buffer *b = fxt_test_transport_buffer();
	int i;

	assert_non_null(b);
	for (i = 0; i < WAIT_LIMIT_MS * 100; i++) {
		if (fxt_test_other_half_free(b))
			return;
		nanosleep(&us, NULL);
	}
	fail_msg("the manager never saved the other half");
}

#define STREAM_EVENTS 20000
#define STREAM_HALF 8192

struct stream_manager {
	int conn, stop_fd;
	struct test_buffer buf;
	uint8_t *data;		/* the halves, in the order they were saved */
	size_t len, cap;
	uint64_t saved_gen[2];
	unsigned int saves;
};

/* The records of a half's n bytes of chunks. */
static void append(struct stream_manager *sm, const void *p, size_t n)
{
	if (sm->len + n > sm->cap) {
		sm->cap = (sm->len + n) * 2;
		sm->data = realloc(sm->data, sm->cap);
		assert_non_null(sm->data);
	}
	sm->len += test_area_records(p, n, sm->buf.hdr->chunk_size,
				     sm->data + sm->len);
}

static const uint8_t *half_base(struct stream_manager *sm, unsigned int h)
{
	return (const uint8_t *)sm->buf.hdr + sm->buf.hdr->rolling_offset[h];
}

static void on_save(struct stream_manager *sm, const struct fxt_msg_save *m)
{
	const struct fxt_buffer_header *h = sm->buf.hdr;
	struct fxt_msg_save reply = *m;

	assert_true(m->half < 2);
	assert_true(m->generation == h->rolling_generation[m->half]);
	append(sm, half_base(sm, m->half), h->rolling_end[m->half]);
	sm->saved_gen[m->half] = m->generation;
	sm->saves++;
	header_init(&reply.hdr, FXT_MSG_SAVED, sizeof(reply));
	assert_int_equal(send(sm->conn, &reply, sizeof(reply), MSG_NOSIGNAL),
			 sizeof(reply));
}

/* After STOPPED: what was not saved yet, older half first. */
static void collect_rest(struct stream_manager *sm)
{
	const struct fxt_buffer_header *h = sm->buf.hdr;
	unsigned int first = h->rolling_generation[1] < h->rolling_generation[0];
	unsigned int i;

	for (i = 0; i < 2; i++) {
		unsigned int half = i ? !first : first;

		if (h->rolling_generation[half] &&
		    h->rolling_generation[half] != sm->saved_gen[half])
			append(sm, half_base(sm, half), h->rolling_end[half]);
	}
}

static void *stream_manager_main(void *arg)
{
	struct stream_manager *sm = arg;
	bool stopping = false;
	union msg m;

	sm->conn = accept_provider(getpid(), "transport-test");
	assert_int_equal(test_buffer_layout(&sm->buf, 1 << 16, STREAM_HALF,
					    true), 0);
	send_buffer(sm->conn, sm->buf.fd, sm->buf.size);
	send_start(sm->conn, FXT_BUFFERING_STREAMING, "net");
	assert_int_equal(recv_any(sm->conn, &m), FXT_MSG_PROVIDER_STARTED);
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = sm->conn, .events = POLLIN },
			{ .fd = sm->stop_fd, .events = POLLIN },
		};

		assert_true(poll(p, stopping ? 1 : 2, WAIT_LIMIT_MS) > 0);
		if (!stopping && p[1].revents) {
			send_simple(sm->conn, FXT_MSG_STOP);
			stopping = true;
			continue;
		}
		switch (recv_any(sm->conn, &m)) {
		case FXT_MSG_PROVIDER_SAVE:
			on_save(sm, &m.save);
			break;
		case FXT_MSG_PROVIDER_STOPPED:
			assert_true(stopping);
			collect_rest(sm);
			send_simple(sm->conn, FXT_MSG_TERMINATE);
			return NULL;
		default:
			fail_msg("unexpected message %u", m.hdr.type);
		}
	}
}

/* Decode durable area + saved and final halves; check the sequence. */
static void check_stream(struct stream_manager *sm)
{
	const struct fxt_buffer_header *h = sm->buf.hdr;
	size_t len = h->durable_end + sm->len;
	uint8_t *data = malloc(len);
	uint64_t events = 0;
	int64_t last = -1;
	struct fxt_reader *r;
	struct fxt_record rec;

	assert_non_null(data);
	memcpy(data, (const uint8_t *)h + h->durable_offset, h->durable_end);
	memcpy(data + h->durable_end, sm->data, sm->len);
	r = test_reader(data, len);
	while (fxt_reader_next(r, &rec) == 1) {
		if (rec.type != FXT_RECORD_EVENT ||
		    !str_is(rec.event.name, "send"))
			continue;
		assert_true((int64_t)rec.args[0].value.u32 > last);
		last = rec.args[0].value.u32;
		events++;
	}
	/*
	 * Each event was handed over or counted as dropped, never lost; of
	 * the drops, the "before" instant, missed before the provider
	 * joined (counted when it did).
	 */
	assert_int_equal(h->records_missed, 1);
	assert_int_equal(events + h->records_dropped - h->records_missed,
			 2 * STREAM_EVENTS);
	assert_true(events >= STREAM_EVENTS);
	assert_int_equal(last, 2 * STREAM_EVENTS - 1);
	fxt_reader_close(r);
	free(data);
}

static int stream_conn = -1;

static void test_streaming_save_saved(void **state)
{
	struct stream_manager sm = { .conn = -1 };
	int stop_pipe[2];
	pthread_t manager;
	uint32_t i;

	(void)state;
	assert_int_equal(pipe(stop_pipe), 0);
	sm.stop_fd = stop_pipe[0];
	assert_int_equal(pthread_create(&manager, NULL, stream_manager_main,
					&sm), 0);
	/* Any call site starts the provider's connection. */
	TRACE_INSTANT("net", "before", TRACE_SCOPE_THREAD);
	wait_enabled("net", true);
	/* Paced: the manager saves each half before the next one fills. */
	for (i = 0; i < STREAM_EVENTS; i++) {
		TRACE_INSTANT("net", "send", TRACE_SCOPE_THREAD,
			      TRACE_ARG_U32("i", i));
		wait_other_half_free();
	}
	/* Unpaced: the writer may outrun the manager; drops are counted. */
	for (; i < 2 * STREAM_EVENTS - 1; i++)
		TRACE_INSTANT("net", "send", TRACE_SCOPE_THREAD,
			      TRACE_ARG_U32("i", i));
	wait_other_half_free();
	TRACE_INSTANT("net", "send", TRACE_SCOPE_THREAD, TRACE_ARG_U32("i", i));
	assert_int_equal(write(stop_pipe[1], "s", 1), 1);
	pthread_join(manager, NULL);
	wait_enabled("net", false);
	/* 20000 events of 24 bytes cannot fit two 8 KiB halves unsaved. */
	assert_true(sm.saves > 0);
	check_stream(&sm);
	stream_conn = sm.conn;
	test_buffer_free(&sm.buf);
	free(sm.data);
	close(stop_pipe[0]);
	close(stop_pipe[1]);
}

/* ---- manager gone, manager back ------------------------------------- */

/* The first message of a provider whose manager went away: RESUME + memfd. */
static int accept_resume(pid_t pid, const char *name,
			 struct fxt_msg_provider_resume *out, int *memfd)
{
	struct pollfd p = { .fd = listen_fd, .events = POLLIN };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct iovec iov = { .iov_base = out, .iov_len = sizeof(*out) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = &control, .msg_controllen = sizeof(control),
	};
	struct cmsghdr *c;
	int fd;

	assert_int_equal(poll(&p, 1, WAIT_LIMIT_MS), 1);
	fd = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(recvmsg(fd, &mh, MSG_CMSG_CLOEXEC), sizeof(*out));
	assert_int_equal(out->hello.hdr.type, FXT_MSG_PROVIDER_RESUME);
	assert_int_equal(out->hello.pid, pid);
	assert_string_equal(out->hello.name, name);
	c = CMSG_FIRSTHDR(&mh);
	assert_non_null(c);
	assert_int_equal(c->cmsg_type, SCM_RIGHTS);
	memcpy(memfd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static void assert_same_file(int a, int b)
{
	struct stat sa, sb;

	assert_int_equal(fstat(a, &sa), 0);
	assert_int_equal(fstat(b, &sb), 0);
	assert_true(sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

/* Event records in a oneshot buffer, up to its end mark. */
static unsigned int count_events(const struct test_buffer *buf)
{
	const uint64_t *w = (const uint64_t *)((const char *)buf->hdr +
					       buf->hdr->rolling_offset[0]);
	uint64_t off = 0, end = buf->hdr->rolling_end[0] / 8;
	unsigned int n = 0;

	while (off < end && w[off]) {
		n += FXT_GET(w[off], FXT_HDR_TYPE) == FXT_RECORD_EVENT;
		off += fxt_record_words(w[off]);
	}
	return n;
}

/*
 * The manager goes away in the middle of a trace: the provider traces on
 * into its buffer (never blocks, never crashes), and hands the buffer
 * back with RESUME when a manager is back; that manager stops the trace
 * as usual. A manager that refuses the buffer (TERMINATE) gets a new
 * provider that joins the trace it runs.
 */
static void test_manager_restart(void **state)
{
	struct test_buffer buf = { .fd = -1 };
	struct fxt_msg_provider_resume resume;
	int conn, memfd;
	union msg m;

	(void)state;
	assert_true(stream_conn >= 0);
	assert_int_equal(test_buffer_layout(&buf, 1 << 16, 1 << 16, false), 0);
	send_buffer(stream_conn, buf.fd, buf.size);
	send_start(stream_conn, FXT_BUFFERING_ONESHOT, "");
	assert_int_equal(recv_any(stream_conn, &m), FXT_MSG_PROVIDER_STARTED);
	wait_enabled("net", true);
	TRACE_INSTANT("net", "while-connected", TRACE_SCOPE_THREAD);
	close(stream_conn);
	stream_conn = -1;
	TRACE_INSTANT("net", "while-alone", TRACE_SCOPE_THREAD);

	conn = accept_resume(getpid(), "transport-test", &resume, &memfd);
	assert_int_equal(resume.provider_id, 7);
	assert_int_equal(resume.flags, FXT_RESUME_STARTED);
	assert_same_file(memfd, buf.fd);
	close(memfd);
	assert_true(fxt_category_enabled("net"));
	TRACE_INSTANT("net", "resumed", TRACE_SCOPE_THREAD);
	send_simple(conn, FXT_MSG_STOP);
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STOPPED);
	wait_enabled("net", false);
	assert_int_equal(count_events(&buf), 3);
	send_simple(conn, FXT_MSG_TERMINATE);
	test_buffer_free(&buf);

	/* Gone again mid-trace; the next manager refuses the buffer. */
	assert_int_equal(test_buffer_layout(&buf, 1 << 16, 1 << 16, false), 0);
	send_buffer(conn, buf.fd, buf.size);
	send_start(conn, FXT_BUFFERING_ONESHOT, "");
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STARTED);
	close(conn);
	test_buffer_free(&buf);
	conn = accept_resume(getpid(), "transport-test", &resume, &memfd);
	close(memfd);
	send_simple(conn, FXT_MSG_TERMINATE);
	wait_enabled("net", false);
	assert_int_equal(test_buffer_layout(&buf, 1 << 16, 1 << 16, false), 0);
	send_buffer(conn, buf.fd, buf.size);
	send_start(conn, FXT_BUFFERING_ONESHOT, "net");
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STARTED);
	wait_enabled("net", true);
	TRACE_INSTANT("net", "rejoined", TRACE_SCOPE_THREAD);
	send_simple(conn, FXT_MSG_STOP);
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STOPPED);
	assert_int_equal(count_events(&buf), 1);
	assert_int_equal(buf.hdr->mode, FXT_BUFFERING_ONESHOT);
	assert_true(buf.hdr->magic == FXT_BUFFER_MAGIC);
	send_simple(conn, FXT_MSG_TERMINATE);
	stream_conn = conn;
	test_buffer_free(&buf);
}

/*
 * A large buffer's pages are written once by the background thread,
 * between messages: STOP is answered meanwhile, and every page is
 * eventually written.
 */
static void test_pages_touched_between_messages(void **state)
{
	struct test_buffer buf = { .fd = -1 };
	struct timespec ms = { .tv_nsec = 1000000 };
	struct fxt_buffer *b;
	uint64_t pages;
	union msg m;
	int i;

	(void)state;
	assert_true(stream_conn >= 0);
	assert_int_equal(test_buffer_layout(&buf, 1 << 16, 64 << 20, false), 0);
	pages = (buf.size + 4095) / 4096;
	send_buffer(stream_conn, buf.fd, buf.size);
	send_start(stream_conn, FXT_BUFFERING_ONESHOT, "net");
	assert_int_equal(recv_any(stream_conn, &m), FXT_MSG_PROVIDER_STARTED);
	b = fxt_test_transport_buffer();
	assert_non_null(b);
	send_simple(stream_conn, FXT_MSG_STOP);
	assert_int_equal(recv_any(stream_conn, &m), FXT_MSG_PROVIDER_STOPPED);
	for (i = 0; i < WAIT_LIMIT_MS && fxt_test_touched(b) < pages; i++)
		nanosleep(&ms, NULL);
	assert_int_equal(fxt_test_touched(b), pages);
	send_simple(stream_conn, FXT_MSG_TERMINATE);
	wait_enabled("net", false);
	test_buffer_free(&buf);
}

/* ---- bad input from the manager ------------------------------------ */

static void send_with_fds(int fd, const void *msg, size_t len, int nfds)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(2 * sizeof(int))];
	} control;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = nfds ? &control : NULL,
		.msg_controllen = nfds ? CMSG_SPACE(nfds * sizeof(int)) : 0,
	};
	int fds[2] = { STDIN_FILENO, STDIN_FILENO };

	if (nfds) {
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	assert_int_equal(sendmsg(fd, &mh, MSG_NOSIGNAL), len);
}

/*
 * A message the provider cannot trust ends the connection (and only
 * that): it says HELLO again a second later, and still works.
 */
static void test_bad_messages_end_connection(void **state)
{
	struct fxt_msg_buffer bm = { .size = 1 << 20 };
	struct fxt_msg_header bad;
	union msg m;
	int conn = stream_conn, i;

	(void)state;
	assert_true(conn >= 0);
	for (i = 0; i < 4; i++) {
		header_init(&bm.hdr, FXT_MSG_BUFFER, sizeof(bm));
		header_init(&bad, FXT_MSG_STOP, sizeof(bad));
		switch (i) {
		case 0:		/* wrong magic */
			bad.magic = 0x12345678;
			send_with_fds(conn, &bad, sizeof(bad), 0);
			break;
		case 1:		/* BUFFER without its memfd */
			send_with_fds(conn, &bm, sizeof(bm), 0);
			break;
		case 2:		/* BUFFER with two fds */
			send_with_fds(conn, &bm, sizeof(bm), 2);
			break;
		case 3:		/* length field disagrees with the datagram */
			bad.length = sizeof(bad) + 8;
			send_with_fds(conn, &bad, sizeof(bad), 0);
			break;
		}
		assert_int_equal(recv_any(conn, &m), -1);
		close(conn);
		conn = accept_provider(getpid(), "transport-test");
	}
	stream_conn = conn;
	assert_false(fxt_category_enabled("net"));
}

/*
 * A memfd the sender could still shrink would be a SIGBUS waiting in the
 * application: the provider does not map it, so START finds no buffer and
 * STOP is answered without a STARTED before it.
 */
static void test_unsealed_buffer_refused(void **state)
{
	struct test_buffer buf = { .fd = -1 };
	int conn = stream_conn;
	union msg m;

	(void)state;
	assert_true(conn >= 0);
	assert_int_equal(test_buffer_create(&buf, 0, 1 << 16, false, false), 0);
	send_buffer(conn, buf.fd, buf.size);
	send_start(conn, FXT_BUFFERING_ONESHOT, "net");
	send_simple(conn, FXT_MSG_STOP);
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STOPPED);
	assert_false(fxt_category_enabled("net"));
	send_simple(conn, FXT_MSG_TERMINATE);
	test_buffer_free(&buf);
}

/* ---- fork ----------------------------------------------------------- */

/* The child of a traced process connects as a provider of its own. */
static void test_fork_child_new_provider(void **state)
{
	struct test_buffer buf = { .fd = -1 };
	struct fxt_reader *r;
	struct fxt_record rec;
	int written[2], status, conn, children_events = 0, firsts = 0;
	uint8_t *data;
	size_t len;
	char c;
	union msg m;
	pid_t child;

	(void)state;
	assert_int_equal(pipe(written), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		TRACE_INSTANT("net", "child-first", TRACE_SCOPE_THREAD);
		wait_enabled("net", true);
		TRACE_INSTANT("net", "child", TRACE_SCOPE_THREAD);
		if (write(written[1], "w", 1) != 1)
			_exit(4);
		wait_enabled("net", false);
		_exit(0);
	}
	conn = accept_provider(child, "transport-test");
	assert_int_equal(test_buffer_layout(&buf, 1 << 16, 1 << 16, false), 0);
	send_buffer(conn, buf.fd, buf.size);
	send_start(conn, FXT_BUFFERING_ONESHOT, "net");
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STARTED);
	assert_int_equal(read(written[0], &c, 1), 1);
	send_simple(conn, FXT_MSG_STOP);
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STOPPED);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	data = test_buffer_collect(&buf, &len);
	r = test_reader(data, len);
	/*
	 * "child-first" connected the child; it joins the trace only if the
	 * trace started before it was checked (a loaded machine may let the
	 * connection and START overtake the child): at most once, first.
	 */
	while (fxt_reader_next(r, &rec) == 1) {
		if (rec.type != FXT_RECORD_EVENT)
			continue;
		assert_true(rec.event.thread.pid == (uint64_t)child);
		if (!children_events && !firsts &&
		    str_is(rec.event.name, "child-first")) {
			firsts++;
			continue;
		}
		assert_str(rec.event.name, "child");
		children_events++;
	}
	assert_int_equal(children_events, 1);
	/* The parent was not part of that trace. */
	assert_false(fxt_category_enabled("net"));
	fxt_reader_close(r);
	free(data);
	close(conn);
	close(written[0]);
	close(written[1]);
	test_buffer_free(&buf);
}

/* With $FXTRACE_START_WAIT_MS the very first event joins the trace. */
static void test_start_wait_keeps_first_event(void **state)
{
	struct test_buffer buf = { .fd = -1 };
	struct fxt_reader *r;
	struct fxt_record rec;
	int written[2], status, conn, first = 0;
	uint8_t *data;
	size_t len;
	char c;
	union msg m;
	pid_t child;

	(void)state;
	assert_int_equal(pipe(written), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		setenv(FXT_START_WAIT_ENV, "10000", 1);
		TRACE_INSTANT("net", "first", TRACE_SCOPE_THREAD);
		if (write(written[1], "w", 1) != 1)
			_exit(4);
		wait_enabled("net", false);
		_exit(0);
	}
	conn = accept_provider(child, "transport-test");
	assert_int_equal(test_buffer_layout(&buf, 1 << 16, 1 << 16, false), 0);
	send_buffer(conn, buf.fd, buf.size);
	send_start(conn, FXT_BUFFERING_ONESHOT, "net");
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STARTED);
	assert_int_equal(read(written[0], &c, 1), 1);
	send_simple(conn, FXT_MSG_STOP);
	assert_int_equal(recv_any(conn, &m), FXT_MSG_PROVIDER_STOPPED);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	data = test_buffer_collect(&buf, &len);
	r = test_reader(data, len);
	while (fxt_reader_next(r, &rec) == 1)
		first += rec.type == FXT_RECORD_EVENT &&
			 str_is(rec.event.name, "first");
	assert_int_equal(first, 1);
	fxt_reader_close(r);
	free(data);
	close(conn);
	close(written[0]);
	close(written[1]);
	test_buffer_free(&buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streaming_save_saved),
		cmocka_unit_test(test_manager_restart),
		cmocka_unit_test(test_pages_touched_between_messages),
		cmocka_unit_test(test_bad_messages_end_connection),
		cmocka_unit_test(test_unsealed_buffer_refused),
		cmocka_unit_test(test_fork_child_new_provider),
		cmocka_unit_test(test_start_wait_keeps_first_event),
	};
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int ret;

	snprintf(socket_path, sizeof(socket_path),
		 "/tmp/fxt-provider-test-%d.sock", getpid());
	strcpy(sa.sun_path, socket_path);
	listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	unlink(socket_path);
	if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&sa,
				  sizeof(sa)) < 0 ||
	    listen(listen_fd, 8) < 0) {
		perror("fake manager socket");
		return 1;
	}
	setenv(FXT_SOCKET_ENV, socket_path, 1);
	fxt_provider_init("transport-test");
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(socket_path);
	return ret;
}
