// SPDX-License-Identifier: GPL-2.0-only
/*
 * A provider that speaks the manager protocol itself (real socket, real
 * memfd), so the manager is tested independently of libprovider, and can
 * be made to misbehave: die mid-trace leaving a torn record, write
 * metadata records it must not write, ignore STOP, and --abuse MODE:
 *   lie      at STOP, end marks far beyond the areas, equal generations,
 *            drop counters at their maximum
 *   drops    once its events are written, drop counters at their maximum
 *   seals    try to resize and re-seal the memfd (must fail), then trace
 *   fds      answer START with three descriptors attached
 *   ctrunc   answer START with more descriptors than the manager takes
 *   version  answer START in another protocol version
 *   length   answer START with a length field that disagrees
 *   save     send SAVE of a half that does not exist
 *   saveflood  streaming: SAVE after SAVE, never reading a SAVED
 *   old-abi  say HELLO in protocol 1, as a library that writes its buffer
 *            record by record (before per-thread chunks): refused
 * The last five must get the connection dropped. --malformed writes, in
 * the middle of the events, an instant whose argument is longer than the
 * record. --ack-after FILE holds
 * STOPPED back until FILE exists, so a test decides when a stop ends.
 *
 * It writes string records "test", "tick", "i" and a thread record, then
 * --events instant events "test"/"tick" with an int64 argument i = 0, 1,
 * ... so a checker can tell exactly which events arrived.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <fxt/fxt.h>
#include <fxt/provider_abi.h>

#include <fxt/fxt_msg.h>

struct options {
	const char *name;
	unsigned long events;
	long crash_after;	/* -1: never */
	bool garbage;
	bool malformed;
	bool ignore_stop;
	bool stay;		/* survive TERMINATE, for another trace */
	bool exit_after;	/* exit once the events are written */
	const char *abuse;
	const char *ack_after;	/* STOPPED only once this file exists */
};

struct area {
	unsigned char *base;
	uint64_t size, used;
};

struct provider {
	struct options o;
	int sock;
	struct fxt_buffer_header *hdr;
	uint64_t map_size;
	enum fxt_buffering_mode mode;
	struct area durable, half[2];
	unsigned int cur;
	bool half_busy[2];	/* streaming: SAVE sent, no SAVED yet */
	uint64_t wraps;
};

