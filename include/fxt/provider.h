/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * fxtrace provider API: what applications include to emit trace events.
 * Link with `pkg-config --libs libfxt-provider`.
 *
 *	TRACE_INSTANT("net", "packet", TRACE_SCOPE_THREAD,
 *		      TRACE_ARG_I32("len", n), TRACE_ARG_STR("peer", host));
 *	{
 *		TRACE_DURATION("net", "send", TRACE_ARG_U64("bytes", len));
 *		...	// one complete event when the block ends
 *	}
 *
 * When no trace runs, or the category is not enabled, a macro costs one
 * relaxed load of a per-call-site word and one branch; its arguments are
 * not evaluated. The library never blocks the application, never prints
 * and never calls exit(); every call is a no-op without a trace manager.
 *
 * Strings: categories, event names and argument names are string
 * literals (the macros enforce it), interned by address, or strings
 * chosen at run time wrapped in TRACE_DYN(), interned by content:
 *
 *	TRACE_INSTANT("rpc", TRACE_DYN(method), TRACE_SCOPE_THREAD,
 *		      TRACE_ARG_I32(TRACE_DYN(field), n));
 *
 * A repeated dynamic string costs a table look-up; each trace interns at
 * most 1024 of them, the others are written inline in each record. A
 * dynamic category is enabled by the same rules as a literal one, checked
 * at each call. String argument values are copied into the record
 * (TRACE_ARG_STR) unless they are literals (TRACE_ARG_STR_LITERAL,
 * interned). Up to 15 arguments.
 *
 * Not async-signal-safe: an event written from a signal handler that
 * interrupted another event of the same thread is dropped (and counted).
 * A shared object containing call sites must not be dlclose()d while the
 * process runs (its call-site words are on a process-wide list).
 *
 * Layers, as in Fuchsia's trace-engine: the TRACE_* macros below; the
 * fxt_internal_* entry points they call (ABI-stable, not for clients);
 * the record writer inside the library. Define FXT_NTRACE to compile
 * every macro out (its values are still "used": no unused warnings).
 *
 * C and C++ (C++11 and later): in C++, TRACE_DURATION is an object whose
 * destructor writes the event, so returns and exceptions end it.
 */
#ifndef FXT_PROVIDER_H
#define FXT_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/fxt.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FXT_PROVIDER_API_VERSION 3

/*
 * Joining a trace is asynchronous: a short program may end before its
 * provider got the buffer. With this variable set (milliseconds, at most
 * 10000), the first call site waits that long at most for the first
 * exchange with the manager to settle. `tracectl record` sets it (10000)
 * for its command unless set already; without a manager, or with an idle
 * one, the wait ends at once or at the limit.
 */
#define FXT_START_WAIT_ENV "FXTRACE_START_WAIT_MS"

/* ---------------------------------------------------------------------- */
/* Public C API                                                           */

/*
 * Optional: the provider name shown in traces (default: the program name,
 * from program_invocation_short_name). Call before the first event; the
 * name is copied (at most 63 bytes). Returns 0, or -EALREADY once the
 * provider has said hello to the manager under another name.
 */
int fxt_provider_init(const char *name);

/* Nanoseconds of CLOCK_BOOTTIME: the trace's time base (1 tick = 1 ns). */
uint64_t fxt_now(void);

/*
 * Name the calling thread, or the process, in traces (copied, at most 63
 * bytes): a kernel object record now if a trace runs, and in every later
 * trace. The thread's kernel name (comm, 15 bytes) is set too. Returns 0,
 * -EINVAL without a name, -ENOMEM without thread state.
 */
int fxt_thread_set_name(const char *name);
int fxt_process_set_name(const char *name);

/* True while a trace runs with this category enabled (no call-site cache). */
bool fxt_category_enabled(const char *category);

/*
 * Asks the manager for a snapshot of the running circular trace, named
 * name (at most 63 bytes), if it was armed with it (tracectl start
 * --trigger NAME). Never blocks: one non-blocking send, nothing when no
 * trace runs. Returns 0 (also when the manager ignores the name), -EINVAL
 * for a bad name, -EAGAIN when the socket is full (the trigger is lost).
 */
