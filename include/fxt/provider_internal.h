/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the <fxt/provider.h> macros expand to: the call sites, the
 * library's fxt_internal_* entry points and the inline writer. Internal,
 * not for clients; the layouts are ABI. Part of <fxt/provider.h>, which
 * includes it inside its extern "C" block.
 */
#ifndef FXT_PROVIDER_INTERNAL_H
#define FXT_PROVIDER_INTERNAL_H

#ifndef FXT_PROVIDER_H
#error "include <fxt/provider.h>, not <fxt/provider_internal.h>"
#endif

/* ---------------------------------------------------------------------- */
/* Call sites (internal; the layout is ABI)                               */

/*
 * One per macro use, zero-initialised. state: 0 = not evaluated for the
 * current trace; FXT_SITE_DISABLED = skip; FXT_SITE_ENABLED with the
 * category and name refs and the trace generation they belong to.
 * Written by the library only; the macros test FXT_SITE_DISABLED, and
 * the inline writer reads the refs of an FXT_SITE_FAST site.
 */
struct fxt_site {
	uint64_t state;
	struct fxt_site *next;	/* process-wide list, for invalidation */
};

#define FXT_SITE_DISABLED 1ull
#define FXT_SITE_ENABLED 2ull
/* Enabled, and every ref is an index: the inline writer may use the site. */
#define FXT_SITE_FAST (1ull << 63)
/* An enabled site's word: its refs, valid for one trace generation. */
#define FXT_SITE_CAT_SHIFT 2
#define FXT_SITE_NAME_SHIFT 18
#define FXT_SITE_GEN_SHIFT 34
#define FXT_SITE_GEN_MASK ((1ull << 29) - 1)
/* The bits a writer compares with its own tag (struct fxt_internal_writer). */
#define FXT_SITE_TAG_MASK                                                      \
	(FXT_SITE_FAST | FXT_SITE_GEN_MASK << FXT_SITE_GEN_SHIFT |             \
	 FXT_SITE_ENABLED | FXT_SITE_DISABLED)

/* A site that also caches its argument names' refs (API version 2). */
struct fxt_site_args {
	struct fxt_site site;
	uint16_t arg_name[FXT_MAX_ARGS];	/* valid with site.state */
};

#if defined(__GNUC__)
#define FXT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define FXT_UNLIKELY(x) (x)
#endif

static inline bool fxt_site_maybe_enabled(const struct fxt_site *site)
{
	return FXT_UNLIKELY(!(__atomic_load_n(&site->state, __ATOMIC_RELAXED) &
			      FXT_SITE_DISABLED));
}

/* Entry points of the macros: ABI-stable, not for direct use. */
bool fxt_internal_enabled(struct fxt_site *site, const char *category);
void fxt_internal_event(struct fxt_site *site, const char *category,
			const char *name, unsigned int event_type,
			uint64_t ts, uint64_t extra,
			const struct fxt_arg_in *args, unsigned int nargs);
void fxt_internal_instant(struct fxt_site *site, const char *category,
			  const char *name, enum fxt_scope scope,
			  const struct fxt_arg_in *args, unsigned int nargs);
void fxt_internal_blob(struct fxt_site *site, const char *category,
		       const char *name, unsigned int blob_type,
		       const void *data, size_t len);
void fxt_internal_log(struct fxt_site *site, const char *category,
		      const char *message, size_t len);
