// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The shared trace buffer: reserving space for records, the three
 * buffering modes, and publishing what was written.
 *
 * An event writer takes a chunk of a rolling half (provider_abi.h) with
 * one release fetch_add on the half's bump pointer, then fills it with
 * plain stores to its own state (struct fxt_internal_writer: chunk_pos,
 * chunk_limit) and publishes each record by storing its header word last
 * (fxt_commit()). Durable records take space record by record. Only
 * switching rolling halves and stopping take b->lock. Before either reads
 * or reuses an area it closes the area (sets FXT_AREA_CLOSED in the bump
 * pointer, acq_rel) and waits in fxt_quiesce() for every thread that was
 * writing:
 *
 *   writer                          closer
 *   seq = odd        (A)            fetch_or(bump, CLOSED)  (C, acq_rel)
 *   fetch_add(bump)  (B, release)   load(seq) until even    (D, acquire)
 *   write, commit
 *   seq = even       (E, release)
 *
 * If B comes before C in the bump's modification order, C synchronizes
 * with B, so D sees A (odd) and waits for E; if after, B sees CLOSED and
 * the writer touches nothing. Then the closer takes every thread's chunk
 * back (fxt_threads_drop_chunks()):
 *
 *   writer                          closer
 *   seq = odd        (A)            chunk_limit = NULL      (N)
 *   load chunk_limit (L)            membarrier()            (M)
 *   write, commit                   load(seq) until even    (D)
 *   seq = even       (E)
 *
 * The writer has no fence between A and L (that is the point of chunks);
 * membarrier() puts one in every running thread of the process, so
 * either L sees NULL and the writer asks for a new chunk (B above, which
 * finds the half closed), or D sees A and waits for E. A full area never
 * blocks: the record is dropped and counted (oneshot, streaming without
 * a free half). Without membarrier() (a sandbox may forbid it), every
 * event takes its own space from the bump pointer, as one-record chunks.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fxt/map_huge.h>

#include "buffer.h"
#include "clock.h"
#include "macro.h"
#include "test_hooks.h"
#include "thread.h"

/* Every buffer ever mapped: kept, never freed (session.h). */
static struct fxt_buffer *buffers_all;
static pthread_mutex_t buffers_all_lock = PTHREAD_MUTEX_INITIALIZER;

/* Test hook: buffers mapped from now on are written record by record. */
static bool record_by_record;

/* What API version 2 inline writers see: halves that are always full. */
struct fxt_internal_area fxt_full_areas[2];
const unsigned int fxt_full_current;

static bool area_fits(const struct fxt_area *a, uint64_t off, uint32_t bytes)
{
	return off <= a->size && a->size - off >= bytes;
}

static uint64_t *area_reserve(struct fxt_area *a, uint32_t bytes)
{
	uint64_t off = atomic_fetch_add_explicit(&a->bump, bytes,
						 memory_order_release);

	if (likely(area_fits(a, off, bytes)))
		return (uint64_t *)(a->base + off);
	return NULL;
}

static uint64_t area_close(struct fxt_area *a)
{
	return atomic_fetch_or_explicit(&a->bump, FXT_AREA_CLOSED,
					memory_order_acq_rel) &
	       ~FXT_AREA_CLOSED;
}

/*
 * Bytes taken in a closed, quiesced area: of chunks in a rolling half
 * (their unused tails are zero), of records in the durable area (a
 * reservation that did not fit is zero too).
 */
static uint64_t area_end(struct fxt_area *a)
{
	uint64_t bump = atomic_load_explicit(&a->bump, memory_order_acquire) &
			~FXT_AREA_CLOSED;

	return bump < a->size ? bump : a->size;
}

static void area_reset(struct fxt_area *a, bool open)
{
	atomic_store_explicit(&a->bump, open ? 0 : FXT_AREA_CLOSED,
			      memory_order_release);
}

struct area_count {
	uint64_t records, bytes;
};

/*
 * The records in [0, end) of an area, by the reader's rule of
 * provider_abi.h: chunk 0 (the durable area) ends at a zero header word,
 * a rolling half goes on at the next chunk boundary.
 */