int fxt_trigger(const char *name);
#ifndef FXT_NTRACE
#define TRACE_TRIGGER(name) ((void)fxt_trigger(name))
#else
#define TRACE_TRIGGER(name) ((void)(0 && fxt_trigger(name)))
#endif

enum fxt_scope {
	TRACE_SCOPE_THREAD = 0,
	TRACE_SCOPE_PROCESS = 1,
	TRACE_SCOPE_GLOBAL = 2,
};

/* ---------------------------------------------------------------------- */
/* Arguments                                                              */

/* Set in fxt_arg_in.flags: the string value is a literal, intern it. */
#define FXT_ARG_IN_LITERAL 1u
/* The argument's name is dynamic (TRACE_DYN): intern it by content. */
#define FXT_ARG_IN_DYN_NAME 2u

struct fxt_arg_in {
	const char *name;
	uint16_t type;		/* enum fxt_arg_type */
	uint16_t flags;
	uint32_t reserved;
	union {
		int64_t i64;
		uint64_t u64;
		double f64;
		const char *str;	/* NUL-terminated */
	} v;
};

#define FXT_LITERAL(s) ("" s "")

/*
 * TRACE_DYN(expr): a category, event name or argument name computed at
 * run time (a NUL-terminated const char *, read during the macro; for
 * TRACE_DURATION, until the block ends).
 */
static inline const char *fxt_dyn_str(const char *s)
{
	return s;
}
#define TRACE_DYN(expr) (fxt_dyn_str(expr))

/*
 * 1 if s is a TRACE_DYN() (a parenthesized expression), 0 if it is a
 * literal: FXT_IS_DYN_ followed by "(...)" expands to two arguments.
 */
#define FXT_PROBE_N(x, n, ...) n
#define FXT_PROBE(...) FXT_PROBE_N(__VA_ARGS__, 0, )
#define FXT_IS_DYN_(...) ~, 1
#define FXT_IS_DYN(s) FXT_PROBE(FXT_IS_DYN_ s)
#define FXT_CAT2(a, b) a##b
#define FXT_CAT(a, b) FXT_CAT2(a, b)
/* The string: a checked literal, or the TRACE_DYN() expression. */
#define FXT_STR(s) FXT_CAT(FXT_STR_, FXT_IS_DYN(s))(s)
#define FXT_STR_0(s) FXT_LITERAL(s)
#define FXT_STR_1(s) s

/* Which of a site's strings are dynamic: a compile-time constant. */
#define FXT_DYN_CAT 1u
#define FXT_DYN_NAME 2u
#define FXT_DYN_MASK(cat, name)                                                \
	(FXT_IS_DYN(cat) * FXT_DYN_CAT | FXT_IS_DYN(name) * FXT_DYN_NAME)
#define FXT_ARG_NAME_FLAGS(n) (FXT_IS_DYN(n) * FXT_ARG_IN_DYN_NAME)

#ifdef __cplusplus
/* C++ before C++20 has no designated initializers: one maker per field. */
#define FXT_ARG_MAKER(field, ctype)                                            \
	static inline struct fxt_arg_in fxt_arg_##field(                       \
		const char *name, uint16_t type, uint16_t flags, ctype val)    \
	{                                                                      \
		struct fxt_arg_in a;                                           \
		a.name = name;                                                 \
		a.type = type;                                                 \
		a.flags = flags;                                               \
		a.reserved = 0;                                                \
		a.v.field = val;                                               \
		return a;                                                      \
	}
FXT_ARG_MAKER(i64, int64_t)
FXT_ARG_MAKER(u64, uint64_t)
FXT_ARG_MAKER(f64, double)
FXT_ARG_MAKER(str, const char *)
#undef FXT_ARG_MAKER
#define FXT_ARG_IN(n, t, f, field, val)                                        \
	fxt_arg_##field(FXT_STR(n), (t),                                       \
			(uint16_t)((f) | FXT_ARG_NAME_FLAGS(n)), (val))