static void die(const char *what, int err)
{
	fprintf(stderr, "proto-provider: %s: %s\n", what, strerror(err));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Payload words first, header word last with release ordering. */
static bool put(struct area *a, const uint64_t *words, unsigned int n)
{
	uint64_t *dst;

	if (a->used + n * 8ull > a->size)
		return false;
	dst = (uint64_t *)(a->base + a->used);
	memcpy(dst + 1, words + 1, (n - 1) * 8u);
	__atomic_store_n(dst, words[0], __ATOMIC_RELEASE);
	a->used += n * 8ull;
	return true;
}

static void publish(struct provider *p)
{
	struct fxt_buffer_header *h = p->hdr;

	__atomic_store_n(&h->durable_end, p->durable.used, __ATOMIC_RELEASE);
	__atomic_store_n(&h->rolling_end[p->cur], p->half[p->cur].used,
			 __ATOMIC_RELEASE);
}

static void send_simple(struct provider *p, unsigned int type)
{
	struct fxt_msg_header m;
	int r;

	fxt_msg_init(&m, type, sizeof(m));
	r = fxt_msg_send(p->sock, &m, sizeof(m), -1);
	if (r < 0)
		die("send", -r);
}

static ssize_t recv_msg(struct provider *p, void *buf, size_t cap, int *fd)
{
	struct pollfd pfd = { .fd = p->sock, .events = POLLIN };
	ssize_t n;

	for (;;) {
		n = fxt_msg_recv(p->sock, buf, cap, fd);
		if (n != -EAGAIN)
			break;
		(void)poll(&pfd, 1, -1);
	}
	if (n == 0)
		exit(0);	/* the manager went away */
	if (n < 0)
		die("receive", (int)-n);
	return n;
}

static void switch_to(struct provider *p, unsigned int h)
{
	memset(p->half[h].base, 0, p->half[h].size);
	p->half[h].used = 0;
	p->hdr->rolling_end[h] = 0;
	p->hdr->rolling_generation[h] = ++p->wraps;
	p->cur = h;
}

static void wait_saved(struct provider *p, unsigned int h)
{
	union {
		struct fxt_msg_header hdr;
		struct fxt_msg_save save;
		char buf[FXT_MSG_MAX];
	} m;

	while (p->half_busy[h]) {
		recv_msg(p, m.buf, sizeof(m.buf), NULL);
		if (m.hdr.type == FXT_MSG_SAVED && m.save.half < 2)
			p->half_busy[m.save.half] = false;
	}
}

/* The current half is full: what each mode does about it. */
static bool rotate(struct provider *p)
{
	unsigned int h = p->cur, other = h ^ 1;
	struct fxt_msg_save save;
	int r;

	if (p->mode == FXT_BUFFERING_ONESHOT)
		return false;
	publish(p);
	if (p->mode == FXT_BUFFERING_STREAMING) {
		fxt_msg_init(&save, FXT_MSG_PROVIDER_SAVE, sizeof(save));
		save.half = h;
		save.generation = p->hdr->rolling_generation[h];
		p->half_busy[h] = true;
		r = fxt_msg_send(p->sock, &save, sizeof(save), -1);
		if (r < 0)
			die("send SAVE", -r);
		wait_saved(p, other);
	}
	switch_to(p, other);
	return true;
}

static void drop(struct provider *p, unsigned int words)
{
	p->hdr->records_dropped++;
	p->hdr->bytes_dropped += words * 8u;
}

static void put_event(struct provider *p, const uint64_t *w, unsigned int n)
{
	if (put(&p->half[p->cur], w, n))
		return;
	if (!rotate(p) || !put(&p->half[p->cur], w, n))
		drop(p, n);
}

static void put_string(struct provider *p, uint16_t index, const char *s)
{
	uint64_t w[4] = { 0 };
	uint16_t len = (uint16_t)strlen(s);

	w[0] = fxt_string_header(index, len);
	memcpy(&w[1], s, len);
	if (!put(p->mode == FXT_BUFFERING_ONESHOT ? &p->half[0] : &p->durable,
		 w, 1 + fxt_words(len)))
		drop(p, 1 + fxt_words(len));
}

static void write_names(struct provider *p)
{
	uint64_t thread[3] = { fxt_thread_header(1), (uint64_t)getpid(),
			       (uint64_t)gettid() };

	put_string(p, 1, "test");
	put_string(p, 2, "tick");
	put_string(p, 3, "i");
	if (!put(p->mode == FXT_BUFFERING_ONESHOT ? &p->half[0] : &p->durable,
		 thread, 3))
		drop(p, 3);
}

static void write_event(struct provider *p, uint64_t i)
{
	uint64_t w[4];

	w[0] = fxt_event_header(4, FXT_EVENT_INSTANT, 1, 1, 1, 2);
	w[1] = now_ns();
	w[2] = fxt_arg_header(FXT_ARG_INT64, 2, 3, 0);
	w[3] = i;
	put_event(p, w, 4);
}

/* What a writer killed between its payload and its header leaves. */
static void write_torn_record(struct provider *p)
{
	struct area *a = &p->half[p->cur];

	if (a->used + 32 <= a->size) {
		uint64_t *dst = (uint64_t *)(a->base + a->used);

		dst[1] = now_ns();
		dst[3] = 12345;
	}
}

static void write_metadata_garbage(struct provider *p)
{
	uint64_t w[2] = { fxt_provider_info_header(999, 8), 0 };

	memcpy(&w[1], "imposter", 8);
	put_event(p, w, 2);
}

/* A well-sized record whose argument runs past its end. */
static void write_malformed(struct provider *p)
{
	uint64_t w[4];

	w[0] = fxt_event_header(4, FXT_EVENT_INSTANT, 1, 1, 1, 2);
	w[1] = now_ns();
	w[2] = fxt_arg_header(FXT_ARG_INT64, 3, 3, 0);
	w[3] = 0;
	put_event(p, w, 4);
}

static bool abusing(const struct provider *p, const char *mode)
{
	return p->o.abuse && !strcmp(p->o.abuse, mode);
}

/* The memfd is the manager's: no resizing it, no sealing it shut. */
static void try_seals(struct provider *p, int fd, uint64_t size)
{
	if (ftruncate(fd, 0) == 0 || ftruncate(fd, (off_t)size * 2) == 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) == 0)
		die("the buffer is not sealed", EPERM);
	printf("seals held\n");
	fflush(stdout);
}

