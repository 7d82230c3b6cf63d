/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Per-thread state (thread.c): the write sequence word fxt_quiesce()
 * waits on, and the caches of the trace the thread last wrote to.
 */
#ifndef FXT_PROVIDER_THREAD_H
#define FXT_PROVIDER_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include <fxt/provider.h>
#include <fxt/provider_abi.h>

struct fxt_buffer;

#define FXT_STRING_CACHE_SLOTS 256
/* The site tag of a thread that has joined no trace. */
#define FXT_SITE_TAG_NONE (~0ull)

struct fxt_string_slot {
	const char *ptr;
	uint16_t ref;
};

struct fxt_thread {
	/*
	 * First: what the inline writer of <fxt/provider.h> uses. w.seq is
	 * odd while this thread writes into a buffer. Written only by its
	 * thread (store, not RMW) before reserving; read by fxt_quiesce().
	 */
	struct fxt_internal_writer w;
	uint64_t gen;		/* session the caches below belong to */
	struct fxt_buffer *buf;	/* of that session */
	uint8_t thread_ref;	/* 0: inline koids */
	uint32_t pid, tid;
	uint64_t library_events;	/* not by the inline writer (tests) */
	char name[FXT_PROVIDER_NAME_MAX];	/* fxt_thread_set_name(); "": comm */
	struct fxt_thread *next;	/* registry; under fxt_threads_lock */
	struct fxt_string_slot strings[FXT_STRING_CACHE_SLOTS];
};

struct fxt_thread *fxt_thread_self(void);
/* Wait until no thread is inside a write it began before this call. */
void fxt_quiesce(void);
/* Can fxt_threads_drop_chunks() make every thread see it (membarrier)? */
bool fxt_threads_barrier_init(void);
/*
 * Take every thread's chunk back, then quiesce: a write that began before
 * this call has ended, and later ones ask for a new chunk (buffer.c).
 */
void fxt_threads_drop_chunks(void);
void fxt_threads_lock(void);
void fxt_threads_unlock(void);
void fxt_threads_after_fork_child(void);

static inline void fxt_write_enter(struct fxt_thread *t)
{
	uint64_t seq = __atomic_load_n(&t->w.seq, __ATOMIC_RELAXED);

	__atomic_store_n(&t->w.seq, seq + 1, __ATOMIC_RELAXED);
	/* The reserve's release fetch_add orders this store before it. */
}

static inline void fxt_write_leave(struct fxt_thread *t)
{
	uint64_t seq = __atomic_load_n(&t->w.seq, __ATOMIC_RELAXED);

	/* Pairs with the acquire load in fxt_quiesce(). */
	__atomic_store_n(&t->w.seq, seq + 1, __ATOMIC_RELEASE);
}

static inline bool fxt_write_nested(struct fxt_thread *t)
{
	return __atomic_load_n(&t->w.seq, __ATOMIC_RELAXED) & 1;
}

#endif /* FXT_PROVIDER_THREAD_H */