#else
#define FXT_ARG_IN(n, t, f, field, val)                                        \
	{ .name = FXT_STR(n), .type = (t),                                     \
	  .flags = (f) | FXT_ARG_NAME_FLAGS(n), .reserved = 0,                 \
	  .v = { .field = (val) } }
#endif

#define TRACE_ARG_NULL(n) FXT_ARG_IN(n, FXT_ARG_NULL, 0, u64, 0)
#define TRACE_ARG_I32(n, val) FXT_ARG_IN(n, FXT_ARG_INT32, 0, i64, (int32_t)(val))
#define TRACE_ARG_U32(n, val) FXT_ARG_IN(n, FXT_ARG_UINT32, 0, u64, (uint32_t)(val))
#define TRACE_ARG_I64(n, val) FXT_ARG_IN(n, FXT_ARG_INT64, 0, i64, (int64_t)(val))
#define TRACE_ARG_U64(n, val) FXT_ARG_IN(n, FXT_ARG_UINT64, 0, u64, (uint64_t)(val))
#define TRACE_ARG_DOUBLE(n, val) FXT_ARG_IN(n, FXT_ARG_DOUBLE, 0, f64, (double)(val))
#define TRACE_ARG_STR(n, val) FXT_ARG_IN(n, FXT_ARG_STRING, 0, str, (val))
#define TRACE_ARG_STR_LITERAL(n, val)                                          \
	FXT_ARG_IN(n, FXT_ARG_STRING, FXT_ARG_IN_LITERAL, str, FXT_LITERAL(val))
#define TRACE_ARG_PTR(n, val)                                                  \
	FXT_ARG_IN(n, FXT_ARG_POINTER, 0, u64, (uint64_t)(uintptr_t)(val))
#define TRACE_ARG_KOID(n, val) FXT_ARG_IN(n, FXT_ARG_KOID, 0, u64, (uint64_t)(val))
#define TRACE_ARG_BOOL(n, val) FXT_ARG_IN(n, FXT_ARG_BOOL, 0, u64, (val) ? 1 : 0)

/*
 * The first of a macro's variadic arguments, and the rest (each followed
 * by a comma, or nothing): ISO C and C++ before C++20 want at least one
 * argument for a "...", so the macros take their last fixed parameter
 * through it and split it off here.
 */
#define FXT_FIRST(...) FXT_FIRST_(__VA_ARGS__, )
#define FXT_FIRST_(first, ...) first
#define FXT_REST(...) FXT_REST_(__VA_ARGS__, )
#define FXT_REST_(first, ...) __VA_ARGS__

/*
 * An argument array in the caller's frame (a compound literal is not C++).
 * A leading placeholder keeps it non-empty when there are no arguments;
 * FXT_ARGS() leaves it out. The fast and the slow path each declare their
 * own: an array whose address reaches the library is kept in memory, and
 * the inline writer would read its constant types back from the stack.
 */
#define FXT_ARGS_DECL(var, ...)                                                \
	const struct fxt_arg_in var[] = { { NULL, 0, 0, 0, { 0 } }, __VA_ARGS__ }
#define FXT_ARGS(var)                                                          \
	(var) + 1, (unsigned int)(sizeof(var) / sizeof((var)[0]) - 1)

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

/* ---------------------------------------------------------------------- */
/* Macros                                                                 */

#define FXT_UNIQUE(prefix) FXT_CAT(prefix, __LINE__)

#ifndef FXT_NTRACE

#define FXT_SITE_CALL(call)                                                    \
	do {                                                                   \
		static struct fxt_site fxt_site_;                              \
		if (fxt_site_maybe_enabled(&fxt_site_))                        \
			call;                                                  \
	} while (0)

/* A site with an argument list; the arguments after the enabled check. */
#define FXT_SITE_ARGS_CALL(call, ...)                                          \
	do {                                                                   \
		static struct fxt_site fxt_site_;                              \
		if (!fxt_site_maybe_enabled(&fxt_site_))                       \
			break;                                                 \
		FXT_ARGS_DECL(fxt_args_, __VA_ARGS__);                         \
		call;                                                          \
	} while (0)

/*
 * The arguments are evaluated once: in the inline writer's call or in the
 * library's, whichever runs; so are TRACE_DYN() strings, after the
 * enabled check. args: FXT_REST() of the macro's list.
 */