static void send_with_fds(struct provider *p, const void *msg, size_t len,
			  unsigned int nfds)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * 16)];
	} control;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = CMSG_SPACE(sizeof(int) * nfds),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	int fds[16];
	unsigned int i;

	for (i = 0; i < nfds; i++)
		fds[i] = STDERR_FILENO;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	if (sendmsg(p->sock, &mh, MSG_NOSIGNAL) < 0)
		die("sendmsg", errno);
}

/* Instead of STARTED, a message the manager must refuse; true if sent. */
static bool send_abusive(struct provider *p)
{
	struct fxt_msg_header h;
	struct fxt_msg_save save;

	fxt_msg_init(&h, FXT_MSG_PROVIDER_STARTED, sizeof(h));
	if (abusing(p, "fds"))
		send_with_fds(p, &h, sizeof(h), 3);
	else if (abusing(p, "ctrunc"))
		send_with_fds(p, &h, sizeof(h), 16);
	else if (abusing(p, "version")) {
		h.version = FXT_PROTO_VERSION + 1;
		send_with_fds(p, &h, sizeof(h), 0);
	} else if (abusing(p, "length")) {
		h.length = sizeof(h) + 8;
		send_with_fds(p, &h, sizeof(h), 0);
	} else if (abusing(p, "saveflood")) {
		unsigned int i;

		fxt_msg_init(&save, FXT_MSG_PROVIDER_SAVE, sizeof(save));
		save.generation = p->hdr->rolling_generation[0];
		/* Until the manager gives up on us: EPIPE. */
		for (i = 0; i < 1000000; i++)
			if (fxt_msg_send(p->sock, &save, sizeof(save), -1) < 0)
				break;
	} else if (abusing(p, "save")) {
		fxt_msg_init(&save, FXT_MSG_PROVIDER_SAVE, sizeof(save));
		save.half = 7;
		send_with_fds(p, &save, sizeof(save), 0);
	} else
		return false;
	printf("abused\n");
	fflush(stdout);
	return true;
}

/* Published ends that lie: the manager must clamp, not trust them. */
static void lie(struct provider *p)
{
	struct fxt_buffer_header *h = p->hdr;

	h->durable_end = ~0ull - 7;
	h->rolling_end[0] = ~0ull - 7;
	h->rolling_end[1] = ~0ull - 7;
	h->rolling_generation[0] = h->rolling_generation[1] = 5;
	h->records_dropped = ~0ull;
	h->bytes_dropped = ~0ull;
	h->records_written = ~0ull;
}

static void map_buffer(struct provider *p, int fd, uint64_t size)
{
	struct fxt_buffer_header *h;

	if (abusing(p, "seals"))
		try_seals(p, fd, size);
	h = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED)
		die("mmap", errno);
	if (h->magic != FXT_BUFFER_MAGIC || h->total_size != size ||
	    h->rolling_offset[0] + h->rolling_size > size)
		die("buffer header", EPROTO);
	p->hdr = h;
	p->map_size = size;
	p->durable = (struct area){ (unsigned char *)h + h->durable_offset,
				    h->durable_size, 0 };
	p->half[0] = (struct area){ (unsigned char *)h + h->rolling_offset[0],
				    h->rolling_size, 0 };
	p->half[1] = (struct area){ (unsigned char *)h + h->rolling_offset[1],
				    h->rolling_offset[1] ? h->rolling_size : 0, 0 };
}

static void run_trace(struct provider *p, enum fxt_buffering_mode mode)
{
	unsigned long i;

	p->mode = mode;
	p->wraps = 0;
	p->half_busy[0] = p->half_busy[1] = false;
	switch_to(p, 0);
	if (send_abusive(p))
		return;
	send_simple(p, FXT_MSG_PROVIDER_STARTED);
	write_names(p);
	for (i = 0; i < p->o.events; i++) {
		if (p->o.garbage && i == p->o.events / 2)
			write_metadata_garbage(p);
		if (p->o.malformed && i == p->o.events / 2)
			write_malformed(p);
		if ((long)i == p->o.crash_after) {
			write_torn_record(p);
			/* Nothing published: the manager reads by headers. */
			kill(getpid(), SIGKILL);
		}
		write_event(p, i);
	}
	if (abusing(p, "drops"))
		p->hdr->records_dropped = p->hdr->bytes_dropped = ~0ull;
	printf("wrote %lu events\n", p->o.events);
	fflush(stdout);
	if (p->o.exit_after) {
		publish(p);
		exit(0);
	}
}