static struct area_count count_records(const struct fxt_area *a,
				       uint64_t end, uint64_t chunk)
{
	struct area_count c = { 0, 0 };
	uint64_t off = 0;

	while (off + FXT_WORD_BYTES <= end) {
		uint64_t w = __atomic_load_n((const uint64_t *)(a->base + off),
					     __ATOMIC_ACQUIRE);
		uint64_t bytes = fxt_record_bytes(w);

		if (!w && chunk) {
			off = fxt_chunk_next(off, chunk);
			continue;
		}
		if (!bytes || bytes > end - off)
			break;
		off += bytes;
		c.records++;
		c.bytes += bytes;
	}
	return c;
}

static uint64_t rolling_records(const struct fxt_buffer *b, unsigned int h,
				uint64_t end)
{
	return count_records(&b->rolling[h], end, b->chunk).records;
}

static bool range_ok(uint64_t off, uint64_t len, uint64_t total)
{
	return off % FXT_WORD_BYTES == 0 && len % FXT_WORD_BYTES == 0 &&
	       off >= FXT_BUFFER_HEADER_SIZE && off <= total &&
	       len <= total - off;
}

static int header_check(const struct fxt_buffer_header *h, uint64_t size)
{
	if (h->magic && h->magic != FXT_BUFFER_MAGIC)
		return -EPROTO;
	if (h->version && h->version != FXT_BUFFER_VERSION)
		return -EPROTO;
	if (h->total_size != size || !h->rolling_size)
		return -EINVAL;
	if (h->chunk_size < FXT_BUFFER_CHUNK_MIN ||
	    h->chunk_size > FXT_BUFFER_CHUNK_MAX ||
	    (h->chunk_size & (h->chunk_size - 1)))
		return -EINVAL;
	if (h->durable_size && !range_ok(h->durable_offset, h->durable_size, size))
		return -EINVAL;
	if (!range_ok(h->rolling_offset[0], h->rolling_size, size))
		return -EINVAL;
	/* Oneshot buffers may leave the second half out. */
	if (h->rolling_offset[1] &&
	    !range_ok(h->rolling_offset[1], h->rolling_size, size))
		return -EINVAL;
	return 0;
}

static void area_init(struct fxt_area *a, uint8_t *map, uint64_t off,
		      uint64_t size)
{
	a->base = size ? map + off : NULL;
	a->size = size;
	area_reset(a, false);
}

int fxt_buffer_map(struct fxt_buffer *b, int fd, uint64_t size)
{
	struct fxt_buffer_header *h;
	struct stat st;
	int r;

	if (size < FXT_BUFFER_HEADER_SIZE || size > (1ull << 40))
		return -EINVAL;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < size)
		return -EINVAL;
	/* Populated now, in the background thread, not by the first events;
	 * aligned, for the huge pages of fxt_buffer_touch(). */
	h = fxt_map_huge_aligned(fd, size, MAP_POPULATE);
	if (h == MAP_FAILED)
		return -errno;
	r = header_check(h, size);
	if (r < 0) {
		munmap(h, size);
		return r;
	}
	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->lock, NULL);
	b->hdr = h;
	b->map_size = size;
	b->fd = fd;
	/* The writers' fast path is correct only with the closers' barrier. */
	b->chunked = !record_by_record && fxt_threads_barrier_init();
	b->chunk = h->chunk_size;
	area_init(&b->durable, (uint8_t *)h, h->durable_offset, h->durable_size);
	area_init(&b->rolling[0], (uint8_t *)h, h->rolling_offset[0],
		  h->rolling_size);
	area_init(&b->rolling[1], (uint8_t *)h, h->rolling_offset[1],
		  h->rolling_offset[1] ? h->rolling_size : 0);
	pthread_mutex_lock(&buffers_all_lock);
	b->all_next = buffers_all;
	buffers_all = b;
	pthread_mutex_unlock(&buffers_all_lock);
	return 0;
}

static void zero_area(struct fxt_area *a)
{
	if (a->size)
		memset(a->base, 0, a->size);
}

/*
 * Circular: the records of a half about to be reused are lost, counted
 * as dropped like the kernel's overwritten records.
 */
