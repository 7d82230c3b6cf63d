// SPDX-License-Identifier: GPL-2.0-only
/*
 * One dummy software perf event per CPU, system-wide, whose ring brings
 * PERF_RECORD_MMAP2 (executable mappings, with the file's build id from
 * 5.12 on), COMM (exec), FORK and EXIT, each with its pid and
 * CLOCK_BOOTTIME time (sample_id_all). A drain takes every ring's
 * records, orders them by time and applies them to the store
 * (mmap_store.h). The events are opened before /proc is read, so a
 * mapping made meanwhile is seen by one or the other.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "mmap_proc_maps.h"
#include "mmap_store.h"
#include "mmap_tracker.h"
#include "unaligned.h"

/* 256 KiB of records per CPU between drains: thousands of mappings. */
#define RING_PAGES 64
/* The store's caps: ~50 MB at most. */
#define TRACKER_MAPPINGS_MAX (1u << 20)
#define TRACKER_FILES_MAX 65536
#define TRACKER_PATH_BYTES_MAX (16u << 20)

/* sample_id_all with PERF_SAMPLE_TID | PERF_SAMPLE_TIME: each record
 * ends with u32 pid, tid; u64 time.
 */
#define SAMPLE_ID_SIZE 16
/* PERF_RECORD_MMAP2's fixed part after the header, before filename. */
#define MMAP2_FIXED 64

struct ring {
	int fd;
	struct perf_event_mmap_page *meta;
	size_t map_size;
	uint8_t *data;
	uint64_t data_size;
};

/* A record taken from a ring, waiting to be applied in time order. */
struct pending {
	uint64_t ts;
	size_t offset; /* in the tracker's buffer */
	uint32_t seq;
};

struct mmap_tracker {
	struct mmap_store *store;
	struct ring *rings;
	size_t nrings;
	uint64_t lost;
	uint8_t *buf;
	size_t buf_len, buf_cap;
	struct pending *pending;
	size_t npending, pending_cap;
	mmap_tracker_observer observe;
	void *observe_ctx;
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct mmap_tracker *, mmap_tracker_free);

static int open_dummy(int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		/* mmap2 sets the format; without mmap the kernel counts
		 * no listener and sends none (account_event()).
		 */
		.mmap = 1,
		.mmap2 = 1,
		.comm = 1,
		.comm_exec = 1,
		.task = 1,
		.build_id = 1,
		.use_clockid = 1,
		.clockid = CLOCK_BOOTTIME,
		.watermark = 1,
		.wakeup_watermark = RING_PAGES * 4096 / 2,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
			      PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && errno == EINVAL) {
		/* Before 5.12: no build ids in MMAP2 (looked up at stop). */
		attr.build_id = 0;
		fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
				  PERF_FLAG_FD_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

static int ring_open(struct ring *r, int cpu)
{
	long page = sysconf(_SC_PAGESIZE);
	void *map;

	r->fd = open_dummy(cpu);
	if (r->fd < 0)
		return r->fd;
	r->map_size = (size_t)page * (1 + RING_PAGES);
	map = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (map == MAP_FAILED) {
		int err = -errno;

		close(r->fd);
		r->fd = -1;
		return err;
	}
	r->meta = map;
	r->data = (uint8_t *)map + page;
	r->data_size = (uint64_t)page * RING_PAGES;
	return 0;
}

static void ring_close(struct ring *r)
{
	if (r->meta)
		munmap(r->meta, r->map_size);
	if (r->fd >= 0)
		close(r->fd);
}

/* A ring on every CPU that is online (others fail with ENODEV). */
static int open_rings(struct mmap_tracker *t)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, r = -ENODEV;

	if (ncpus < 1)
		ncpus = 1;
	t->rings = calloc((size_t)ncpus, sizeof(*t->rings));
	if (!t->rings)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct ring *ring = &t->rings[t->nrings];
		int err = ring_open(ring, cpu);

		if (err == -ENODEV || err == -ENOENT)
			continue;
		if (err < 0)
			return err;
		t->nrings++;
		r = 0;
	}
	return r;
}

int mmap_tracker_start(struct mmap_tracker **ret)
{
	static const struct mmap_store_limits limits = {
		TRACKER_MAPPINGS_MAX, TRACKER_FILES_MAX, TRACKER_PATH_BYTES_MAX,
	};
	_cleanup_(mmap_tracker_freep) struct mmap_tracker *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	r = mmap_store_new(&limits, &t->store);
	if (r < 0)
		return r;
	r = open_rings(t);
	if (r < 0)
		return r;
	r = mmap_proc_maps_scan(t->store, "/proc");
	if (r < 0)
		return r;
	*ret = TAKE_PTR(t);
	return 0;
}

void mmap_tracker_free(struct mmap_tracker *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nrings; i++)
		ring_close(&t->rings[i]);
	free(t->rings);
	mmap_store_free(t->store);
	free(t->buf);
	free(t->pending);
	free(t);
}

/* Copies len bytes at position pos of the ring (wrapping) to dst. */
static void ring_copy(const struct ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t at = (size_t)(pos % r->data_size);
	size_t first = len < r->data_size - at ? len : (size_t)(r->data_size - at);

	memcpy(dst, r->data + at, first);
	memcpy((uint8_t *)dst + first, r->data, len - first);
}