static void handle(struct provider *p)
{
	union {
		struct fxt_msg_header hdr;
		struct fxt_msg_buffer buffer;
		struct fxt_msg_start start;
		struct fxt_msg_save save;
		char buf[FXT_MSG_MAX];
	} m;
	int fd = -1;

	recv_msg(p, m.buf, sizeof(m.buf), &fd);
	switch (m.hdr.type) {
	case FXT_MSG_BUFFER:
		if (fd < 0)
			die("BUFFER without a descriptor", EPROTO);
		map_buffer(p, fd, m.buffer.size);
		return;
	case FXT_MSG_START:
		run_trace(p, m.start.mode);
		return;
	case FXT_MSG_STOP:
		if (p->o.ignore_stop)
			return;
		while (p->o.ack_after && access(p->o.ack_after, F_OK) < 0)
			usleep(10000);
		publish(p);
		if (abusing(p, "lie"))
			lie(p);
		send_simple(p, FXT_MSG_PROVIDER_STOPPED);
		return;
	case FXT_MSG_SAVED:
		if (m.save.half < 2)
			p->half_busy[m.save.half] = false;
		return;
	case FXT_MSG_IDLE:	/* no trace to join now */
		return;
	case FXT_MSG_TERMINATE:
		munmap(p->hdr, p->map_size);
		p->hdr = NULL;
		if (!p->o.stay)
			exit(0);
		return;
	default:
		if (fd >= 0)
			close(fd);
		die("unexpected message", EPROTO);
	}
}

static void parse(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "events", required_argument, NULL, 'e' },
		{ "crash-after", required_argument, NULL, 'c' },
		{ "garbage", no_argument, NULL, 'g' },
		{ "malformed", no_argument, NULL, 'm' },
		{ "ignore-stop", no_argument, NULL, 'i' },
		{ "stay", no_argument, NULL, 's' },
		{ "exit-after-write", no_argument, NULL, 'x' },
		{ "abuse", required_argument, NULL, 'a' },
		{ "ack-after", required_argument, NULL, 'A' },
		{}
	};
	int c;

	o->name = "proto-provider";
	o->events = 100;
	o->crash_after = -1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			o->name = optarg;
			break;
		case 'e':
			o->events = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			o->crash_after = strtol(optarg, NULL, 10);
			break;
		case 'g':
			o->garbage = true;
			break;
		case 'm':
			o->malformed = true;
			break;
		case 'i':
			o->ignore_stop = true;
			break;
		case 's':
			o->stay = true;
			break;
		case 'x':
			o->exit_after = true;
			break;
		case 'a':
			o->abuse = optarg;
			break;
		case 'A':
			o->ack_after = optarg;
			break;
		default:
			fprintf(stderr, "usage: proto-provider [--name N] [--events N] [--crash-after N] [--garbage] [--malformed] [--ignore-stop] [--stay] [--exit-after-write] [--abuse MODE] [--ack-after FILE]\n");
			exit(2);
		}
	}
}

int main(int argc, char **argv)
{
	struct provider p = { 0 };
	struct fxt_msg_provider_hello hello;
	int r;

	parse(argc, argv, &p.o);
	p.sock = fxt_msg_connect(fxt_msg_socket_path());
	if (p.sock < 0)
		die("connect", -p.sock);
	fxt_msg_init(&hello, FXT_MSG_PROVIDER_HELLO, sizeof(hello));
	hello.pid = (__u32)getpid();
	snprintf(hello.name, sizeof(hello.name), "%s", p.o.name);
	if (abusing(&p, "old-abi"))
		hello.hdr.version = 1;
	r = fxt_msg_send(p.sock, &hello, sizeof(hello), -1);
	if (r < 0)
		die("send HELLO", -r);
	printf("connected\n");
	fflush(stdout);
	for (;;)
		handle(&p);
}
