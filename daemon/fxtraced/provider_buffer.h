/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A provider's shared trace buffer as the manager sees it: a sealed memfd
 * laid out by <fxt/provider_abi.h>, mapped here for the whole trace so it
 * can still be read after the provider dies. Everything in it but the
 * layout the manager wrote is untrusted.
 */
#ifndef FXT_PROVIDER_BUFFER_H
#define FXT_PROVIDER_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/provider_abi.h>

/* Data bytes when the controller gives no size, and the bounds. */
#define PROVIDER_BUFFER_DEFAULT_SIZE (1024u * 1024u)
#define PROVIDER_BUFFER_MIN_SIZE 4096u
#define PROVIDER_BUFFER_MAX_SIZE (1024ull * 1024u * 1024u)

struct provider_buffer {
	int fd;			/* the memfd; -1 once handed out */
	void *map;
	size_t size;		/* the whole memfd */
	enum fxt_buffering_mode mode;
	/* The layout as the manager wrote it (the header copy is shared). */
	uint64_t durable_offset, durable_size;
	uint64_t rolling_offset[2], rolling_size;
	uint64_t chunk_size;	/* of the rolling halves' writer chunks */
	uint64_t created_ns;	/* CLOCK_BOOTTIME; 0: adopted (since boot) */
};

/* A snapshot of the fields the provider writes, each read once. */
struct provider_buffer_state {
	uint64_t durable_end;
	uint64_t rolling_end[2];
	uint64_t rolling_generation[2];
	uint64_t records_dropped;
	uint64_t bytes_dropped;
	uint64_t records_written;
	uint64_t records_missed; /* of records_dropped: before joining */
};

enum provider_area {
	PROVIDER_AREA_DURABLE,
	PROVIDER_AREA_ROLLING0,
	PROVIDER_AREA_ROLLING1,
};

/* trace_id: the trace's identity, written into the header. */
int provider_buffer_create(struct provider_buffer *b, uint64_t data_size,
			   enum fxt_buffering_mode mode, const char *name,
			   const uint8_t trace_id[16]);
/*
 * Takes back fd, a buffer a provider kept while the manager restarted:
 * only one this manager's predecessor made for the trace trace_id, of
 * that size and mode (sealed, its layout written by us: not trusted,
 * laid out again), is mapped; -EBADF otherwise. Takes fd on success.
 */
int provider_buffer_adopt(struct provider_buffer *b, int fd,
			  uint64_t data_size, enum fxt_buffering_mode mode,
			  const uint8_t trace_id[16]);
void provider_buffer_destroy(struct provider_buffer *b);

void provider_buffer_state(const struct provider_buffer *b,
			   struct provider_buffer_state *st);
/*
 * The most records the provider can have dropped since its buffer was
 * made (an adopted one: since boot): one a nanosecond on every CPU, far
 * more than any writer drops. A count above it is a lie, or a buffer
 * scribbled over, and is shown as implausible, never as a number.
 */
uint64_t provider_buffer_drops_max(const struct provider_buffer *b);
uint64_t provider_buffer_data_size(const struct provider_buffer *b);
/* Bytes of committed records in the areas. */
uint64_t provider_buffer_used(const struct provider_buffer *b);

/*
 * One area, for a private copy, so that a provider still writing cannot
 * change what is validated. up_to_end: up to the provider's end mark (it
 * published it: STOPPED, or SAVE of that half); otherwise the committed
 * records (the durable area while the provider runs, or a dead
 * provider's buffer, whose end marks may lag), up to the first zero
 * header word in the durable area, in every chunk of a rolling half.
 */
struct provider_area_view {
	const unsigned char *base;	/* in the shared mapping */
	size_t size;			/* the most bytes a copy takes */
	uint64_t chunk;			/* writer chunks; 0: durable */
	bool committed;			/* live: by committed headers */
};

/* The area from byte from (a record boundary on, where a walk resumes). */
int provider_buffer_view(const struct provider_buffer *b,
			 enum provider_area area, bool up_to_end, size_t from,
			 struct provider_area_view *v);
/* Copies the view into out (room for v->size bytes); returns the bytes. */
size_t provider_area_copy(const struct provider_area_view *v, void *out);
/* The whole view in a malloc'd copy (*data NULL when empty). */
int provider_buffer_copy_area(const struct provider_buffer *b,
			      enum provider_area area, bool up_to_end,
			      void **data, size_t *len);

#endif /* FXT_PROVIDER_BUFFER_H */
