// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <fxt/fxt.h>
#include <fxt/map_huge.h>

#include "provider_buffer.h"

#define ALIGN_DOWN_8(x) ((x) & ~(uint64_t)7)

/* Writer chunks: 4 KiB, smaller in a half too small for 16 of them. */
#define PROVIDER_BUFFER_CHUNK 4096u

static uint64_t chunk_size(uint64_t rolling_size)
{
	uint64_t chunk = PROVIDER_BUFFER_CHUNK;

	while (chunk > FXT_BUFFER_CHUNK_MIN && chunk * 16 > rolling_size)
		chunk /= 2;
	return chunk;
}

/*
 * Part of the data is kept for records that must precede the events that
 * use them and survive wrapping (strings, threads): 1/8 in circular and
 * streaming, which split the rest in two halves; 1/16 in oneshot, which
 * has one, rolling half 0 (half 1 has offset 0: absent).
 */
static void layout(struct provider_buffer *b, uint64_t data_size)
{
	uint64_t data = FXT_BUFFER_HEADER_SIZE;

	b->durable_offset = data;
	b->durable_size = ALIGN_DOWN_8(
		data_size / (b->mode == FXT_BUFFERING_ONESHOT ? 16 : 8));
	b->rolling_offset[0] = data + b->durable_size;
	if (b->mode == FXT_BUFFERING_ONESHOT) {
		b->rolling_size = data_size - b->durable_size;
		b->rolling_offset[1] = 0;
	} else {
		b->rolling_size =
			ALIGN_DOWN_8((data_size - b->durable_size) / 2);
		b->rolling_offset[1] = b->rolling_offset[0] + b->rolling_size;
	}
	b->chunk_size = chunk_size(b->rolling_size);
}

static uint64_t boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void write_layout(struct provider_buffer *b)
{
	struct fxt_buffer_header *h = b->map;

	h->magic = FXT_BUFFER_MAGIC;
	h->version = FXT_BUFFER_VERSION;
	h->mode = b->mode;
	h->total_size = b->size;
	h->durable_offset = b->durable_offset;
	h->durable_size = b->durable_size;
	h->rolling_offset[0] = b->rolling_offset[0];
	h->rolling_offset[1] = b->rolling_offset[1];
	h->rolling_size = b->rolling_size;
	h->chunk_size = b->chunk_size;
}

static void write_header(struct provider_buffer *b, const uint8_t trace_id[16])
{
	struct fxt_buffer_header *h = b->map;

	memset(h, 0, FXT_BUFFER_HEADER_SIZE);
	write_layout(b);
	memcpy(h->trace_id, trace_id, sizeof(h->trace_id));
}

int provider_buffer_create(struct provider_buffer *b, uint64_t data_size,
			   enum fxt_buffering_mode mode, const char *name,
			   const uint8_t trace_id[16])
{
	char memfd_name[FXT_PROVIDER_NAME_MAX + 16];
	int r;

	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->map = MAP_FAILED;
	if (data_size < PROVIDER_BUFFER_MIN_SIZE ||
	    data_size > PROVIDER_BUFFER_MAX_SIZE || data_size % 8)
		return -EINVAL;
	b->mode = mode;
	b->size = FXT_BUFFER_HEADER_SIZE + data_size;
	b->created_ns = boottime_ns();
	layout(b, data_size);

	snprintf(memfd_name, sizeof(memfd_name), "fxt-buffer:%s", name);
	b->fd = memfd_create(memfd_name, MFD_ALLOW_SEALING | MFD_CLOEXEC);
	if (b->fd < 0)
		return -errno;
	if (ftruncate(b->fd, (off_t)b->size) < 0)
		goto fail;
	/* Aligned: the provider makes its ranges huge pages (map_huge.h). */
	b->map = fxt_map_huge_aligned(b->fd, b->size, 0);
	if (b->map == MAP_FAILED)
		goto fail;
	write_header(b, trace_id);
	/* The provider may write but never resize it under our mapping. */
	if (fcntl(b->fd, F_ADD_SEALS,
		  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0)
		goto fail;
	return 0;
fail:
	r = -errno;
	provider_buffer_destroy(b);
	return r;
}

#define BUFFER_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

int provider_buffer_adopt(struct provider_buffer *b, int fd,
			  uint64_t data_size, enum fxt_buffering_mode mode,
			  const uint8_t trace_id[16])
{
	const struct fxt_buffer_header *h;
	struct stat st;
	int seals;

	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->mode = mode;
	b->size = FXT_BUFFER_HEADER_SIZE + data_size;
	layout(b, data_size);
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || (seals & BUFFER_SEALS) != BUFFER_SEALS ||
	    fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != b->size)
		return -EBADF;
	b->map = fxt_map_huge_aligned(fd, b->size, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return -errno;
	}
	h = b->map;
	if (h->magic != FXT_BUFFER_MAGIC || h->version != FXT_BUFFER_VERSION ||
	    memcmp(h->trace_id, trace_id, sizeof(h->trace_id))) {
		provider_buffer_destroy(b);
		return -EBADF;
	}
	/* Ours again; the provider may have scribbled over the layout. */
	write_layout(b);
	close(fd);
	return 0;
}