#define FXT_EVENT(type, cat, name, ts, extra, ...)                             \
	do {                                                                   \
		static struct fxt_site_args fxt_site_;                         \
		struct fxt_internal_writer *fxt_w_;                            \
		const char *fxt_cat_, *fxt_name_;                              \
		uint64_t fxt_state_;                                           \
		if (!fxt_site_maybe_enabled(&fxt_site_.site))                  \
			break;                                                 \
		fxt_cat_ = FXT_STR(cat);                                       \
		fxt_name_ = FXT_STR(name);                                     \
		fxt_w_ = fxt_dyn_ready(&fxt_site_.site,                        \
				       FXT_DYN_MASK(cat, name), fxt_name_,     \
				       &fxt_state_);                           \
		if (FXT_LIKELY(fxt_w_ != NULL)) {                              \
			FXT_ARGS_DECL(fxt_args_, __VA_ARGS__);                 \
			fxt_fast_event(&fxt_site_, fxt_w_, fxt_state_,         \
				       FXT_DYN_MASK(cat, name), fxt_cat_,      \
				       fxt_name_, (type), (ts), (extra),       \
				       FXT_ARGS(fxt_args_));                   \
		} else {                                                       \
			FXT_ARGS_DECL(fxt_args_, __VA_ARGS__);                 \
			fxt_slow_event(&fxt_site_, FXT_DYN_MASK(cat, name),    \
				       fxt_cat_, fxt_name_, (type), (ts),      \
				       (extra), FXT_ARGS(fxt_args_));          \
		}                                                              \
	} while (0)

/* Is the category enabled (one load and a branch when it is not)? */
#define TRACE_ENABLED(cat)                                                     \
	__extension__({                                                        \
		static struct fxt_site fxt_site_;                              \
		fxt_site_maybe_enabled(&fxt_site_) &&                          \
			(FXT_IS_DYN(cat) ?                                     \
				 fxt_internal_enabled_dyn(&fxt_site_,          \
							  FXT_STR(cat)) :      \
				 fxt_internal_enabled(&fxt_site_,              \
						      FXT_STR(cat)));          \
	})

/* The second of a macro's variadic arguments, and those after it. */
#define FXT_SECOND(...) FXT_SECOND_(__VA_ARGS__, )
#define FXT_SECOND_(first, second, ...) second
#define FXT_REST2(...) FXT_REST2_(__VA_ARGS__, )
#define FXT_REST2_(first, second, ...) __VA_ARGS__

/* The library's writer of an instant, for literal or dynamic strings. */
FXT_INLINE void fxt_slow_instant(struct fxt_site_args *site, unsigned int dyn,
				 const char *category, const char *name,
				 enum fxt_scope scope, uint64_t ts,
				 const struct fxt_arg_in *args,
				 unsigned int nargs)
{
	if (dyn)
		fxt_internal_instant_dyn(site, dyn, category, name, scope, ts,
					 args, nargs);
	else
		fxt_internal_instant_args_ts(site, category, name, scope, ts,
					     args, nargs);
}

/* args: FXT_REST() of the macro's list; ts 0: now. */
#define FXT_INSTANT(cat, name, ts, scope, ...)                                 \
	do {                                                                   \
		static struct fxt_site_args fxt_site_;                         \
		struct fxt_internal_writer *fxt_w_;                            \
		enum fxt_scope fxt_scope_;                                     \
		const char *fxt_cat_, *fxt_name_;                              \
		uint64_t fxt_state_, fxt_ts_;                                  \
		if (!fxt_site_maybe_enabled(&fxt_site_.site))                  \
			break;                                                 \
		fxt_ts_ = (ts);                                                \
		fxt_scope_ = (scope);                                          \
		fxt_cat_ = FXT_STR(cat);                                       \
		fxt_name_ = FXT_STR(name);                                     \
		fxt_w_ = fxt_dyn_ready(&fxt_site_.site,                        \
				       FXT_DYN_MASK(cat, name), fxt_name_,     \
				       &fxt_state_);                           \
		if (FXT_LIKELY(fxt_w_ != NULL &&                               \
			       fxt_scope_ == TRACE_SCOPE_THREAD)) {            \
			FXT_ARGS_DECL(fxt_args_, __VA_ARGS__);                 \
			fxt_fast_event(&fxt_site_, fxt_w_, fxt_state_,         \
				       FXT_DYN_MASK(cat, name), fxt_cat_,      \
				       fxt_name_, FXT_EVENT_INSTANT, fxt_ts_,  \
				       0, FXT_ARGS(fxt_args_));                \
		} else {                                                       \
			FXT_ARGS_DECL(fxt_args_, __VA_ARGS__);                 \
			fxt_slow_instant(&fxt_site_, FXT_DYN_MASK(cat, name),  \
					 fxt_cat_, fxt_name_, fxt_scope_,      \
					 fxt_ts_, FXT_ARGS(fxt_args_));        \
		}                                                              \
	} while (0)

