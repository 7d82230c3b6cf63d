// SPDX-License-Identifier: GPL-2.0-only
/*
 * The archive file, written by a thread of its own: the event loop fills
 * chunks in memory and hands each over whole; the writer thread writes
 * them in order. A frozen or slow disk holds the writer, never the event
 * loop. A chunk is on disk whole or not at all (a failed write is cut
 * back); while the trace runs the writer tries a failing chunk again
 * every second (space may come back), and once the trace ends it tries
 * what is left once and reports the chunks it could not write, by owner,
 * so that the counts say what the archive holds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fxt/fxt.h>

#include "archive.h"
#include "fxt_writer.h"

#define ARCHIVE_TICKS_PER_SECOND 1000000000ull
#define ARCHIVE_NAME_MAX 255u
/* A chunk's first allocation; it grows by doubling. */
#define ARCHIVE_CHUNK_MIN 4096u
/*
 * A chunk at least this large is mapped on its own, in huge pages where
 * the kernel has them: a provider's whole buffer is copied into one, and
 * its first touch costs a fault per 2 MiB instead of per page.
 */
#define ARCHIVE_CHUNK_MAPPED (2u * 1024u * 1024u)

/*
 * A long visit is handed over in pieces while it is still being filled
 * (archive_hand_over()): each piece borrows its bytes from the open
 * chunk, which skips them and, queued after its pieces, is freed last.
 */
struct chunk {
	struct chunk *next;
	uint32_t owner;
	uint64_t records;
	size_t len, cap;
	size_t skip;		/* the first bytes, handed over in pieces */
	bool borrowed;		/* a piece: data is another chunk's */
	char *data;		/* mapped when cap >= ARCHIVE_CHUNK_MAPPED */
};

struct archive {
	int fd;

	/* The event loop's side. */
	struct chunk *open;	/* being filled; NULL: none */
	uint64_t bytes;		/* written, queued and open */
	uint64_t open_start;	/* where the open chunk begins */
	size_t queue_max;	/* while tracing; SIZE_MAX once finishing */
	uint64_t not_queued;	/* writes refused: the queue was full */
	sd_event_source *done_source;
	archive_done_fn done;
	void *done_userdata;
	int done_fd;

	/* Shared with the writer thread, under lock. */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool thread_started;
	struct chunk *head, **tail;
	size_t queued;		/* bytes in the queue */
	bool finishing, quit, finished;
	int error;		/* the first write error */
	bool failing;		/* the last write failed */
	uint64_t failures;
	uint64_t written;
	int finish_error;	/* of fsync() */
	char *spare;		/* a written chunk's mapping, for the next */
	size_t spare_cap;
	struct archive_lost *lost;
	size_t nlost;
	/* Resumed: the providers whose info the file holds already. */
	uint32_t *known_ids;
	size_t nknown;
};

static void chunk_free(struct chunk *c)
{
	if (!c)
		return;
	if (c->cap >= ARCHIVE_CHUNK_MAPPED)
		munmap(c->data, c->cap);
	else if (!c->borrowed)
		free(c->data);
	free(c);
}

/* The bytes c puts in the file. */
static size_t chunk_bytes(const struct chunk *c)
{
	return c->len - c->skip;
}

/*
 * A written chunk's mapping is kept for the next large chunk (under the
 * lock): pages the process already has cost no faults and no zeroing,
 * and on a stop the event loop fills one provider's chunk while the
 * writer writes the last. The larger of two is kept.
 */
static void chunk_retire(struct archive *a, struct chunk *c)
{
	if (c->cap >= ARCHIVE_CHUNK_MAPPED && c->cap > a->spare_cap) {
		if (a->spare)
			munmap(a->spare, a->spare_cap);
		a->spare = c->data;
		a->spare_cap = c->cap;
		c->data = NULL;
		c->cap = 0;
	}
	chunk_free(c);
}