void fxt_internal_logf(struct fxt_site *site, const char *category,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fxt_internal_userspace_object(struct fxt_site *site,
				   const char *category, const void *pointer,
				   const char *name,
				   const struct fxt_arg_in *args,
				   unsigned int nargs);
void fxt_internal_kernel_object(struct fxt_site *site, const char *category,
				uint64_t koid, unsigned int obj_type,
				const char *name,
				const struct fxt_arg_in *args,
				unsigned int nargs);

/* Scoped durations: a complete event written when the block ends. */
struct fxt_scope_state {
	struct fxt_site *site;	/* NULL: nothing to write */
	const char *category;
	const char *name;
	uint64_t start;
	unsigned int nargs;
	unsigned int dyn;	/* FXT_DYN_* (API version 3) */
	struct fxt_arg_in args[FXT_MAX_ARGS];
};

void fxt_internal_scope_begin(struct fxt_scope_state *scope,
			      struct fxt_site *site, const char *category,
			      const char *name,
			      const struct fxt_arg_in *args,
			      unsigned int nargs);
void fxt_internal_scope_end(struct fxt_scope_state *scope);

static inline void fxt_scope_cleanup(struct fxt_scope_state *scope)
{
	if (FXT_UNLIKELY(scope->site))
		fxt_internal_scope_end(scope);
}

/* ---------------------------------------------------------------------- */
/* The inline writer (internal; the layout is ABI, API version 3)          */

/*
 * An enabled event whose site is cached as FXT_SITE_FAST, with numeric
 * arguments only, from a thread with an indexed thread ref, is written
 * here, in the caller: the record size is a constant, the words go
 * straight into the reserved space. Anything else (first use of a site in
 * a trace, strings, a full half, a nested write) goes to the library.
 */

/* A rolling half of the buffer: mirrors the library's struct fxt_area. */
struct fxt_internal_area {
	uint64_t bump;		/* atomic: next free byte */
	uint64_t end_at_full;
	uint8_t *base;
	uint64_t size;
};

/*
 * The calling thread's writer state (first member of the library's).
 * Events go into the thread's chunk of the buffer, [chunk_pos,
 * chunk_limit), with plain stores; the library gives a new chunk when it
 * is full, and takes it back (chunk_limit NULL) when the half closes.
 */
struct fxt_internal_writer {
	uint64_t seq;		/* odd while the thread writes */
	/* The site word bits (FXT_SITE_TAG_MASK) it may write for; ~0: none. */
	uint64_t site_tag;
	/* API version 2 writers: a half that is always full (the library). */
	struct fxt_internal_area *areas;
	const unsigned int *current;
	uint8_t thread_ref;
	uint64_t *chunk_pos;	/* the thread's own */
	uint64_t *chunk_limit;	/* atomic: the library may clear it */
};

extern __thread struct fxt_internal_writer *fxt_internal_self
	__attribute__((tls_model("initial-exec")));

/*
 * The trace clock, CLOCK_BOOTTIME ns, from the TSC where the kernel uses
 * it too (libprovider/README.md): ns = ns_base + (tsc - tsc_base) * mult
 * >> 32 while tsc - tsc_base < tsc_span; a seqlock guards the update.
 * tsc_span 0: clock_gettime() (fxt_now()).
 */
struct fxt_internal_clock {
	uint32_t seq;		/* odd while being updated */
	uint32_t reserved;
	uint64_t mult;
	uint64_t tsc_base;
	uint64_t ns_base;
	uint64_t tsc_span;
};

extern struct fxt_internal_clock fxt_internal_clock_params;

/* Callers built against API version 2 only; now a new chunk too. */
uint64_t *fxt_internal_reserve_slow(struct fxt_internal_writer *w,
				    unsigned int half, uint64_t offset,
				    uint32_t bytes);
/* The thread's chunk has no room for bytes: a new one, or NULL (dropped). */
uint64_t *fxt_internal_chunk_reserve(struct fxt_internal_writer *w,
				     uint32_t bytes);
void fxt_internal_event_args(struct fxt_site_args *site, const char *category,
			     const char *name, unsigned int event_type,
			     uint64_t ts, uint64_t extra,
			     const struct fxt_arg_in *args, unsigned int nargs);
void fxt_internal_instant_args(struct fxt_site_args *site,
			       const char *category, const char *name,
			       enum fxt_scope scope,
			       const struct fxt_arg_in *args,
			       unsigned int nargs);
/* The same at ts (fxt_now() ticks; 0: now). */
void fxt_internal_instant_args_ts(struct fxt_site_args *site,
				  const char *category, const char *name,
				  enum fxt_scope scope, uint64_t ts,
				  const struct fxt_arg_in *args,
				  unsigned int nargs);

/*
 * API version 3: sites with TRACE_DYN() strings (dyn: FXT_DYN_*). The
 * name ref, by content, of a site whose word is state: an index, or 0
 * (not interned yet, inline, or another trace: ask the library).
 */
uint16_t fxt_internal_dyn_name_ref(const char *name, uint64_t state);
bool fxt_internal_enabled_dyn(struct fxt_site *site, const char *category);
void fxt_internal_event_dyn(struct fxt_site_args *site, unsigned int dyn,
			    const char *category, const char *name,
			    unsigned int event_type, uint64_t ts,
			    uint64_t extra, const struct fxt_arg_in *args,
			    unsigned int nargs);
void fxt_internal_instant_dyn(struct fxt_site_args *site, unsigned int dyn,
			      const char *category, const char *name,
			      enum fxt_scope scope, uint64_t ts,
			      const struct fxt_arg_in *args,
			      unsigned int nargs);
void fxt_internal_blob_dyn(struct fxt_site *site, unsigned int dyn,
			   const char *category, const char *name,
			   unsigned int blob_type, const void *data,
			   size_t len);
void fxt_internal_log_dyn(struct fxt_site *site, unsigned int dyn,
			  const char *category, const char *message,
			  size_t len);
void fxt_internal_logf_dyn(struct fxt_site *site, unsigned int dyn,
			   const char *category, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void fxt_internal_userspace_object_dyn(struct fxt_site *site,
				       unsigned int dyn, const char *category,
				       const void *pointer, const char *name,
				       const struct fxt_arg_in *args,
				       unsigned int nargs);
void fxt_internal_kernel_object_dyn(struct fxt_site *site, unsigned int dyn,
				    const char *category, uint64_t koid,
				    unsigned int obj_type, const char *name,
				    const struct fxt_arg_in *args,
				    unsigned int nargs);

#define FXT_INLINE static inline __attribute__((always_inline))
/* Argument loops unrolled: their count and types are compile-time. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define FXT_UNROLL _Pragma("GCC unroll 16")
#else
#define FXT_UNROLL
#endif
#if defined(__GNUC__)
#define FXT_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define FXT_LIKELY(x) (x)
#endif

FXT_INLINE uint64_t fxt_internal_now(void)
{
#if defined(__x86_64__)
	const struct fxt_internal_clock *c = &fxt_internal_clock_params;
	uint32_t seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
	uint64_t base = __atomic_load_n(&c->tsc_base, __ATOMIC_RELAXED);
	uint64_t span = __atomic_load_n(&c->tsc_span, __ATOMIC_RELAXED);
	uint64_t mult = __atomic_load_n(&c->mult, __ATOMIC_RELAXED);
	uint64_t ns = __atomic_load_n(&c->ns_base, __ATOMIC_RELAXED);
	uint64_t d;

	if (FXT_UNLIKELY(!span))
		return fxt_now();	/* clock_gettime(): no TSC read */
	d = __builtin_ia32_rdtsc() - base;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (FXT_LIKELY(d < span &&
		       __atomic_load_n(&c->seq, __ATOMIC_RELAXED) == seq &&
		       !(seq & 1)))
		return ns + ((d * mult) >> 32);
#endif
	return fxt_now();
}

FXT_INLINE bool fxt_arg_fixed(unsigned int type)
{
	return type <= FXT_ARG_TYPE_MAX && type != FXT_ARG_STRING;
}

FXT_INLINE bool fxt_args_fixed(const struct fxt_arg_in *args,
			       unsigned int nargs)
{
	unsigned int i;

	if (nargs > FXT_MAX_ARGS)
		return false;
	FXT_UNROLL
	for (i = 0; i < nargs; i++)
		if (!fxt_arg_fixed(args[i].type))
			return false;
	return true;
}

FXT_INLINE bool fxt_arg_wide(unsigned int type)
{
	return type == FXT_ARG_INT64 || type == FXT_ARG_UINT64 ||
	       type == FXT_ARG_DOUBLE || type == FXT_ARG_POINTER ||
	       type == FXT_ARG_KOID;
}

FXT_INLINE uint32_t fxt_args_words(const struct fxt_arg_in *args,
				   unsigned int nargs)
{
	uint32_t words = 0;
	unsigned int i;

	FXT_UNROLL
	for (i = 0; i < nargs; i++)
		words += 1 + fxt_arg_wide(args[i].type);
	return words;
}

FXT_INLINE uint32_t fxt_arg_value32(const struct fxt_arg_in *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:
		return (uint32_t)(int32_t)a->v.i64;
	case FXT_ARG_UINT32:
		return (uint32_t)a->v.u64;
	case FXT_ARG_BOOL:
		return a->v.u64 ? 1 : 0;
	default:
		return 0;
	}
}