void provider_buffer_destroy(struct provider_buffer *b)
{
	if (b->map && b->map != MAP_FAILED)
		munmap(b->map, b->size);
	b->map = NULL;
	if (b->fd >= 0)
		close(b->fd);
	b->fd = -1;
}

/* The provider writes these concurrently: read each once, untorn. */
#define LOAD(field) __atomic_load_n(&(field), __ATOMIC_ACQUIRE)

void provider_buffer_state(const struct provider_buffer *b,
			   struct provider_buffer_state *st)
{
	const struct fxt_buffer_header *h = b->map;

	st->durable_end = LOAD(h->durable_end);
	st->rolling_end[0] = LOAD(h->rolling_end[0]);
	st->rolling_end[1] = LOAD(h->rolling_end[1]);
	st->rolling_generation[0] = LOAD(h->rolling_generation[0]);
	st->rolling_generation[1] = LOAD(h->rolling_generation[1]);
	st->records_dropped = LOAD(h->records_dropped);
	st->records_missed = LOAD(h->records_missed);
	st->bytes_dropped = LOAD(h->bytes_dropped);
	st->records_written = LOAD(h->records_written);
}

uint64_t provider_buffer_drops_max(const struct provider_buffer *b)
{
	static long cpus;	/* read once: sysconf() reads /sys */
	uint64_t now = boottime_ns(), max;
	uint64_t elapsed = now > b->created_ns ? now - b->created_ns : 0;

	if (!cpus)
		cpus = sysconf(_SC_NPROCESSORS_CONF);
	if (cpus < 1)
		cpus = 1;
	if (__builtin_mul_overflow(elapsed, (uint64_t)cpus, &max))
		return UINT64_MAX;
	return max;
}

uint64_t provider_buffer_data_size(const struct provider_buffer *b)
{
	return b->size - FXT_BUFFER_HEADER_SIZE;
}

static uint64_t clamp(uint64_t v, uint64_t max)
{
	return v < max ? v : max;
}

/*
 * Copies the committed records of a live area: a header word is stored
 * last with release ordering (provider_abi.h), so once the acquire load
 * sees it, the record's other words are there. At a zero header word the
 * durable area (chunk 0) ends, a rolling half goes on at the next chunk
 * boundary; what is not copied stays zero. Stops at a record that
 * overruns the area (copied partially, for the walk to see and count it).
 * Returns the end of the last record copied; *used: the bytes of them.
 */
static size_t copy_committed(const unsigned char *area, size_t size,
			     uint64_t chunk, unsigned char *out,
			     uint64_t *used)
{
	size_t pos = 0, end = 0;

	*used = 0;
	while (pos + FXT_WORD_BYTES <= size) {
		uint64_t header = __atomic_load_n((const uint64_t *)(area + pos),
						  __ATOMIC_ACQUIRE);
		uint64_t bytes = fxt_record_bytes(header);

		if (!header && chunk) {
			size_t next = fxt_chunk_next(pos, chunk);

			if (out)
				memset(out + pos, 0,
				       (next < size ? next : size) - pos);
			pos = next;
			continue;
		}
		if (!header)
			break;
		if (!bytes || bytes > size - pos) {
			if (out)
				memcpy(out + pos, &header, sizeof(header));
			return pos + FXT_WORD_BYTES;
		}
		if (out) {
			memcpy(out + pos + FXT_WORD_BYTES,
			       area + pos + FXT_WORD_BYTES,
			       bytes - FXT_WORD_BYTES);
			memcpy(out + pos, &header, sizeof(header));
		}
		pos += bytes;
		end = pos;
		*used += bytes;
	}
	return end;
}