/* The spare mapping if it holds cap bytes; NULL otherwise. */
static char *take_spare(struct archive *a, size_t *cap)
{
	char *data = NULL;

	pthread_mutex_lock(&a->lock);
	if (a->spare && a->spare_cap >= *cap) {
		data = a->spare;
		*cap = a->spare_cap;
		a->spare = NULL;
		a->spare_cap = 0;
	}
	pthread_mutex_unlock(&a->lock);
	return data;
}

/* Grows c's data to cap bytes, keeping its contents. */
static int chunk_grow(struct archive *a, struct chunk *c, size_t cap)
{
	char *data;

	if (cap < ARCHIVE_CHUNK_MAPPED) {
		data = realloc(c->data, cap);
		if (!data)
			return -ENOMEM;
	} else if (c->cap >= ARCHIVE_CHUNK_MAPPED) {
		data = mremap(c->data, c->cap, cap, MREMAP_MAYMOVE);
		if (data == MAP_FAILED)
			return -ENOMEM;
	} else {
		data = take_spare(a, &cap);
		if (!data)
			data = mmap(NULL, cap, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (data == MAP_FAILED)
			return -ENOMEM;
		memcpy(data, c->data, c->len);
		free(c->data);
	}
	if (cap >= ARCHIVE_CHUNK_MAPPED)
		(void)madvise(data, cap, MADV_HUGEPAGE);
	c->data = data;
	c->cap = cap;
	return 0;
}

/* Whole or not at all: a chunk that fails is cut back. */
static int write_chunk(int fd, const struct chunk *c, uint64_t at)
{
	const char *p = c->data + c->skip;
	size_t len = chunk_bytes(c);
	int r;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			/* If this fails too, the reader reports a torn record. */
			if (ftruncate(fd, (off_t)at) == 0)
				(void)lseek(fd, (off_t)at, SEEK_SET);
			return r;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void count_lost(struct archive *a, const struct chunk *c)
{
	struct archive_lost *l;
	size_t i;

	for (i = 0; i < a->nlost; i++)
		if (a->lost[i].owner == c->owner)
			break;
	if (i == a->nlost) {
		l = realloc(a->lost, (a->nlost + 1) * sizeof(*l));
		if (!l)
			return;
		a->lost = l;
		a->lost[a->nlost++] = (struct archive_lost){ .owner = c->owner };
	}
	a->lost[i].records += c->records;
	a->lost[i].bytes += chunk_bytes(c);
}

static void wait_retry(struct archive *a)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ARCHIVE_RETRY_SECONDS;
	(void)pthread_cond_timedwait(&a->wake, &a->lock, &ts);
}

static void *writer(void *userdata)
{
	struct archive *a = userdata;
	uint64_t one = 1;

	pthread_mutex_lock(&a->lock);
	while (!a->quit) {
		struct chunk *c = a->head;
		bool finishing = a->finishing;
		int r;

		if (!c && !finishing) {
			pthread_cond_wait(&a->wake, &a->lock);
			continue;
		}
		if (!c) {
			pthread_mutex_unlock(&a->lock);
			r = fsync(a->fd) < 0 ? -errno : 0;
			pthread_mutex_lock(&a->lock);
			a->finish_error = r;
			a->finished = true;
			break;
		}
		pthread_mutex_unlock(&a->lock);
		r = write_chunk(a->fd, c, a->written);
		pthread_mutex_lock(&a->lock);
		if (r < 0) {
			if (!a->error)
				a->error = r;
			a->failing = true;
			a->failures++;
			if (!a->finishing) {
				wait_retry(a);
				continue;
			}
			/* Finishing: what is left cannot follow a gap. */
			while ((c = a->head)) {
				a->head = c->next;
				a->queued -= chunk_bytes(c);
				count_lost(a, c);
				chunk_free(c);
			}
			a->tail = &a->head;
			continue;
		}
		a->failing = false;
		a->written += chunk_bytes(c);
		a->head = c->next;
		if (!a->head)
			a->tail = &a->head;
		a->queued -= chunk_bytes(c);
		chunk_retire(a, c);
	}
	pthread_mutex_unlock(&a->lock);
	if (a->finished)
		(void)write(a->done_fd, &one, sizeof(one));
	return NULL;
}

/*
 * The controller opened the file with its own rights and passed it: we
 * never open a path, so we cannot write where the controller could not.
 * Anything but a regular file opened for writing is refused (a FIFO
 * would block the writer).
 */
int archive_open(int fd, size_t queue_max, struct archive **ret)
{
	struct archive *a;
	struct stat st;
	int flags;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0)
		return -errno;
	if ((flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->fd = fd;
	a->done_fd = -1;
	a->queue_max = queue_max;
	a->tail = &a->head;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	*ret = a;
	return 0;
}

static int start_writer(struct archive *a)
{
	int r;

	a->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->done_fd < 0)
		return -errno;
	r = -pthread_create(&a->thread, NULL, writer, a);
	if (r < 0)
		return r;
	a->thread_started = true;
	return 0;
}

static int write_magic(struct archive *a)
{
	int r = archive_write(a, &(uint64_t){ fxt_magic_record() },
			      sizeof(uint64_t));

	return r < 0 ? r : archive_commit(a, 0, 1);
}

int archive_begin(struct archive *a)
{
	int r;

	if (ftruncate(a->fd, 0) < 0 || lseek(a->fd, 0, SEEK_SET) < 0)
		return -errno;
	r = start_writer(a);
	return r < 0 ? r : write_magic(a);
}

/*
 * The length of the whole records at the start of the file, by their
 * headers alone: a record is whole when the file holds all of it.
 */
static void note_known(struct archive *a, uint64_t header)
{
	uint32_t *ids;

	if (FXT_GET(header, FXT_HDR_TYPE) != FXT_RECORD_METADATA ||
	    FXT_GET(header, FXT_META_TYPE) != FXT_METADATA_PROVIDER_INFO)
		return;
	ids = reallocarray(a->known_ids, a->nknown + 1, sizeof(*ids));
	if (!ids)
		return;	/* the worst: its info written twice */
	a->known_ids = ids;
	a->known_ids[a->nknown++] = FXT_GET(header, FXT_META_PROVIDER_ID);
}

static bool known(const struct archive *a, uint32_t id)
{
	size_t i;

	for (i = 0; i < a->nknown; i++)
		if (a->known_ids[i] == id)
			return true;
	return false;
}

static int whole_records_length(struct archive *a, uint64_t *ret)
{
	int fd = a->fd;
	uint64_t block[512], off = 0, size;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	size = (uint64_t)st.st_size;
	for (;;) {
		uint64_t base = off;
		ssize_t n = pread(fd, block, sizeof(block), (off_t)base);

		if (n < 0)
			return -errno;
		if (n < (ssize_t)sizeof(uint64_t))
			break;
		/* Headers in this block; the next read starts at the next one. */
		while (off + sizeof(uint64_t) <= base + (uint64_t)n) {
			uint64_t bytes = fxt_record_bytes(block[(off - base) / 8]);

			if (!bytes || off + bytes > size)
				goto done;
			note_known(a, block[(off - base) / 8]);
			off += bytes;
		}
	}
done:
	*ret = off;
	return 0;
}

int archive_resume(struct archive *a, uint64_t *kept)
{
	uint64_t end;
	int r;

	r = whole_records_length(a, &end);
	if (r < 0)
		return r;
	/* Without the magic number record first, nothing is ours to keep. */
	if (end) {
		uint64_t magic;

		if (pread(a->fd, &magic, sizeof(magic), 0) != sizeof(magic) ||
		    magic != fxt_magic_record())
			end = 0;
	}
	if (!end)
		a->nknown = 0;
	if (ftruncate(a->fd, (off_t)end) < 0 ||
	    lseek(a->fd, (off_t)end, SEEK_SET) < 0)
		return -errno;
	a->written = a->bytes = a->open_start = end;
	*kept = end;
	r = start_writer(a);
	if (r >= 0 && !end)
		r = write_magic(a);
	return r;
}

static void stop_thread(struct archive *a)
{
	if (!a->thread_started)
		return;
	pthread_mutex_lock(&a->lock);
	a->quit = true;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	a->thread_started = false;
}

int archive_close(struct archive *a)
{
	struct chunk *c;
	int r;

	if (!a)
		return 0;
	stop_thread(a);
	while ((c = a->head)) {
		a->head = c->next;
		chunk_free(c);
	}
	chunk_free(a->open);
	if (a->spare)
		munmap(a->spare, a->spare_cap);
	sd_event_source_disable_unref(a->done_source);
	if (a->done_fd >= 0)
		close(a->done_fd);
	r = close(a->fd) < 0 ? -errno : 0;
	free(a->lost);
	free(a->known_ids);
	pthread_cond_destroy(&a->wake);
	pthread_mutex_destroy(&a->lock);
	free(a);
	return r;
}

static int reserve(struct archive *a, size_t len)
{
	struct chunk *c = a->open;
	size_t queued, cap;

	pthread_mutex_lock(&a->lock);
	queued = a->queued;
	pthread_mutex_unlock(&a->lock);
	if (queued + (c ? chunk_bytes(c) : 0) + len > a->queue_max) {
		a->not_queued++;
		return -ENOBUFS;
	}
	/* Pieces borrow the open chunk's bytes: it must not move. */
	if (c && c->skip && c->len + len > c->cap) {
		(void)archive_hand_over(a, c->owner, 0);
		(void)archive_commit(a, c->owner, 0);
		c = NULL;
	}
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return -ENOMEM;
		a->open = c;
		a->open_start = a->bytes;
	}
	if (c->len + len <= c->cap)
		return 0;
	cap = c->cap ? c->cap : ARCHIVE_CHUNK_MIN;
	while (cap < c->len + len)
		cap *= 2;
	/* A large area is copied whole: no room for doubling past it. */
	if (cap >= ARCHIVE_CHUNK_MAPPED && len >= ARCHIVE_CHUNK_MAPPED)
		cap = (c->len + len + ARCHIVE_CHUNK_MAPPED - 1) &
		      ~(size_t)(ARCHIVE_CHUNK_MAPPED - 1);
	return chunk_grow(a, c, cap);
}