/*
 * TRACE_INSTANT(cat, name, scope, args...); scope: TRACE_SCOPE_THREAD,
 * _PROCESS or _GLOBAL (an argument "scope").
 */
#define TRACE_INSTANT(cat, name, ...)                                          \
	FXT_INSTANT(cat, name, 0, FXT_FIRST(__VA_ARGS__), FXT_REST(__VA_ARGS__))

/* TRACE_COUNTER(cat, name, counter_id, args...): args are the values. */
#define TRACE_COUNTER(cat, name, ...)                                          \
	FXT_EVENT(FXT_EVENT_COUNTER, cat, name, 0, (FXT_FIRST(__VA_ARGS__)),   \
		  FXT_REST(__VA_ARGS__))

/* TRACE_DURATION_BEGIN/END(cat, name, args...) */
#define TRACE_DURATION_BEGIN(cat, ...)                                         \
	FXT_EVENT(FXT_EVENT_DURATION_BEGIN, cat, FXT_FIRST(__VA_ARGS__), 0, 0, \
		  FXT_REST(__VA_ARGS__))
#define TRACE_DURATION_END(cat, ...)                                           \
	FXT_EVENT(FXT_EVENT_DURATION_END, cat, FXT_FIRST(__VA_ARGS__), 0, 0,   \
		  FXT_REST(__VA_ARGS__))

/* TRACE_COMPLETE(cat, name, start, end, args...): fxt_now() values. */
#define TRACE_COMPLETE(cat, name, start, ...)                                  \
	FXT_EVENT(FXT_EVENT_DURATION_COMPLETE, cat, name, (start),             \
		  (FXT_FIRST(__VA_ARGS__)), FXT_REST(__VA_ARGS__))

/*
 * TRACE_DURATION(cat, name, args...): until the end of the enclosing
 * block (a cleanup attribute in C, a destructor in C++: early returns and
 * exceptions end it too). String argument values, and TRACE_DYN() names
 * the inline writer did not take, must stay valid until then: they are
 * read when the event is written.
 */
#define TRACE_DURATION(cat, ...)                                               \
	FXT_DURATION(FXT_UNIQUE(fxt_dsite_), FXT_UNIQUE(fxt_scope_), cat,      \
		     FXT_FIRST(__VA_ARGS__), FXT_REST(__VA_ARGS__))
#define FXT_DURATION(dsite, dscope, cat, name, ...)                            \
	static struct fxt_site_args dsite;                                     \
	FXT_SCOPE_DECL(dscope);                                                \
	if (fxt_site_maybe_enabled(&dsite.site)) {                             \
		const char *fxt_dcat_ = FXT_STR(cat);                          \
		const char *fxt_dname_ = FXT_STR(name);                        \
		dscope.w = fxt_dyn_ready(&dsite.site, FXT_DYN_MASK(cat, name), \
					fxt_dname_, &dscope.tag);              \
		if (FXT_LIKELY(dscope.w != NULL)) {                            \
			FXT_ARGS_DECL(fxt_dargs_, __VA_ARGS__);                \
			fxt_scope_args_begin(&dscope, &dsite, dscope.w,        \
					     FXT_DYN_MASK(cat, name),          \
					     fxt_dcat_, fxt_dname_,            \
					     FXT_ARGS(fxt_dargs_));            \
		} else {                                                       \
			FXT_ARGS_DECL(fxt_dargs_, __VA_ARGS__);                \
			fxt_slow_scope_begin(&dscope, &dsite,                  \
					     FXT_DYN_MASK(cat, name),          \
					     fxt_dcat_, fxt_dname_,            \
					     FXT_ARGS(fxt_dargs_));            \
		}                                                              \
	}