static void count_overwritten(struct fxt_buffer *b, unsigned int half)
{
	struct area_count c;

	if (b->mode != FXT_BUFFERING_CIRCULAR ||
	    !b->hdr->rolling_generation[half])
		return;
	c = count_records(&b->rolling[half], b->hdr->rolling_end[half],
			  b->chunk);
	__atomic_fetch_add(&b->hdr->records_dropped, c.records,
			   __ATOMIC_RELAXED);
	__atomic_fetch_add(&b->hdr->bytes_dropped, c.bytes, __ATOMIC_RELAXED);
}

/* Make half the current one; under lock, the half closed and quiesced. */
static void switch_to(struct fxt_buffer *b, unsigned int half)
{
	struct fxt_area *a = &b->rolling[half];

	count_overwritten(b, half);
	/*
	 * A manager copying this half for a snapshot reads its generation
	 * before and after the copy (provider_abi.h): the half is marked
	 * clearing before the first word is cleared, and gets its new
	 * generation once all are.
	 */
	b->wraps++;
	__atomic_store_n(&b->hdr->rolling_generation[half],
			 b->wraps | FXT_BUFFER_GENERATION_CLEARING,
			 __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	/* A fresh memfd is zero: only a half used before needs clearing. */
	if (b->used[half])
		zero_area(a);
	__atomic_store_n(&b->hdr->rolling_generation[half], b->wraps,
			 __ATOMIC_RELEASE);
	b->used[half] = true;
	b->hdr->rolling_end[half] = 0;
	b->published[half] = false;
	area_reset(a, true);
	atomic_store_explicit(&b->current, half, memory_order_release);
}

/* Circular and streaming need a durable area and both halves. */
static enum fxt_buffering_mode usable_mode(const struct fxt_buffer *b,
					   enum fxt_buffering_mode mode)
{
	if (mode != FXT_BUFFERING_CIRCULAR && mode != FXT_BUFFERING_STREAMING)
		return FXT_BUFFERING_ONESHOT;
	if (!b->rolling[1].size)
		return FXT_BUFFERING_ONESHOT;
	return mode;
}

void fxt_buffer_start(struct fxt_buffer *b, enum fxt_buffering_mode mode,
		      fxt_buffer_save_fn save, void *save_ctx)
{
	struct fxt_buffer_header *h = b->hdr;

	pthread_mutex_lock(&b->lock);
	if (b->started)
		zero_area(&b->durable);
	b->used[0] = b->used[1] = b->started;
	b->started = true;
	b->stopped = false;
	b->mode = usable_mode(b, mode);
	b->save = save;
	b->save_ctx = save_ctx;
	h->magic = FXT_BUFFER_MAGIC;
	h->version = FXT_BUFFER_VERSION;
	h->mode = b->mode;
	h->durable_end = 0;
	h->rolling_end[0] = h->rolling_end[1] = 0;
	h->rolling_generation[0] = h->rolling_generation[1] = 0;
	h->records_dropped = h->bytes_dropped = h->records_written = 0;
	atomic_store(&b->gate, 0);
	b->half_free[0] = b->half_free[1] = true;
	b->published[0] = b->published[1] = true;
	b->wraps = 0;
	area_reset(&b->durable, b->durable.size != 0);
	area_reset(&b->rolling[1], false);
	switch_to(b, 0);
	pthread_mutex_unlock(&b->lock);
}

/*
 * Drops are counted in the shared header at once, so that a provider that
 * dies or exits without a STOP still reports them. The header may only be
 * touched while the buffer is mapped: the fetch_add on b->gate orders
 * this writer against fxt_buffer_stop() like a reservation (see the
 * diagram at the top). Not closed yet: stop will wait for us before anything is
 * unmapped. Closed: the trace is over and the drop is not counted.
 */
void fxt_buffer_count_drop(struct fxt_buffer *b, uint32_t bytes)
{
	uint64_t gate = atomic_fetch_add_explicit(&b->gate, 0,
						  memory_order_release);

	if (gate & FXT_AREA_CLOSED)
		return;
	__atomic_fetch_add(&b->hdr->records_dropped, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&b->hdr->bytes_dropped, bytes, __ATOMIC_RELAXED);
}

void fxt_buffer_count_missed(struct fxt_buffer *b, uint64_t n)
{
	__atomic_fetch_add(&b->hdr->records_missed, n, __ATOMIC_RELAXED);
	__atomic_fetch_add(&b->hdr->records_dropped, n, __ATOMIC_RELAXED);
}

/* Close a rolling half and publish its end; under lock. */
static void close_half(struct fxt_buffer *b, unsigned int half)
{
	struct fxt_area *a = &b->rolling[half];
	uint64_t end;

	area_close(a);
	fxt_quiesce();
	/* Every chunk is in the current half: no thread may keep one. */
	fxt_threads_drop_chunks();
	end = area_end(a);
	/* Circular: counted at stop, over what survived (no walk per wrap). */
	if (b->mode == FXT_BUFFERING_STREAMING)
		b->hdr->records_written += rolling_records(b, half, end);
	__atomic_store_n(&b->hdr->rolling_end[half], end, __ATOMIC_RELEASE);
	b->published[half] = true;
}

/*
 * Streaming: ask the buffer's owner to have a closed half saved. If the
 * request cannot even go out (the manager's queue is full, or it is gone),
 * the half's records are given up, counted as dropped, and the half is
 * free again.
 */
static void hand_over(struct fxt_buffer *b, unsigned int h)
{
	struct fxt_area *a = &b->rolling[h];
	uint64_t end = b->hdr->rolling_end[h];
	struct area_count c;

	b->half_free[h] = false;
	if (b->save &&
	    b->save(b->save_ctx, h, b->hdr->rolling_generation[h]) == 0)
		return;
	c = count_records(a, end, b->chunk);
	b->hdr->records_written -= c.records;
	__atomic_fetch_add(&b->hdr->records_dropped, c.records,
			   __ATOMIC_RELAXED);
	__atomic_fetch_add(&b->hdr->bytes_dropped, c.bytes, __ATOMIC_RELAXED);
	/* Nothing in it is to be read any more, by end mark or by headers. */
	__atomic_store_n(&b->hdr->rolling_end[h], 0, __ATOMIC_RELEASE);
	zero_area(a);
	b->half_free[h] = true;
}

/*
 * Half h (current) has no room for bytes: move events to the other half.
 * Called without being inside a write. Returns true when the caller
 * should retry its reservation.
 */
static bool rotate(struct fxt_buffer *b, unsigned int h, uint32_t bytes)
{
	struct fxt_area *a = &b->rolling[h];
	unsigned int other = h ^ 1;
	uint64_t bump;
	bool retry = true;

	pthread_mutex_lock(&b->lock);
	if (b->stopped || !b->hdr) {
		retry = false;
		goto out;
	}
	bump = atomic_load_explicit(&a->bump, memory_order_relaxed);
	if (atomic_load(&b->current) != h ||
	    (!(bump & FXT_AREA_CLOSED) && area_fits(a, bump, bytes)))
		goto out;	/* someone else rotated already */
	if (!b->published[h]) {
		close_half(b, h);
		if (b->mode == FXT_BUFFERING_STREAMING)
			hand_over(b, h);
	}
	if (b->mode == FXT_BUFFERING_STREAMING && !b->half_free[other]) {
		retry = false;	/* drop until the manager saved it */
		goto out;
	}
	switch_to(b, other);
out:
	pthread_mutex_unlock(&b->lock);
	return retry;
}

void fxt_buffer_saved(struct fxt_buffer *b, unsigned int half,
		      uint64_t generation)
{
	unsigned int cur;

	if (half > 1)
		return;
	pthread_mutex_lock(&b->lock);
	if (b->stopped || !b->hdr || b->mode != FXT_BUFFERING_STREAMING ||
	    b->half_free[half] ||
	    b->hdr->rolling_generation[half] != generation)
		goto out;
	b->half_free[half] = true;
	cur = atomic_load(&b->current);
	/* Events were waiting (dropped) for this half: resume now. */
	if (cur != half && !b->half_free[cur] &&
	    (atomic_load(&b->rolling[cur].bump) & FXT_AREA_CLOSED))
		switch_to(b, half);
out:
	pthread_mutex_unlock(&b->lock);
}

/*
 * Without membarrier(): space for one record, moved to the next chunk
 * boundary rather than across it (a record bigger than a chunk starts at
 * one), so that the reader's rule holds. A compare-exchange, not an add:
 * the skipped tail must stay zero.
 */
static uint64_t take_record(struct fxt_area *a, uint64_t chunk,
			    uint32_t bytes)
{
	uint64_t off = atomic_load_explicit(&a->bump, memory_order_relaxed);
	uint64_t at;

	do {
		if (off & FXT_AREA_CLOSED)
			return off;
		at = off;
		if (off % chunk && off % chunk + bytes > chunk)
			at = fxt_chunk_next(off, chunk);
	} while (!atomic_compare_exchange_weak_explicit(&a->bump, &off,
							at + bytes,
							memory_order_release,
							memory_order_relaxed));
	return at;
}

/*
 * Space for a record of bytes at the start of a new chunk of half h,
 * inside a write; the rest of the chunk becomes the thread's. A record
 * larger than a chunk takes as many as it needs. The chunk that covers
 * the end of the half is cut there.
 */
static uint64_t *take_chunk(struct fxt_thread *t, struct fxt_buffer *b,
			    unsigned int h, uint32_t bytes)
{
	struct fxt_area *a = &b->rolling[h];
	uint64_t take, off, end;
	uint64_t *p;

	if (!b->chunked) {
		off = take_record(a, b->chunk, bytes);
		return area_fits(a, off, bytes) ? (uint64_t *)(a->base + off) :
						  NULL;
	}
	take = (bytes + b->chunk - 1) & ~(b->chunk - 1);
	off = atomic_fetch_add_explicit(&a->bump, take, memory_order_release);
	if (!area_fits(a, off, bytes))
		return NULL;
	end = a->size - off < take ? a->size : off + take;
	p = (uint64_t *)(a->base + off);
	t->w.chunk_pos = p + bytes / FXT_WORD_BYTES;
	__atomic_store_n(&t->w.chunk_limit, (uint64_t *)(a->base + end),
			 __ATOMIC_RELAXED);
	return p;
}

static __attribute__((noinline)) uint64_t *
reserve_event_slow(struct fxt_thread *t, struct fxt_buffer *b, unsigned int h,
		   uint32_t bytes)
{
	uint64_t *p;
	int tries;

	if (b->mode == FXT_BUFFERING_ONESHOT || bytes > b->rolling[h].size)
		goto drop;
	for (tries = 0; tries < 4; tries++) {
		bool retry;

		/* Rotating waits for writers: do not be one meanwhile. */
		fxt_write_leave(t);
		retry = rotate(b, h, bytes);
		fxt_write_enter(t);
		if (!retry)
			break;
		h = atomic_load_explicit(&b->current, memory_order_acquire);
		p = take_chunk(t, b, h, bytes);
		if (p)
			return p;
	}
drop:
	fxt_buffer_count_drop(b, bytes);
	return NULL;
}

/* The thread's chunk is full (or taken back): a new one, else a drop. */
static uint64_t *reserve_chunk(struct fxt_thread *t, struct fxt_buffer *b,
			       uint32_t bytes)
{
	unsigned int h = atomic_load_explicit(&b->current,
					      memory_order_acquire);
	uint64_t *p = take_chunk(t, b, h, bytes);

	if (likely(p))
		return p;
	return reserve_event_slow(t, b, h, bytes);
}

_Static_assert(offsetof(struct fxt_thread, w) == 0,
	       "the writer state begins struct fxt_thread");

FXT_EXPORT uint64_t *fxt_internal_chunk_reserve(struct fxt_internal_writer *w,
						uint32_t bytes)
{
	struct fxt_thread *t = (struct fxt_thread *)w;

	return reserve_chunk(t, t->buf, bytes);
}

/* API version 2 inline writers: their half (fxt_full_areas) is full. */
FXT_EXPORT uint64_t *fxt_internal_reserve_slow(struct fxt_internal_writer *w,
					       unsigned int h, uint64_t offset,
					       uint32_t bytes)
{
	(void)h;
	(void)offset;
	return fxt_internal_chunk_reserve(w, bytes);
}

uint64_t *fxt_reserve_event(struct fxt_thread *t, struct fxt_buffer *b,
			    uint32_t bytes)
{
	uint64_t *p, *limit;

	/* As fxt_fast_reserve(): after the seq store of fxt_write_enter(). */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	p = t->w.chunk_pos;
	limit = __atomic_load_n(&t->w.chunk_limit, __ATOMIC_ACQUIRE);
	if (likely((uintptr_t)p + bytes <= (uintptr_t)limit)) {
		t->w.chunk_pos = p + bytes / FXT_WORD_BYTES;
		return p;
	}
	return reserve_chunk(t, b, bytes);
}

/*
 * Space for a string, thread or name record, which must outlive wrapping
 * and precede the events that use it. NULL when there is no room or no
 * durable area in a wrapping mode: the caller falls back to inline
 * strings and threads. A oneshot buffer without a durable area (the
 * manager always gives one) takes them in the calling thread's chunk:
 * only that thread's later events are sure to follow them.
 */
uint64_t *fxt_buffer_reserve_durable(struct fxt_buffer *b, uint32_t bytes)
{
	struct fxt_thread *t;

	if (b->durable.size)
		return area_reserve(&b->durable, bytes);
	if (b->mode != FXT_BUFFERING_ONESHOT)
		return NULL;
	t = fxt_thread_self();
	return t ? fxt_reserve_event(t, b, bytes) : NULL;
}

void fxt_buffer_stop(struct fxt_buffer *b)
{
	struct fxt_buffer_header *h = b->hdr;
	unsigned int cur;
	uint64_t end;

	pthread_mutex_lock(&b->lock);
	if (b->stopped || !h)
		goto out;
	b->stopped = true;
	atomic_fetch_or_explicit(&b->gate, FXT_AREA_CLOSED, memory_order_acq_rel);
	area_close(&b->durable);
	area_close(&b->rolling[0]);
	area_close(&b->rolling[1]);
	fxt_quiesce();
	fxt_threads_drop_chunks();
	end = b->durable.size ? area_end(&b->durable) : 0;
	h->records_written += count_records(&b->durable, end, 0).records;
	h->durable_end = end;
	cur = atomic_load(&b->current);
	/* A half closed by rotate() has published its end already. */
	if (!b->published[cur]) {
		end = area_end(&b->rolling[cur]);
		h->records_written += rolling_records(b, cur, end);
		h->rolling_end[cur] = end;
		b->published[cur] = true;
		if (b->mode == FXT_BUFFERING_CIRCULAR)
			h->records_written +=
				rolling_records(b, cur ^ 1,
						h->rolling_end[cur ^ 1]);
	}
	/* The STOPPED message carries this to the manager. */
	atomic_thread_fence(memory_order_release);
out:
	pthread_mutex_unlock(&b->lock);
}

void fxt_buffer_unmap(struct fxt_buffer *b)
{
	fxt_buffer_stop(b);
	pthread_mutex_lock(&b->lock);
	if (b->hdr) {
		munmap(b->hdr, b->map_size);
		b->hdr = NULL;
	}
	if (b->fd >= 0) {
		close(b->fd);
		b->fd = -1;
	}
	pthread_mutex_unlock(&b->lock);
}

/*
 * On some VMs (shadow page tables) the first user-mode write to each
 * page of a new mapping costs microseconds even once MAP_POPULATE has
 * faulted it in: the host fills its tables then. The background thread
 * pays it ahead of the writers, a page at a time, with an atomic add of
 * 0 that leaves every byte as a writer or the manager last saw it. From
 * the first rolling half on (where events go first), then around to the
 * header and durable area. A writer that overtakes pays for its pages.
 *
 * Before it writes the pages of a whole 2 MiB range of the mapping, it
 * asks the kernel to collapse them into one huge page (MADV_COLLAPSE,
 * Linux 6.1; allowed for a memfd unless shmem_enabled is "deny"): the
 * kernel copies the range, under its page locks, so no byte changes and
 * a writer meanwhile waits in a fault. The host then fills one entry
 * for the range where it filled 512: on this project's kvm-clock VM a
 * first write costs about 70 ns a page after a collapse of about 0.75
 * ms, against 5-10 us a page before.
 */
#define TOUCH_PAGE 4096ull
#define TOUCH_BATCH 32 /* pages between two looks at the clock */
#define HUGE_RANGE_PAGES (FXT_HUGE_PAGE / TOUCH_PAGE)

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

static void touch_page(uint8_t *p)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("lock addl $0, %0"
			 : "+m"(*(uint32_t *)p)
			 :
			 : "memory");
#else
	__atomic_fetch_add((uint32_t *)p, 0, __ATOMIC_RELAXED);
#endif
}