int archive_reserve(struct archive *a, size_t len, void **room)
{
	int r = reserve(a, len);

	if (r < 0)
		return r;
	*room = a->open->data + a->open->len;
	return 0;
}

void archive_wrote(struct archive *a, size_t len)
{
	a->open->len += len;
	a->bytes += len;
}

int archive_write(struct archive *a, const void *data, size_t len)
{
	void *room;
	int r = archive_reserve(a, len, &room);

	if (r < 0)
		return r;
	memcpy(room, data, len);
	archive_wrote(a, len);
	return 0;
}

static void queue_chunk(struct archive *a, struct chunk *c)
{
	pthread_mutex_lock(&a->lock);
	*a->tail = c;
	a->tail = &c->next;
	a->queued += chunk_bytes(c);
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
}

int archive_commit(struct archive *a, uint32_t owner, uint64_t records)
{
	struct chunk *c = a->open;

	if (!c)
		return 0;
	a->open = NULL;
	if (!c->len) {
		chunk_free(c);
		return 0;
	}
	c->owner = owner;
	c->records = records;
	/* Queued even when its pieces took all: it frees their bytes. */
	queue_chunk(a, c);
	return 0;
}

int archive_hand_over(struct archive *a, uint32_t owner, uint64_t records)
{
	struct chunk *c = a->open, *piece;

	if (!c || !chunk_bytes(c))
		return 0;
	piece = calloc(1, sizeof(*piece));
	if (!piece)
		return -ENOMEM;
	*piece = (struct chunk){
		.owner = owner,
		.records = records,
		.len = chunk_bytes(c),
		.borrowed = true,
		.data = c->data + c->skip,
	};
	c->owner = owner;
	c->skip = c->len;
	queue_chunk(a, piece);
	return 0;
}

