/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfxt-provider internals, shared by its files (and by its tests, which
 * link the static library).
 *
 * Lifetimes: a struct fxt_session is one trace in this process (from the
 * manager's START to its STOP). Sessions and buffers are never freed:
 * a writer may still hold a pointer to a stopped one, and everything it
 * can touch after the stop lives in private memory (the areas' bump
 * pointers, the drop counters), never in the unmapped shared buffer.
 */
#ifndef FXT_PROVIDER_PRIVATE_H
#define FXT_PROVIDER_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <fxt/provider.h>
#include <fxt/provider_abi.h>

#define FXT_EXPORT __attribute__((visibility("default")))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Marks a boundary case, as SQLite's testcase() does; empty here. */
#define FXT_TESTCASE(x) ((void)0)

struct fxt_thread;

/* ---- buffer.c: the shared buffer ------------------------------------ */

/* Set in a bump pointer: the area takes no more records. */
#define FXT_AREA_CLOSED (1ull << 62)

struct fxt_area {
	/* Next free byte, free-running; only fetch_add/fetch_or on it. */
	_Atomic uint64_t bump;
	/* Offset of the record that first did not fit (its end of data). */
	_Atomic uint64_t end_at_full;
	uint8_t *base;
	uint64_t size;
};

struct fxt_buffer {
	struct fxt_buffer_header *hdr;	/* the mapping; NULL once unmapped */
	uint64_t map_size;
	int fd;
	uint32_t provider_id;
	enum fxt_buffering_mode mode;
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
	/* Streaming: how SAVE messages go out (transport.c); -1 in tests. */
	int save_fd;
	struct fxt_buffer *all_next;	/* every buffer ever mapped */
};

int fxt_buffer_map(struct fxt_buffer *b, int fd, uint64_t size);
void fxt_buffer_start(struct fxt_buffer *b, enum fxt_buffering_mode mode);
void fxt_buffer_stop(struct fxt_buffer *b);
void fxt_buffer_unmap(struct fxt_buffer *b);
void fxt_buffer_saved(struct fxt_buffer *b, unsigned int half,
		      uint64_t generation);
/* Space for an event: may switch halves (leaving the write meanwhile). */
uint64_t *fxt_reserve_event(struct fxt_thread *t, struct fxt_buffer *b,
			    uint32_t bytes);
uint64_t *fxt_buffer_reserve_durable(struct fxt_buffer *b, uint32_t bytes);
void fxt_buffers_after_fork_child(void);
void fxt_buffer_count_drop(struct fxt_buffer *b, uint32_t bytes);

/* Publish a record: its header word last, with release ordering. */
static inline void fxt_commit(uint64_t *rec, uint64_t header)
{
	__atomic_store_n(rec, header, __ATOMIC_RELEASE);
}

/* ---- session.c: traces, call sites, categories ---------------------- */

struct fxt_session {
	uint64_t gen;		/* fxt_trace_gen when it started */
	struct fxt_buffer *buf;
	char categories[FXT_CATEGORIES_MAX];	/* empty: all */
	_Atomic unsigned int next_thread_index;	/* 1..255 */
	atomic_bool process_named;
	struct fxt_session *all_next;	/* every session ever started */
};

/* The running trace, or NULL; rules: written only by session.c. */
extern _Atomic(struct fxt_session *) fxt_current;
/* Bumped on every start and stop; call sites cache against it. */
extern _Atomic uint64_t fxt_trace_gen;

struct fxt_session *fxt_session_start(struct fxt_buffer *b,
				      const char *categories);
void fxt_session_stop(struct fxt_session *s);
bool fxt_session_category_enabled(const struct fxt_session *s,
				  const char *category);
/* Disable tracing without touching the buffer (fork child). */
void fxt_session_forget(void);
/*
 * Inside a write: the running session if the site's category is enabled,
 * with the category and name refs (site may be NULL: no cache).
 */
struct fxt_session *fxt_site_session(struct fxt_site *site,
				     struct fxt_thread *t, const char *cat,
				     const char *name, uint16_t *cat_ref,
				     uint16_t *name_ref);

/*
 * A site with argument names (struct fxt_site_args): what the site's
 * evaluation also interns, into arg_name[], for the inline writer.
 */
struct fxt_site_eval {
	uint16_t *arg_name;	/* NULL: a plain struct fxt_site */
	const struct fxt_arg_in *args;
	unsigned int nargs;
};

struct fxt_session *fxt_site_session_args(struct fxt_site *site,
					  struct fxt_thread *t,
					  const char *cat, const char *name,
					  const struct fxt_site_eval *eval,
					  uint16_t *cat_ref,
					  uint16_t *name_ref);

/* Is an enabled site's word valid in the trace of generation gen? */
static inline bool fxt_site_state_current(uint64_t state, uint64_t gen)
{
	return (state & FXT_SITE_ENABLED) &&
	       ((state >> FXT_SITE_GEN_SHIFT) & FXT_SITE_GEN_MASK) ==
		       (gen & FXT_SITE_GEN_MASK);
}

/* The site tag a thread joined to the trace of generation gen writes for. */
static inline uint64_t fxt_site_tag(uint64_t gen)
{
	return FXT_SITE_FAST | FXT_SITE_ENABLED |
	       (gen & FXT_SITE_GEN_MASK) << FXT_SITE_GEN_SHIFT;
}

#define FXT_SITE_TAG_NONE (~0ull)
void fxt_sites_lock(void);
void fxt_sites_unlock(void);

/* ---- thread.c: per-thread state ------------------------------------- */

#define FXT_STRING_CACHE_SLOTS 256

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
	struct fxt_thread *next;	/* registry; under fxt_threads_lock */
	struct fxt_string_slot strings[FXT_STRING_CACHE_SLOTS];
};