/* TRACE_ASYNC_BEGIN/INSTANT/END(cat, name, id, args...) */
#define TRACE_ASYNC_BEGIN(cat, name, ...)                                      \
	FXT_EVENT(FXT_EVENT_ASYNC_BEGIN, cat, name, 0, (FXT_FIRST(__VA_ARGS__)), \
		  FXT_REST(__VA_ARGS__))
#define TRACE_ASYNC_INSTANT(cat, name, ...)                                    \
	FXT_EVENT(FXT_EVENT_ASYNC_INSTANT, cat, name, 0,                       \
		  (FXT_FIRST(__VA_ARGS__)), FXT_REST(__VA_ARGS__))
#define TRACE_ASYNC_END(cat, name, ...)                                        \
	FXT_EVENT(FXT_EVENT_ASYNC_END, cat, name, 0, (FXT_FIRST(__VA_ARGS__)), \
		  FXT_REST(__VA_ARGS__))

/* TRACE_FLOW_BEGIN/STEP/END(cat, name, id, args...) */
#define TRACE_FLOW_BEGIN(cat, name, ...)                                       \
	FXT_EVENT(FXT_EVENT_FLOW_BEGIN, cat, name, 0, (FXT_FIRST(__VA_ARGS__)), \
		  FXT_REST(__VA_ARGS__))
#define TRACE_FLOW_STEP(cat, name, ...)                                        \
	FXT_EVENT(FXT_EVENT_FLOW_STEP, cat, name, 0, (FXT_FIRST(__VA_ARGS__)), \
		  FXT_REST(__VA_ARGS__))
#define TRACE_FLOW_END(cat, name, ...)                                         \
	FXT_EVENT(FXT_EVENT_FLOW_END, cat, name, 0, (FXT_FIRST(__VA_ARGS__)),  \
		  FXT_REST(__VA_ARGS__))

/*
 * Events recorded after the fact, at ts (fxt_now() ticks, not 0): the
 * macros above with a timestamp after the name.
 *	TRACE_INSTANT_AT(cat, name, ts, scope, args...)
 *	TRACE_COUNTER_AT(cat, name, ts, counter_id, args...)
 *	TRACE_DURATION_BEGIN_AT / _END_AT(cat, name, ts, args...)
 *	TRACE_ASYNC_*_AT, TRACE_FLOW_*_AT(cat, name, ts, id, args...)
 * TRACE_COMPLETE takes its times already.
 */
#define TRACE_INSTANT_AT(cat, name, ts, ...)                                   \
	FXT_INSTANT(cat, name, ts, FXT_FIRST(__VA_ARGS__), FXT_REST(__VA_ARGS__))
#define FXT_EVENT_AT(type, cat, name, ts, ...)                                 \
	FXT_EVENT(type, cat, name, (ts), (FXT_FIRST(__VA_ARGS__)),             \
		  FXT_REST(__VA_ARGS__))
#define TRACE_COUNTER_AT(cat, name, ts, ...)                                   \
	FXT_EVENT_AT(FXT_EVENT_COUNTER, cat, name, ts, __VA_ARGS__)
#define TRACE_DURATION_BEGIN_AT(cat, name, ...)                                \
	FXT_EVENT(FXT_EVENT_DURATION_BEGIN, cat, name,                         \
		  (FXT_FIRST(__VA_ARGS__)), 0, FXT_REST(__VA_ARGS__))
#define TRACE_DURATION_END_AT(cat, name, ...)                                  \
	FXT_EVENT(FXT_EVENT_DURATION_END, cat, name, (FXT_FIRST(__VA_ARGS__)), \
		  0, FXT_REST(__VA_ARGS__))