/* Argument words of a fixed-size argument list; refs from the site. */
FXT_INLINE uint64_t *fxt_put_fixed_args(uint64_t *q,
					const struct fxt_site_args *site,
					const struct fxt_arg_in *args,
					unsigned int nargs)
{
	unsigned int i;

	FXT_UNROLL
	for (i = 0; i < nargs; i++) {
		const struct fxt_arg_in *a = &args[i];
		uint16_t name = __atomic_load_n(&site->arg_name[i],
						__ATOMIC_RELAXED);
		bool wide = fxt_arg_wide(a->type);

		*q++ = fxt_arg_header(a->type, 1 + wide, name,
				      fxt_arg_value32(a));
		if (wide)
			__builtin_memcpy(q++, &a->v, sizeof(uint64_t));
	}
	return q;
}

/* The writer, if this thread may write for the site right now. */
FXT_INLINE struct fxt_internal_writer *
fxt_fast_ready(const struct fxt_site *site, uint64_t *state)
{
	struct fxt_internal_writer *w = fxt_internal_self;
	uint64_t s = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);

	if (FXT_UNLIKELY(!w))
		return NULL;
	if (FXT_UNLIKELY((s & FXT_SITE_TAG_MASK) != w->site_tag))
		return NULL;
	if (FXT_UNLIKELY(__atomic_load_n(&w->seq, __ATOMIC_RELAXED) & 1))
		return NULL;	/* a signal handler inside a write */
	*state = s;
	return w;
}

