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
 * Strings: categories, event names and argument names must be string
 * literals (the macros enforce it); they are interned by address. String
 * argument values are copied into the record (TRACE_ARG_STR) unless they
 * are literals (TRACE_ARG_STR_LITERAL, interned). Up to 15 arguments.
 *
 * Not async-signal-safe: an event written from a signal handler that
 * interrupted another event of the same thread is dropped (and counted).
 * A shared object containing call sites must not be dlclose()d while the
 * process runs (its call-site words are on a process-wide list).
 *
 * Layers, as in Fuchsia's trace-engine: the TRACE_* macros below; the
 * fxt_internal_* entry points they call (ABI-stable, not for clients);
 * the record writer inside the library. Define FXT_NTRACE to compile
 * every macro out.
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

#define FXT_PROVIDER_API_VERSION 1

/*
 * Joining a trace is asynchronous: a short program may end before its
 * provider got the buffer. With this variable set (milliseconds, at most
 * 10000), the first call site waits that long at most for the first
 * exchange with the manager to settle. `tracectl record` is the intended
 * setter; without a manager, or with an idle one, the wait ends at once
 * or at the limit.
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

/* True while a trace runs with this category enabled (no call-site cache). */
bool fxt_category_enabled(const char *category);

enum fxt_scope {
	TRACE_SCOPE_THREAD = 0,
	TRACE_SCOPE_PROCESS = 1,
	TRACE_SCOPE_GLOBAL = 2,
};

/* ---------------------------------------------------------------------- */
/* Arguments                                                              */

/* Set in fxt_arg_in.flags: the string value is a literal, intern it. */
#define FXT_ARG_IN_LITERAL 1u

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

#define FXT_ARG_IN(n, t, f, field, val)                                        \
	{ .name = FXT_LITERAL(n), .type = (t), .flags = (f), .reserved = 0,     \
	  .v = { .field = (val) } }

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
 * A leading placeholder keeps the array non-empty when there are no
 * arguments; the count leaves it out.
 */
#define FXT_ARGS_ARRAY(...)                                                    \
	((const struct fxt_arg_in[]){ { NULL, 0, 0, 0, { 0 } }, __VA_ARGS__ })
#define FXT_ARGS(...) (FXT_ARGS_ARRAY(__VA_ARGS__) + 1),                       \
	(unsigned int)(sizeof(FXT_ARGS_ARRAY(__VA_ARGS__)) /                   \
		       sizeof(struct fxt_arg_in) - 1)

/* ---------------------------------------------------------------------- */
/* Call sites (internal; the layout is ABI)                               */

/*
 * One per macro use, zero-initialised. state: 0 = not evaluated for the
 * current trace; FXT_SITE_DISABLED = skip; FXT_SITE_ENABLED with the
 * category and name refs and the trace generation they belong to.
 * Written by the library only; the macros only test FXT_SITE_DISABLED.
 */
struct fxt_site {
	uint64_t state;
	struct fxt_site *next;	/* process-wide list, for invalidation */
};

#define FXT_SITE_DISABLED 1ull
#define FXT_SITE_ENABLED 2ull

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
/* Macros                                                                 */

#define FXT_CAT2(a, b) a##b
#define FXT_CAT(a, b) FXT_CAT2(a, b)
#define FXT_UNIQUE(prefix) FXT_CAT(prefix, __LINE__)

#ifndef FXT_NTRACE

#define FXT_SITE_CALL(call)                                                    \
	do {                                                                   \
		static struct fxt_site fxt_site_;                              \
		if (fxt_site_maybe_enabled(&fxt_site_))                        \
			call;                                                  \
	} while (0)

#define FXT_EVENT(type, cat, name, ts, extra, ...)                             \
	FXT_SITE_CALL(fxt_internal_event(&fxt_site_, FXT_LITERAL(cat),          \
					 FXT_LITERAL(name), (type), (ts),      \
					 (extra), FXT_ARGS(__VA_ARGS__)))

/* Is the category enabled (one load and a branch when it is not)? */
#define TRACE_ENABLED(cat)                                                     \
	__extension__({                                                        \
		static struct fxt_site fxt_site_;                              \
		fxt_site_maybe_enabled(&fxt_site_) &&                          \
			fxt_internal_enabled(&fxt_site_, FXT_LITERAL(cat));    \
	})

/* scope: TRACE_SCOPE_THREAD, _PROCESS or _GLOBAL (an argument "scope"). */
#define TRACE_INSTANT(cat, name, scope, ...)                                   \
	FXT_SITE_CALL(fxt_internal_instant(&fxt_site_, FXT_LITERAL(cat),        \
					   FXT_LITERAL(name), (scope),         \
					   FXT_ARGS(__VA_ARGS__)))

/* The arguments are the counter's values (numeric). */
#define TRACE_COUNTER(cat, name, counter_id, ...)                              \
	FXT_EVENT(FXT_EVENT_COUNTER, cat, name, 0, (counter_id), __VA_ARGS__)

#define TRACE_DURATION_BEGIN(cat, name, ...)                                   \
	FXT_EVENT(FXT_EVENT_DURATION_BEGIN, cat, name, 0, 0, __VA_ARGS__)
#define TRACE_DURATION_END(cat, name, ...)                                     \
	FXT_EVENT(FXT_EVENT_DURATION_END, cat, name, 0, 0, __VA_ARGS__)

/* start and end are fxt_now() values. */
#define TRACE_COMPLETE(cat, name, start, end, ...)                             \
	FXT_EVENT(FXT_EVENT_DURATION_COMPLETE, cat, name, (start), (end),       \
		  __VA_ARGS__)