#define TRACE_ASYNC_BEGIN_AT(cat, name, ts, ...)                               \
	FXT_EVENT_AT(FXT_EVENT_ASYNC_BEGIN, cat, name, ts, __VA_ARGS__)
#define TRACE_ASYNC_INSTANT_AT(cat, name, ts, ...)                             \
	FXT_EVENT_AT(FXT_EVENT_ASYNC_INSTANT, cat, name, ts, __VA_ARGS__)
#define TRACE_ASYNC_END_AT(cat, name, ts, ...)                                 \
	FXT_EVENT_AT(FXT_EVENT_ASYNC_END, cat, name, ts, __VA_ARGS__)
#define TRACE_FLOW_BEGIN_AT(cat, name, ts, ...)                                \
	FXT_EVENT_AT(FXT_EVENT_FLOW_BEGIN, cat, name, ts, __VA_ARGS__)
#define TRACE_FLOW_STEP_AT(cat, name, ts, ...)                                 \
	FXT_EVENT_AT(FXT_EVENT_FLOW_STEP, cat, name, ts, __VA_ARGS__)
#define TRACE_FLOW_END_AT(cat, name, ts, ...)                                  \
	FXT_EVENT_AT(FXT_EVENT_FLOW_END, cat, name, ts, __VA_ARGS__)

/* Payload of at most FXT_BLOB_MAX bytes; type: enum fxt_blob_type. */
#define TRACE_BLOB(cat, name, type, data, len)                                 \
	FXT_SITE_CALL(fxt_internal_blob_dyn(&fxt_site_,                        \
					    FXT_DYN_MASK(cat, name),           \
					    FXT_STR(cat), FXT_STR(name),       \
					    (type), (data), (len)))

/* A log record: the message (not NUL-terminated), or printf-formatted. */
#define TRACE_LOG(cat, message, len)                                           \
	FXT_SITE_CALL(fxt_internal_log_dyn(&fxt_site_, FXT_DYN_MASK(cat, ""),  \
					   FXT_STR(cat), (message), (len)))
#define TRACE_LOGF(cat, ...)                                                   \
	FXT_SITE_CALL(fxt_internal_logf_dyn(&fxt_site_,                        \
					    FXT_DYN_MASK(cat, ""),             \
					    FXT_STR(cat), __VA_ARGS__))

/*
 * TRACE_USERSPACE_OBJECT(cat, pointer, name, args...): names a pointer
 * for later TRACE_ARG_PTR arguments; name may be any string (inline).
 */
#define TRACE_USERSPACE_OBJECT(cat, pointer, ...)                              \
	FXT_SITE_ARGS_CALL(fxt_internal_userspace_object_dyn(                  \
				   &fxt_site_, FXT_DYN_MASK(cat, ""),          \
				   FXT_STR(cat), (pointer),                    \
				   (FXT_FIRST(__VA_ARGS__)),                   \
				   FXT_ARGS(fxt_args_)),                       \
			   FXT_REST(__VA_ARGS__))

/*
 * TRACE_KERNEL_OBJECT(cat, koid, obj_type, name, args...): names a koid;
 * obj_type: enum fxt_zx_obj_type; name may be any string (inline).
 */
#define TRACE_KERNEL_OBJECT(cat, koid, obj_type, ...)                          \
	FXT_SITE_ARGS_CALL(fxt_internal_kernel_object_dyn(                     \
				   &fxt_site_, FXT_DYN_MASK(cat, ""),          \
				   FXT_STR(cat), (koid), (obj_type),           \
				   (FXT_FIRST(__VA_ARGS__)),                   \
				   FXT_ARGS(fxt_args_)),                       \
			   FXT_REST(__VA_ARGS__))

#else /* FXT_NTRACE */

/*
 * Compiled out; the values are still "used" (in dead code, never
 * evaluated), so that a build with FXT_NTRACE warns about nothing more.
 */
#define FXT_NOOP(use, ...)                                                     \
	do {                                                                   \
		if (0) {                                                       \
			FXT_ARGS_DECL(fxt_args_, __VA_ARGS__);                 \
			(void)fxt_args_;                                       \
			use;                                                   \
		}                                                              \
	} while (0)