/*
 * fxt_fast_ready() for a site with dynamic strings (dyn): a dynamic name
 * interned already replaces the site's name ref in state; a dynamic
 * category is decided by the library at each call.
 */
FXT_INLINE struct fxt_internal_writer *
fxt_dyn_ready(const struct fxt_site *site, unsigned int dyn, const char *name,
	      uint64_t *state)
{
	struct fxt_internal_writer *w;
	uint16_t ref;

	if (dyn & FXT_DYN_CAT)
		return NULL;
	w = fxt_fast_ready(site, state);
	if (!(dyn & FXT_DYN_NAME) || FXT_UNLIKELY(w == NULL))
		return w;
	ref = fxt_internal_dyn_name_ref(name, *state);
	if (FXT_UNLIKELY(!ref))
		return NULL;
	*state = (*state & ~(0xffffull << FXT_SITE_NAME_SHIFT)) |
		 (uint64_t)ref << FXT_SITE_NAME_SHIFT;
	return w;
}

/* The library's writer of an event, for literal or dynamic strings. */
FXT_INLINE void fxt_slow_event(struct fxt_site_args *site, unsigned int dyn,
			       const char *category, const char *name,
			       unsigned int type, uint64_t ts, uint64_t extra,
			       const struct fxt_arg_in *args,
			       unsigned int nargs)
{
	if (dyn)
		fxt_internal_event_dyn(site, dyn, category, name, type, ts,
				       extra, args, nargs);
	else
		fxt_internal_event_args(site, category, name, type, ts, extra,
					args, nargs);
}

