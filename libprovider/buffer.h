/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The shared trace buffer (buffer.c): reserving space for records, the
 * three buffering modes, publishing what was written.
 *
 * Lifetime: a buffer is never freed (see session.h); once unmapped,
 * everything a late writer can touch lives in private memory (the areas'
 * bump pointers, the gate), never in the shared mapping.
 */
#ifndef FXT_PROVIDER_BUFFER_H
#define FXT_PROVIDER_BUFFER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <fxt/provider.h>
#include <fxt/provider_abi.h>

struct fxt_thread;

/* Set in a bump pointer: the area takes no more records. */
#define FXT_AREA_CLOSED (1ull << 62)

struct fxt_area {
	/* Next free byte, free-running; only fetch_add/fetch_or/CAS on it. */
	_Atomic uint64_t bump;
	uint8_t *base;
	uint64_t size;
};

/*
 * Streaming: rolling half `half` (its generation: `generation`) is closed
 * and full; its owner is to have it saved, then call fxt_buffer_saved().
 * Called under the buffer's lock by the writer that filled the half: it
 * must not block. Nonzero: the request could not go out, and the half's
 * records are given up (counted as dropped).
 */
typedef int (*fxt_buffer_save_fn)(void *ctx, unsigned int half,
				  uint64_t generation);

struct fxt_buffer {
	struct fxt_buffer_header *hdr;	/* the mapping; NULL once unmapped */
	uint64_t map_size;
	int fd;
	uint32_t provider_id;
	enum fxt_buffering_mode mode;
	uint64_t chunk;		/* the header's chunk_size */
	/* Threads write in chunks; else record by record (buffer.c). */
	bool chunked;
	bool started;		/* a START used it: zero the data to reuse */
	bool stopped;		/* rules: under lock */
	struct fxt_area durable;	/* size 0: durable records with events */
	struct fxt_area rolling[2];
	_Atomic unsigned int current;	/* the half taking events */
	/* Streaming: the half was SAVED by the manager (or never used). */
	bool half_free[2];		/* rules: under lock */
	/* The half's rolling_end is final until it is reused. */
	bool published[2];		/* rules: under lock */
	bool used[2];			/* written since mapped: zero to reuse */
	uint64_t wraps;			/* rules: under lock */
	pthread_mutex_t lock;	/* switching halves, publishing, stop */
	/* FXT_AREA_CLOSED once stopped: orders drop counting (buffer.c). */
	_Atomic uint64_t gate;
	/* Set by fxt_buffer_start(); NULL: no one saves halves. */
	fxt_buffer_save_fn save;
	void *save_ctx;
	struct fxt_buffer *all_next;	/* every buffer ever mapped */
	/* Pages written once ahead of the writers; by who unmaps it. */
	uint64_t touched;
	/* 2 MiB ranges made huge pages before their writes; by the same. */
	uint64_t collapsed;
	bool collapse_off;	/* the kernel refused: touch pages alone */
};

int fxt_buffer_map(struct fxt_buffer *b, int fd, uint64_t size);
void fxt_buffer_start(struct fxt_buffer *b, enum fxt_buffering_mode mode,
		      fxt_buffer_save_fn save, void *save_ctx);
void fxt_buffer_stop(struct fxt_buffer *b);
void fxt_buffer_unmap(struct fxt_buffer *b);
void fxt_buffer_saved(struct fxt_buffer *b, unsigned int half,
		      uint64_t generation);
/* Space for an event: may switch halves (leaving the write meanwhile). */
uint64_t *fxt_reserve_event(struct fxt_thread *t, struct fxt_buffer *b,
			    uint32_t bytes);
uint64_t *fxt_buffer_reserve_durable(struct fxt_buffer *b, uint32_t bytes);
void fxt_buffers_after_fork_child(void);
/*
 * Write each page of the mapping once, ahead of the writers, changing no
 * byte, until CLOCK_BOOTTIME until_ns; true while pages are left. Only
 * the thread that unmaps the buffer may call it.
 */
bool fxt_buffer_touch(struct fxt_buffer *b, uint64_t until_ns);
bool fxt_buffer_touch_pending(const struct fxt_buffer *b);
/* What API version 2 inline writers are given (buffer.c). */
extern struct fxt_internal_area fxt_full_areas[2];
extern const unsigned int fxt_full_current;
void fxt_buffer_count_drop(struct fxt_buffer *b, uint32_t bytes);
/* n events missed before the buffer was there: dropped, bytes unknown. */
void fxt_buffer_count_missed(struct fxt_buffer *b, uint64_t n);

/* Publish a record: its header word last, with release ordering. */
static inline void fxt_commit(uint64_t *rec, uint64_t header)
{
	__atomic_store_n(rec, header, __ATOMIC_RELEASE);
}

#endif /* FXT_PROVIDER_BUFFER_H */