int archive_cut_back(struct archive *a, uint64_t mark)
{
	if (a->bytes == mark)
		return 0;
	/* Only what was not handed over yet can be taken back. */
	if (!a->open || mark < a->open_start + a->open->skip)
		return -EINVAL;
	a->open->len = (size_t)(mark - a->open_start);
	a->bytes = mark;
	return 0;
}

static int on_done(sd_event_source *s, int fd, uint32_t revents,
		   void *userdata)
{
	struct archive *a = userdata;
	uint64_t n;

	(void)read(fd, &n, sizeof(n));
	a->done_source = sd_event_source_disable_unref(a->done_source);
	pthread_join(a->thread, NULL);
	a->thread_started = false;
	a->done(a, a->finish_error, a->lost, a->nlost, a->done_userdata);
	return 0;
}

int archive_finish(struct archive *a, sd_event *event, archive_done_fn done,
		   void *userdata)
{
	int r;

	(void)archive_commit(a, 0, 0);
	a->done = done;
	a->done_userdata = userdata;
	r = sd_event_add_io(event, &a->done_source, a->done_fd, EPOLLIN,
			    on_done, a);
	if (r < 0)
		return r;
	(void)sd_event_source_set_description(a->done_source,
					      "fxt-archive-written");
	pthread_mutex_lock(&a->lock);
	a->finishing = true;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->lock);
	return 0;
}