static inline __attribute__((format(printf, 1, 2))) void
fxt_noop_logf(const char *fmt, ...)
{
	(void)fmt;
}

/* The strings of a compiled-out macro, "used" and not evaluated. */
#define FXT_NOOP_STRS(cat, name) ((void)FXT_STR(cat), (void)FXT_STR(name))

#define TRACE_ENABLED(cat) (false && fxt_dyn_str(FXT_STR(cat)))
#define TRACE_INSTANT(cat, name, ...)                                          \
	FXT_NOOP((FXT_NOOP_STRS(cat, name), (void)(FXT_FIRST(__VA_ARGS__))),   \
		 FXT_REST(__VA_ARGS__))
#define TRACE_COUNTER TRACE_INSTANT
#define TRACE_DURATION_BEGIN(cat, ...)                                         \
	FXT_NOOP(FXT_NOOP_STRS(cat, FXT_FIRST(__VA_ARGS__)),                   \
		 FXT_REST(__VA_ARGS__))
#define TRACE_DURATION_END TRACE_DURATION_BEGIN
#define TRACE_COMPLETE(cat, name, start, ...)                                  \
	FXT_NOOP((FXT_NOOP_STRS(cat, name), (void)(start),                     \
		  (void)(FXT_FIRST(__VA_ARGS__))),                             \
		 FXT_REST(__VA_ARGS__))
#define TRACE_DURATION TRACE_DURATION_BEGIN
#define TRACE_ASYNC_BEGIN TRACE_INSTANT
#define TRACE_ASYNC_INSTANT TRACE_INSTANT
#define TRACE_ASYNC_END TRACE_INSTANT
#define TRACE_FLOW_BEGIN TRACE_INSTANT
#define TRACE_FLOW_STEP TRACE_INSTANT
#define TRACE_FLOW_END TRACE_INSTANT
#define TRACE_INSTANT_AT TRACE_COMPLETE
#define TRACE_COUNTER_AT TRACE_COMPLETE
#define TRACE_DURATION_BEGIN_AT TRACE_INSTANT
#define TRACE_DURATION_END_AT TRACE_INSTANT
#define TRACE_ASYNC_BEGIN_AT TRACE_COMPLETE
#define TRACE_ASYNC_INSTANT_AT TRACE_COMPLETE
#define TRACE_ASYNC_END_AT TRACE_COMPLETE
#define TRACE_FLOW_BEGIN_AT TRACE_COMPLETE
#define TRACE_FLOW_STEP_AT TRACE_COMPLETE
#define TRACE_FLOW_END_AT TRACE_COMPLETE
#define TRACE_BLOB(cat, name, type, data, len)                                 \
	FXT_NOOP((FXT_NOOP_STRS(cat, name), (void)(type), (void)(data),        \
		  (void)(len)), )
#define TRACE_LOG(cat, message, len)                                           \
	FXT_NOOP((FXT_NOOP_STRS(cat, ""), (void)(message), (void)(len)), )
#define TRACE_LOGF(cat, ...)                                                   \
	FXT_NOOP((FXT_NOOP_STRS(cat, ""), fxt_noop_logf(__VA_ARGS__)), )
#define TRACE_USERSPACE_OBJECT(cat, pointer, ...)                              \
	FXT_NOOP((FXT_NOOP_STRS(cat, ""), (void)(pointer),                     \
		  (void)(FXT_FIRST(__VA_ARGS__))),                             \
		 FXT_REST(__VA_ARGS__))
#define TRACE_KERNEL_OBJECT(cat, koid, obj_type, ...)                          \
	FXT_NOOP((FXT_NOOP_STRS(cat, ""), (void)(koid), (void)(obj_type),      \
		  (void)(FXT_FIRST(__VA_ARGS__))),                             \
		 FXT_REST(__VA_ARGS__))

#endif /* FXT_NTRACE */

/* Largest blob payload a TRACE_BLOB record carries. */
#define FXT_BLOB_MAX 32000u

#ifdef __cplusplus
}
#endif

#endif /* FXT_PROVIDER_H */