/* Bytes of committed records in the durable area. */
static uint64_t scan_committed(const unsigned char *area, uint64_t size)
{
	uint64_t used;

	(void)copy_committed(area, size, 0, NULL, &used);
	return used;
}

/* Bytes of the chunks of a rolling half that hold a record. */
static uint64_t scan_taken(const unsigned char *area, uint64_t size,
			   uint64_t chunk)
{
	uint64_t off, taken = 0;

	for (off = 0; off + FXT_WORD_BYTES <= size; off += chunk)
		if (__atomic_load_n((const uint64_t *)(area + off),
				    __ATOMIC_RELAXED))
			taken += size - off < chunk ? size - off : chunk;
	return taken;
}

/*
 * Providers publish end marks only when a half closes or the trace
 * stops, so the fill of a running buffer is measured by its headers: a
 * writer's chunk counts whole once it holds a record.
 */
uint64_t provider_buffer_used(const struct provider_buffer *b)
{
	const unsigned char *map = b->map;
	uint64_t used;

	used = scan_committed(map + b->durable_offset, b->durable_size);
	used += scan_taken(map + b->rolling_offset[0], b->rolling_size,
			   b->chunk_size);
	if (b->mode != FXT_BUFFERING_ONESHOT)
		used += scan_taken(map + b->rolling_offset[1], b->rolling_size,
				   b->chunk_size);
	return used;
}

int provider_buffer_view(const struct provider_buffer *b,
			 enum provider_area area, bool up_to_end, size_t from,
			 struct provider_area_view *v)
{
	struct provider_buffer_state st;
	uint64_t offset, size, end, chunk = 0, used;

	*v = (struct provider_area_view){ 0 };
	provider_buffer_state(b, &st);
	if (area == PROVIDER_AREA_DURABLE) {
		offset = b->durable_offset;
		size = b->durable_size;
		end = st.durable_end;
	} else {
		unsigned int half = area - PROVIDER_AREA_ROLLING0;

		if (half && b->mode == FXT_BUFFERING_ONESHOT)
			return 0;
		offset = b->rolling_offset[half];
		size = b->rolling_size;
		end = st.rolling_end[half];
		chunk = b->chunk_size;
	}
	if (up_to_end)
		size = ALIGN_DOWN_8(clamp(end, size));
	if (from >= size)
		return 0;
	v->base = (const unsigned char *)b->map + offset + from;
	v->size = size - from;
	v->chunk = chunk;
	v->committed = !up_to_end;
	/* Live: up to the end of the last committed record (see above). */
	if (v->committed)
		v->size = copy_committed(v->base, v->size, chunk, NULL, &used);
	return 0;
}

/*
 * Up to an end mark the provider published, the area is copied in one
 * run; a live area record by record, behind the acquire load of each
 * header, within the length the view measured.
 */
size_t provider_area_copy(const struct provider_area_view *v, void *out)
{
	uint64_t used;

	if (!v->committed) {
		memcpy(out, v->base, v->size);
		return v->size;
	}
	return copy_committed(v->base, v->size, v->chunk, out, &used);
}

int provider_buffer_copy_area(const struct provider_buffer *b,
			      enum provider_area area, bool up_to_end,
			      void **data, size_t *len)
{
	struct provider_area_view v;
	void *copy;
	int r;

	*data = NULL;
	*len = 0;
	r = provider_buffer_view(b, area, up_to_end, 0, &v);
	if (r < 0 || !v.size)
		return r;
	copy = malloc(v.size);
	if (!copy)
		return -ENOMEM;
	*len = provider_area_copy(&v, copy);
	*data = copy;
	return 0;
}