static int pending_reserve(struct mmap_tracker *t, size_t bytes)
{
	if (t->buf_len + bytes > t->buf_cap) {
		size_t cap = t->buf_cap ? t->buf_cap : 65536;
		uint8_t *buf;

		while (cap < t->buf_len + bytes)
			cap *= 2;
		buf = realloc(t->buf, cap);
		if (!buf)
			return -ENOMEM;
		t->buf = buf;
		t->buf_cap = cap;
	}
	if (t->npending == t->pending_cap) {
		size_t cap = t->pending_cap ? t->pending_cap * 2 : 1024;
		struct pending *p = reallocarray(t->pending, cap, sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->pending = p;
		t->pending_cap = cap;
	}
	return 0;
}

/* Takes one ring's records into the pending list. */
static int ring_take(struct mmap_tracker *t, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;
	int err = 0;

	while (tail < head) {
		struct perf_event_header h;
		uint64_t ts;

		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail) {
			/* Not the kernel's framing: give up this ring's rest. */
			mmap_store_count_drop(t->store);
			tail = head;
			break;
		}
		if (h.size >= sizeof(h) + SAMPLE_ID_SIZE) {
			err = pending_reserve(t, h.size);
			if (err < 0)
				break;
			ring_copy(r, tail, t->buf + t->buf_len, h.size);
			memcpy(&ts, t->buf + t->buf_len + h.size - 8, sizeof(ts));
			t->pending[t->npending] = (struct pending){
				.ts = ts, .offset = t->buf_len, .seq = (uint32_t)t->npending };
			t->npending++;
			t->buf_len += h.size;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void apply_mmap2(struct mmap_tracker *t, const uint8_t *rec, size_t size,
			uint16_t misc, uint64_t ts)
{
	const size_t name_at = sizeof(struct perf_event_header) + MMAP2_FIXED;
	const char *name = (const char *)rec + name_at;
	size_t name_max, name_len, id_len = 0;

	if (size <= name_at + SAMPLE_ID_SIZE) {
		mmap_store_count_drop(t->store);
		return;
	}
	name_max = size - name_at - SAMPLE_ID_SIZE;
	name_len = strnlen(name, name_max);
	/* Executable file mappings only: not [vdso], //anon, ... */
	if (!(u32_at(rec, 64) & PROT_EXEC) || name_len == name_max || name[0] != '/')
		return;
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		id_len = rec[40];
		if (id_len > 20)
			id_len = 0;
	}
	/* Over a cap or refused: counted by the store. */
	if (!mmap_store_add(t->store, u32_at(rec, 8), ts, u64_at(rec, 16),
			    u64_at(rec, 24), u64_at(rec, 32), name, name_len,
			    rec + 44, id_len) &&
	    t->observe)
		t->observe(t->observe_ctx, u32_at(rec, 8), u64_at(rec, 16), ts);
}

void mmap_tracker_set_observer(struct mmap_tracker *t,
			       mmap_tracker_observer fn, void *ctx)
{
	t->observe = fn;
	t->observe_ctx = ctx;
}

static void apply(struct mmap_tracker *t, const uint8_t *rec, uint64_t ts)
{
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_MMAP2:
		apply_mmap2(t, rec, h.size, h.misc, ts);
		break;
	case PERF_RECORD_COMM:
		if (h.misc & PERF_RECORD_MISC_COMM_EXEC)
			mmap_store_exec(t->store, u32_at(rec, 8), ts);
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: a new process, not a thread. */
		if (h.size >= 32 && u32_at(rec, 8) == u32_at(rec, 16))
			(void)mmap_store_fork(t->store, u32_at(rec, 12),
					      u32_at(rec, 8), ts);
		break;
	case PERF_RECORD_EXIT:
		if (h.size >= 32 && u32_at(rec, 8) == u32_at(rec, 16))
			mmap_store_exit(t->store, u32_at(rec, 8), ts);
		break;
	case PERF_RECORD_LOST:
		if (h.size >= 24)
			t->lost += u64_at(rec, 16);
		break;
	}
}

int mmap_tracker_drain(struct mmap_tracker *t)
{
	size_t i;
	int r = 0;

	t->npending = 0;
	t->buf_len = 0;
	for (i = 0; i < t->nrings && r == 0; i++)
		r = ring_take(t, &t->rings[i]);
	qsort(t->pending, t->npending, sizeof(*t->pending), cmp_pending);
	for (i = 0; i < t->npending; i++)
		apply(t, t->buf + t->pending[i].offset, t->pending[i].ts);
	return r;
}

int mmap_tracker_find(struct mmap_tracker *t, uint32_t pid, uint64_t pc,
		      uint64_t ts, struct mmap_hit *hit)
{
	return mmap_store_find(t->store, pid, pc, ts, hit);
}

void mmap_tracker_stats(const struct mmap_tracker *t,
			struct mmap_tracker_stats *stats)
{
	mmap_store_stats(t->store, stats);
	stats->lost = t->lost;
}