/*
 * Space for bytes in the thread's chunk, inside a write (seq odd). The
 * seq store stays before the loads of the chunk: a signal handler that
 * writes sees it, and the closer of a half pairs it with a barrier of
 * its own (the library's buffer.c). The acquire keeps the reads of the
 * site's refs after it.
 */
FXT_INLINE uint64_t *fxt_fast_reserve(struct fxt_internal_writer *w,
				      uint32_t bytes)
{
	uint64_t *p, *limit;

	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	p = w->chunk_pos;
	limit = __atomic_load_n(&w->chunk_limit, __ATOMIC_ACQUIRE);
	if (FXT_LIKELY((uintptr_t)p + bytes <= (uintptr_t)limit)) {
		w->chunk_pos = p + bytes / 8;
		return p;
	}
	return fxt_internal_chunk_reserve(w, bytes);
}

FXT_INLINE uint64_t fxt_fast_enter(struct fxt_internal_writer *w)
{
	uint64_t seq = __atomic_load_n(&w->seq, __ATOMIC_RELAXED);

	__atomic_store_n(&w->seq, seq + 1, __ATOMIC_RELAXED);
	return seq + 2;
}

FXT_INLINE void fxt_fast_leave(struct fxt_internal_writer *w, uint64_t seq)
{
	__atomic_store_n(&w->seq, seq, __ATOMIC_RELEASE);
}

FXT_INLINE bool fxt_event_has_extra(unsigned int type)
{
	return type != FXT_EVENT_INSTANT && type != FXT_EVENT_DURATION_BEGIN &&
	       type != FXT_EVENT_DURATION_END;
}

FXT_INLINE uint64_t fxt_fast_header(const struct fxt_internal_writer *w,
				    uint64_t state, uint32_t words,
				    unsigned int type, unsigned int nargs)
{
	return fxt_event_header(words, type, nargs, w->thread_ref,
				(uint16_t)(state >> FXT_SITE_CAT_SHIFT),
				(uint16_t)(state >> FXT_SITE_NAME_SHIFT));
}

/* An event, after fxt_fast_ready(); string arguments go to the library. */
FXT_INLINE void fxt_fast_event(struct fxt_site_args *site,
			       struct fxt_internal_writer *w, uint64_t state,
			       unsigned int dyn, const char *category,
			       const char *name, unsigned int type, uint64_t ts,
			       uint64_t extra, const struct fxt_arg_in *args,
			       unsigned int nargs)
{
	bool has_extra = fxt_event_has_extra(type);
	uint32_t words;
	uint64_t *p, *q, seq;

	if (!fxt_args_fixed(args, nargs) || type > FXT_EVENT_TYPE_MAX) {
		fxt_slow_event(site, dyn, category, name, type, ts, extra,
			       args, nargs);
		return;
	}
	words = 2 + has_extra + fxt_args_words(args, nargs);
	seq = fxt_fast_enter(w);
	if (!ts)
		ts = fxt_internal_now();
	p = fxt_fast_reserve(w, words * 8);
	if (FXT_LIKELY(p != NULL)) {
		p[1] = ts;
		q = fxt_put_fixed_args(p + 2, site, args, nargs);
		if (has_extra)
			*q = extra;
		__atomic_store_n(p, fxt_fast_header(w, state, words, type,
						    nargs),
				 __ATOMIC_RELEASE);
	}
	fxt_fast_leave(w, seq);
}

/* TRACE_DURATION: the arguments encoded at the start, written at the end. */
struct fxt_scope_args {
	uint64_t header;	/* fast: the record's; 1: slow; 0: nothing */
	uint64_t start;
	uint64_t tag;		/* the site word, then the writer's site tag */
	struct fxt_internal_writer *w;
	uint32_t nwords;
	union {
		uint64_t words[2 * FXT_MAX_ARGS];
		struct fxt_scope_state slow;
	} u;
};

void fxt_internal_scope_args_begin(struct fxt_scope_args *scope,
				   struct fxt_site_args *site,
				   const char *category, const char *name,
				   const struct fxt_arg_in *args,
				   unsigned int nargs);