struct fxt_thread *fxt_thread_self(void);
/* Wait until no thread is inside a write it began before this call. */
void fxt_quiesce(void);
void fxt_thread_join_session(struct fxt_thread *t, struct fxt_session *s);
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

/* fxt_site_session_args() for a site already evaluated in this trace. */
static inline struct fxt_session *
fxt_site_session_fast(struct fxt_site *site, struct fxt_thread *t,
		      const char *cat, const char *name,
		      const struct fxt_site_eval *eval, uint16_t *cat_ref,
		      uint16_t *name_ref)
{
	struct fxt_session *s = atomic_load_explicit(&fxt_current,
						     memory_order_acquire);
	uint64_t state;

	if (likely(s && site && t->gen == s->gen)) {
		state = __atomic_load_n(&site->state, __ATOMIC_RELAXED);
		if (likely(fxt_site_state_current(state, s->gen))) {
			*cat_ref = (uint16_t)(state >> FXT_SITE_CAT_SHIFT);
			*name_ref = (uint16_t)(state >> FXT_SITE_NAME_SHIFT);
			return s;
		}
	}
	return fxt_site_session_args(site, t, cat, name, eval, cat_ref,
				     name_ref);
}

/* ---- intern.c: string table ----------------------------------------- */

/* A string ref for str: an index, or inline (0x8000 | len), or 0 if "". */
uint16_t fxt_intern(struct fxt_thread *t, struct fxt_session *s,
		    const char *str);
uint16_t fxt_intern_slow(struct fxt_session *s, const char *str);
void fxt_intern_lock(void);
void fxt_intern_unlock(void);
void fxt_intern_after_fork_child(void);

static inline uint16_t fxt_intern_cached(struct fxt_thread *t,
					 struct fxt_session *s,
					 const char *str)
{
	uintptr_t h = (uintptr_t)str;
	struct fxt_string_slot *slot;

	h = (h ^ (h >> 8)) % FXT_STRING_CACHE_SLOTS;
	slot = &t->strings[h];
	if (likely(slot->ptr == str))
		return slot->ref;
	slot->ptr = str;
	slot->ref = fxt_intern_slow(s, str);
	return slot->ref;
}

/* ---- clock.c: the trace clock --------------------------------------- */

/* CLOCK_BOOTTIME in ns, as the kernel side uses: TSC or clock_gettime. */
static inline uint64_t fxt_clock_ns(void)
{
	return fxt_internal_now();
}

/* CLOCK_BOOTTIME in ns from clock_gettime() (vDSO). */
uint64_t fxt_clock_gettime_ns(void);
/* A trace starts: re-anchor the TSC clock (calibrating it the first time). */
void fxt_clock_trace_start(void);
void fxt_clock_after_fork_child(void);

/* ---- record.c: writer helpers --------------------------------------- */

uint32_t fxt_stream_words(uint16_t ref);
uint64_t *fxt_put_stream(uint64_t *p, const char *s, uint32_t len);
/* Length kept for an inline string (capped at FXT_STRING_LEN_MAX). */
uint32_t fxt_string_len(const char *s);
void fxt_write_thread_records(struct fxt_thread *t, struct fxt_session *s);

/* ---- transport.c ---------------------------------------------------- */

void fxt_transport_ensure_started(void);
/* Never blocks: -EAGAIN when the manager's queue is full. */
int fxt_transport_send_save(struct fxt_buffer *b, unsigned int half,
			    uint64_t generation);
const char *fxt_provider_name(void);

/* ---- test hooks (tests only; not exported from the shared library) -- */

/*
 * Start a trace on a buffer made by the caller (memfd with a header the
 * caller filled like the manager does), without a manager. save_fd: the
 * socket SAVE messages go to in streaming mode, or -1.
 */
struct fxt_buffer *fxt_test_attach(int memfd, uint64_t size,
				   enum fxt_buffering_mode mode,
				   const char *categories, int save_fd);
void fxt_test_stop(struct fxt_buffer *b);
void fxt_test_detach(struct fxt_buffer *b);
/* The buffer the manager gave, and whether its other half is free. */
struct fxt_buffer *fxt_test_transport_buffer(void);
bool fxt_test_other_half_free(struct fxt_buffer *b);
/* Threads whose state is registered (live threads that traced). */
unsigned int fxt_test_registered_threads(void);
/* This thread's events written by the library, not the inline writer. */
uint64_t fxt_test_library_events(void);
/* Is the trace clock the TSC (not clock_gettime())? */
bool fxt_test_clock_tsc(void);
/*
 * Check the clocksource and $FXTRACE_CLOCK again at the next trace start;
 * re-anchor every span ns (0: the default, 100 ms).
 */
void fxt_test_clock_reset(uint64_t span);
/* Never try to reach a manager (tests running beside a real one). */
void fxt_test_disable_transport(void);

#endif /* FXT_PROVIDER_PRIVATE_H */