static uint64_t touch_pages(const struct fxt_buffer *b)
{
	return (b->map_size + TOUCH_PAGE - 1) / TOUCH_PAGE;
}

bool fxt_buffer_touch_pending(const struct fxt_buffer *b)
{
	return b->hdr && b->touched < touch_pages(b);
}

/* The whole 2 MiB range holding page: a huge page, where it can be. */
static void collapse_range(struct fxt_buffer *b, uint64_t page)
{
	uint64_t first = page - page % HUGE_RANGE_PAGES;

	/* Whole ranges only: none in a buffer under 2 MiB (not aligned). */
	if (b->collapse_off ||
	    (first + HUGE_RANGE_PAGES) * TOUCH_PAGE > b->map_size)
		return;
	if (!madvise((uint8_t *)b->hdr + first * TOUCH_PAGE, FXT_HUGE_PAGE,
		     MADV_COLLAPSE))
		__atomic_fetch_add(&b->collapsed, 1, __ATOMIC_RELAXED);
	else if (errno == EINVAL)
		b->collapse_off = true;	/* not on this kernel, or denied */
}

bool fxt_buffer_touch(struct fxt_buffer *b, uint64_t until_ns)
{
	uint64_t pages = touch_pages(b), n = b->touched, first = 0;

	if (b->rolling[0].size)
		first = (uint64_t)(b->rolling[0].base - (uint8_t *)b->hdr) /
			TOUCH_PAGE;

	while (b->hdr && n < pages) {
		unsigned int i;

		for (i = 0; i < TOUCH_BATCH && n < pages; i++, n++) {
			uint64_t page = (first + n) % pages;

			/* Each range once: the first is entered mid-way. */
			if (!n || (page % HUGE_RANGE_PAGES == 0 &&
				   page / HUGE_RANGE_PAGES !=
					   first / HUGE_RANGE_PAGES))
				collapse_range(b, page);
			touch_page((uint8_t *)b->hdr + page * TOUCH_PAGE);
		}
		/* Tests read it from another thread. */
		__atomic_store_n(&b->touched, n, __ATOMIC_RELAXED);
		if (fxt_clock_gettime_ns() >= until_ns)
			break;
	}
	return fxt_buffer_touch_pending(b);
}

void fxt_buffers_after_fork_child(void)
{
	pthread_mutex_init(&buffers_all_lock, NULL);
}

void fxt_test_record_by_record(bool on)
{
	record_by_record = on;
}

void fxt_test_touch(struct fxt_buffer *b, bool again)
{
	if (again) {
		b->touched = 0;
		b->collapsed = 0;
	}
	fxt_buffer_touch(b, UINT64_MAX);
}

uint64_t fxt_test_touched(const struct fxt_buffer *b)
{
	return __atomic_load_n(&b->touched, __ATOMIC_RELAXED);
}

uint64_t fxt_test_collapsed(const struct fxt_buffer *b)
{
	return __atomic_load_n(&b->collapsed, __ATOMIC_RELAXED);
}

const void *fxt_test_mapping(const struct fxt_buffer *b)
{
	return b->hdr;
}

/* Test hook: may events move to the other half without dropping? */
bool fxt_test_other_half_free(struct fxt_buffer *b)
{
	bool free_half;

	pthread_mutex_lock(&b->lock);
	free_half = b->half_free[atomic_load(&b->current) ^ 1];
	pthread_mutex_unlock(&b->lock);
	return free_half;
}