void fxt_internal_scope_args_end(struct fxt_scope_args *scope);

void fxt_internal_scope_dyn_begin(struct fxt_scope_args *scope,
				  struct fxt_site_args *site, unsigned int dyn,
				  const char *category, const char *name,
				  const struct fxt_arg_in *args,
				  unsigned int nargs);

/* The library's beginning of a scope, for literal or dynamic strings. */
FXT_INLINE void fxt_slow_scope_begin(struct fxt_scope_args *scope,
				     struct fxt_site_args *site,
				     unsigned int dyn, const char *category,
				     const char *name,
				     const struct fxt_arg_in *args,
				     unsigned int nargs)
{
	if (dyn)
		fxt_internal_scope_dyn_begin(scope, site, dyn, category, name,
					     args, nargs);
	else
		fxt_internal_scope_args_begin(scope, site, category, name,
					      args, nargs);
}

/* After fxt_dyn_ready() gave w and scope->tag (the site's word). */
FXT_INLINE void fxt_scope_args_begin(struct fxt_scope_args *scope,
				     struct fxt_site_args *site,
				     struct fxt_internal_writer *w,
				     unsigned int dyn, const char *category,
				     const char *name,
				     const struct fxt_arg_in *args,
				     unsigned int nargs)
{
	uint64_t state = scope->tag;
	uint32_t words;

	if (!fxt_args_fixed(args, nargs)) {
		fxt_slow_scope_begin(scope, site, dyn, category, name, args,
				     nargs);
		return;
	}
	words = fxt_args_words(args, nargs);
	scope->nwords = words;
	fxt_put_fixed_args(scope->u.words, site, args, nargs);
	scope->header = fxt_fast_header(w, state, 3 + words,
					FXT_EVENT_DURATION_COMPLETE, nargs);
	scope->tag = w->site_tag;
	scope->w = w;
	scope->start = fxt_internal_now();
}

FXT_INLINE void fxt_scope_args_end(struct fxt_scope_args *scope)
{
	struct fxt_internal_writer *w = scope->w;
	uint32_t words = scope->nwords, i;
	uint64_t *p, seq, end;

	/* A trace started or stopped meanwhile: the event is not written. */
	if (FXT_UNLIKELY(scope->header == 1 || w->site_tag != scope->tag ||
			 (__atomic_load_n(&w->seq, __ATOMIC_RELAXED) & 1))) {
		fxt_internal_scope_args_end(scope);
		return;
	}
	seq = fxt_fast_enter(w);
	end = fxt_internal_now();
	p = fxt_fast_reserve(w, (3 + words) * 8);
	if (FXT_LIKELY(p != NULL)) {
		p[1] = scope->start;
		for (i = 0; i < words; i++)
			p[2 + i] = scope->u.words[i];
		p[2 + words] = end;
		__atomic_store_n(p, scope->header, __ATOMIC_RELEASE);
	}
	fxt_fast_leave(w, seq);
}

FXT_INLINE void fxt_scope_args_cleanup(struct fxt_scope_args *scope)
{
	if (FXT_UNLIKELY(scope->header))
		fxt_scope_args_end(scope);
}

#ifdef __cplusplus
} /* extern "C" */

/* TRACE_DURATION's state in C++: the destructor ends the event. */
struct fxt_scope_guard : fxt_scope_args {
	fxt_scope_guard() { header = 0; }
	__attribute__((always_inline)) ~fxt_scope_guard()
	{
		fxt_scope_args_cleanup(this);
	}
	fxt_scope_guard(const fxt_scope_guard &) = delete;
	fxt_scope_guard &operator=(const fxt_scope_guard &) = delete;
};
#define FXT_SCOPE_DECL(var) fxt_scope_guard var

extern "C" {
#else
#define FXT_SCOPE_DECL(var)                                                    \
	struct fxt_scope_args var __attribute__((cleanup(fxt_scope_args_cleanup))); \
	var.header = 0
#endif

#endif /* FXT_PROVIDER_INTERNAL_H */