/*
 * Until the end of the enclosing block. String argument values must stay
 * valid until then: they are read when the event is written.
 */
#define TRACE_DURATION(cat, name, ...)                                         \
	static struct fxt_site FXT_UNIQUE(fxt_dsite_);                         \
	struct fxt_scope_state FXT_UNIQUE(fxt_scope_)                          \
		__attribute__((cleanup(fxt_scope_cleanup)));                   \
	FXT_UNIQUE(fxt_scope_).site = NULL;                                    \
	if (fxt_site_maybe_enabled(&FXT_UNIQUE(fxt_dsite_)))                   \
	fxt_internal_scope_begin(&FXT_UNIQUE(fxt_scope_),                      \
				 &FXT_UNIQUE(fxt_dsite_), FXT_LITERAL(cat),    \
				 FXT_LITERAL(name), FXT_ARGS(__VA_ARGS__))

#define TRACE_ASYNC_BEGIN(cat, name, id, ...)                                  \
	FXT_EVENT(FXT_EVENT_ASYNC_BEGIN, cat, name, 0, (id), __VA_ARGS__)
#define TRACE_ASYNC_INSTANT(cat, name, id, ...)                                \
	FXT_EVENT(FXT_EVENT_ASYNC_INSTANT, cat, name, 0, (id), __VA_ARGS__)
#define TRACE_ASYNC_END(cat, name, id, ...)                                    \
	FXT_EVENT(FXT_EVENT_ASYNC_END, cat, name, 0, (id), __VA_ARGS__)

#define TRACE_FLOW_BEGIN(cat, name, id, ...)                                   \
	FXT_EVENT(FXT_EVENT_FLOW_BEGIN, cat, name, 0, (id), __VA_ARGS__)
#define TRACE_FLOW_STEP(cat, name, id, ...)                                    \
	FXT_EVENT(FXT_EVENT_FLOW_STEP, cat, name, 0, (id), __VA_ARGS__)
#define TRACE_FLOW_END(cat, name, id, ...)                                     \
	FXT_EVENT(FXT_EVENT_FLOW_END, cat, name, 0, (id), __VA_ARGS__)

/* Payload of at most FXT_BLOB_MAX bytes; type: enum fxt_blob_type. */
#define TRACE_BLOB(cat, name, type, data, len)                                 \
	FXT_SITE_CALL(fxt_internal_blob(&fxt_site_, FXT_LITERAL(cat),           \
					FXT_LITERAL(name), (type), (data),     \
					(len)))

/* A log record: the message (not NUL-terminated), or printf-formatted. */
#define TRACE_LOG(cat, message, len)                                           \
	FXT_SITE_CALL(fxt_internal_log(&fxt_site_, FXT_LITERAL(cat),            \
				       (message), (len)))
#define TRACE_LOGF(cat, ...)                                                   \
	FXT_SITE_CALL(fxt_internal_logf(&fxt_site_, FXT_LITERAL(cat),           \
					__VA_ARGS__))

/* Names a pointer for later TRACE_ARG_PTR arguments; name may be dynamic. */
#define TRACE_USERSPACE_OBJECT(cat, pointer, name, ...)                        \
	FXT_SITE_CALL(fxt_internal_userspace_object(&fxt_site_,                 \
						    FXT_LITERAL(cat),          \
						    (pointer), (name),         \
						    FXT_ARGS(__VA_ARGS__)))

/* Names a koid; obj_type: enum fxt_zx_obj_type; name may be dynamic. */
#define TRACE_KERNEL_OBJECT(cat, koid, obj_type, name, ...)                    \
	FXT_SITE_CALL(fxt_internal_kernel_object(&fxt_site_, FXT_LITERAL(cat),  \
						 (koid), (obj_type), (name),   \
						 FXT_ARGS(__VA_ARGS__)))

#else /* FXT_NTRACE */

#define TRACE_ENABLED(cat) false
#define TRACE_INSTANT(cat, name, scope, ...) do { } while (0)
#define TRACE_COUNTER(cat, name, counter_id, ...) do { } while (0)
#define TRACE_DURATION_BEGIN(cat, name, ...) do { } while (0)
#define TRACE_DURATION_END(cat, name, ...) do { } while (0)
#define TRACE_COMPLETE(cat, name, start, end, ...) do { } while (0)
#define TRACE_DURATION(cat, name, ...) do { } while (0)
#define TRACE_ASYNC_BEGIN(cat, name, id, ...) do { } while (0)
#define TRACE_ASYNC_INSTANT(cat, name, id, ...) do { } while (0)
#define TRACE_ASYNC_END(cat, name, id, ...) do { } while (0)
#define TRACE_FLOW_BEGIN(cat, name, id, ...) do { } while (0)
#define TRACE_FLOW_STEP(cat, name, id, ...) do { } while (0)
#define TRACE_FLOW_END(cat, name, id, ...) do { } while (0)
#define TRACE_BLOB(cat, name, type, data, len) do { } while (0)
#define TRACE_LOG(cat, message, len) do { } while (0)
#define TRACE_LOGF(cat, ...) do { } while (0)
#define TRACE_USERSPACE_OBJECT(cat, pointer, name, ...) do { } while (0)
#define TRACE_KERNEL_OBJECT(cat, koid, obj_type, name, ...) do { } while (0)

#endif /* FXT_NTRACE */

/* Largest blob payload a TRACE_BLOB record carries. */
#define FXT_BLOB_MAX 32000u

#ifdef __cplusplus
}
#endif

#endif /* FXT_PROVIDER_H */
