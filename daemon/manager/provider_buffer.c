// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fxt/fxt.h>

#include "provider_buffer.h"

#define ALIGN_DOWN_8(x) ((x) & ~(uint64_t)7)

/*
 * Circular and streaming keep 1/8 of the data for records that must
 * survive wrapping (strings, threads); the rest is split in two halves.
 * Oneshot has one area: rolling half 0 spans the data; half 1 has
 * offset 0 (absent), and strings and threads go with the events.
 */
static void layout(struct provider_buffer *b, uint64_t data_size)
{
	uint64_t data = FXT_BUFFER_HEADER_SIZE;

	b->durable_offset = data;
	if (b->mode == FXT_BUFFERING_ONESHOT) {
		b->durable_size = 0;
		b->rolling_size = data_size;
		b->rolling_offset[0] = data;
		b->rolling_offset[1] = 0;
		return;
	}
	b->durable_size = ALIGN_DOWN_8(data_size / 8);
	b->rolling_size = ALIGN_DOWN_8((data_size - b->durable_size) / 2);
	b->rolling_offset[0] = data + b->durable_size;
	b->rolling_offset[1] = b->rolling_offset[0] + b->rolling_size;
}

static void write_header(struct provider_buffer *b)
{
	struct fxt_buffer_header *h = b->map;

	memset(h, 0, FXT_BUFFER_HEADER_SIZE);
	h->magic = FXT_BUFFER_MAGIC;
	h->version = FXT_BUFFER_VERSION;
	h->mode = b->mode;
	h->total_size = b->size;
	h->durable_offset = b->durable_offset;
	h->durable_size = b->durable_size;
	h->rolling_offset[0] = b->rolling_offset[0];
	h->rolling_offset[1] = b->rolling_offset[1];
	h->rolling_size = b->rolling_size;
}

int provider_buffer_create(struct provider_buffer *b, uint64_t data_size,
			   enum fxt_buffering_mode mode, const char *name)
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
	layout(b, data_size);

	snprintf(memfd_name, sizeof(memfd_name), "fxt-buffer:%s", name);
	b->fd = memfd_create(memfd_name, MFD_ALLOW_SEALING | MFD_CLOEXEC);
	if (b->fd < 0)
		return -errno;
	if (ftruncate(b->fd, (off_t)b->size) < 0)
		goto fail;
	b->map = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      b->fd, 0);
	if (b->map == MAP_FAILED)
		goto fail;
	write_header(b);
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
	st->bytes_dropped = LOAD(h->bytes_dropped);
	st->records_written = LOAD(h->records_written);
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
 * Bytes of committed records from the start of an area: a header word is
 * stored last with release ordering (provider_abi.h), so once the acquire
 * load sees it, the record's other words are there. Stops at the first
 * zero header, or at a record that overruns the area (*torn).
 */
static uint64_t scan_committed(const unsigned char *area, uint64_t size,
			       bool *torn)
{
	uint64_t pos = 0;

	*torn = false;
	while (pos + FXT_WORD_BYTES <= size) {
		uint64_t header = __atomic_load_n((const uint64_t *)(area + pos),
						  __ATOMIC_ACQUIRE);
		uint64_t bytes = fxt_record_bytes(header);

		if (!header)
			break;
		if (!bytes || bytes > size - pos) {
			*torn = true;
			break;
		}
		pos += bytes;
	}
	return pos;
}

/*
 * Providers publish end marks only when a half closes or the trace
 * stops, so the fill of a running buffer is measured by its headers.
 */
uint64_t provider_buffer_used(const struct provider_buffer *b)
{
	const unsigned char *map = b->map;
	uint64_t used;

	bool torn;

	used = scan_committed(map + b->durable_offset, b->durable_size, &torn);
	used += scan_committed(map + b->rolling_offset[0], b->rolling_size,
			       &torn);
	if (b->mode != FXT_BUFFERING_ONESHOT)
		used += scan_committed(map + b->rolling_offset[1],
				       b->rolling_size, &torn);
	return used;
}

int provider_buffer_view(const struct provider_buffer *b,
			 enum provider_area area, bool up_to_end, size_t from,
			 struct provider_area_view *v)
{
	struct provider_buffer_state st;
	uint64_t offset, size, end;
	bool torn;

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
	}
	if (up_to_end)
		size = ALIGN_DOWN_8(clamp(end, size));
	if (from >= size)
		return 0;
	v->base = (const unsigned char *)b->map + offset + from;
	v->size = size - from;
	if (!up_to_end) {
		/* The header word of a record that overruns goes too. */
		v->size = scan_committed(v->base, v->size, &torn);
		if (torn)
			v->size += FXT_WORD_BYTES;
	}
	return 0;
}

/*
 * Committed records are only ever added, so the copy is the scanned
 * length. A provider rewriting its headers meanwhile changes what is
 * copied, not what is kept: the walk validates the copy.
 */
size_t provider_area_copy(const struct provider_area_view *v, void *out)
{
	memcpy(out, v->base, v->size);
	return v->size;
}