void archive_unbound(struct archive *a)
{
	a->queue_max = SIZE_MAX;
}

bool archive_is_unbound(const struct archive *a)
{
	return a->queue_max == SIZE_MAX;
}

bool archive_queue_busy(struct archive *a)
{
	size_t queued;

	pthread_mutex_lock(&a->lock);
	queued = a->queued;
	pthread_mutex_unlock(&a->lock);
	return queued > a->queue_max / 2;
}

/* The manager's own records, encoded by the writer, then appended. */
static int write_records(struct archive *a, struct fxt_writer *w)
{
	int r = fxt_writer_error(w);

	if (!r)
		r = archive_write(a, fxt_writer_data(w), fxt_writer_size(w));
	fxt_writer_release(w);
	return r;
}

int archive_begin_section(struct archive *a, uint32_t id, const char *name,
			  bool *visited, bool with_init)
{
	struct fxt_writer w;
	int r;

	fxt_writer_init(&w);
	if (*visited || known(a, id))
		fxt_write_provider_section(&w, id);
	else
		fxt_write_provider_info(&w, id, name,
					strnlen(name, ARCHIVE_NAME_MAX));
	if (with_init)
		fxt_write_init(&w, ARCHIVE_TICKS_PER_SECOND);
	r = write_records(a, &w);
	if (r < 0)
		return r;
	*visited = true;
	return 0;
}

int archive_write_provider_event(struct archive *a, uint32_t id,
				 enum fxt_provider_event event)
{
	struct fxt_writer w;

	fxt_writer_init(&w);
	fxt_write_provider_event(&w, id, event);
	return write_records(a, &w);
}

int archive_fd(const struct archive *a)
{
	return a->fd;
}

uint64_t archive_bytes(const struct archive *a)
{
	return a->bytes;
}

void archive_state(struct archive *a, struct archive_state *st)
{
	struct stat s;

	pthread_mutex_lock(&a->lock);
	st->error = a->error;
	st->failing = a->failing;
	st->failures = a->failures;
	st->written = a->written;
	st->queued = a->queued;
	pthread_mutex_unlock(&a->lock);
	st->not_queued = a->not_queued;
	st->removed = fstat(a->fd, &s) == 0 && s.st_nlink == 0;
}
