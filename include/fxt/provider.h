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
 * Layers, as in Fuchsia's trace-engine: the TRACE_* macros below and
 * their TRACE_ARG_* arguments (<fxt/provider_args.h>); the call sites, the
 * fxt_internal_* entry points and the inline writer they expand to
 * (<fxt/provider_internal.h>: ABI-stable, not for clients); the record
 * writer inside the library. Define FXT_NTRACE to compile every macro
 * out (its values are still "used": no unused warnings).
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
#include <fxt/provider_args.h>

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

#include <fxt/provider_internal.h>

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

/*
 * An FXT_EVENT_<kind> event whose id (its extra word: a counter id, an
 * async or flow correlation id) comes first in the "...", at ts or now.
 */
#define FXT_ID_EVENT_AT(kind, cat, name, ts, ...)                              \
	FXT_EVENT(FXT_EVENT_##kind, cat, name, (ts), (FXT_FIRST(__VA_ARGS__)), \
		  FXT_REST(__VA_ARGS__))
#define FXT_ID_EVENT(kind, cat, name, ...)                                     \
	FXT_ID_EVENT_AT(kind, cat, name, 0, __VA_ARGS__)

/* TRACE_COUNTER(cat, name, counter_id, args...): args are the values. */
#define TRACE_COUNTER(...) FXT_ID_EVENT(COUNTER, __VA_ARGS__)

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

/*
 * TRACE_ASYNC_BEGIN/INSTANT/END(cat, name, id, args...)
 * TRACE_FLOW_BEGIN/STEP/END(cat, name, id, args...)
 */
#define TRACE_ASYNC_BEGIN(...) FXT_ID_EVENT(ASYNC_BEGIN, __VA_ARGS__)
#define TRACE_ASYNC_INSTANT(...) FXT_ID_EVENT(ASYNC_INSTANT, __VA_ARGS__)
#define TRACE_ASYNC_END(...) FXT_ID_EVENT(ASYNC_END, __VA_ARGS__)
#define TRACE_FLOW_BEGIN(...) FXT_ID_EVENT(FLOW_BEGIN, __VA_ARGS__)
#define TRACE_FLOW_STEP(...) FXT_ID_EVENT(FLOW_STEP, __VA_ARGS__)
#define TRACE_FLOW_END(...) FXT_ID_EVENT(FLOW_END, __VA_ARGS__)

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
#define TRACE_COUNTER_AT(...) FXT_ID_EVENT_AT(COUNTER, __VA_ARGS__)
#define TRACE_DURATION_BEGIN_AT(cat, name, ...)                                \
	FXT_EVENT(FXT_EVENT_DURATION_BEGIN, cat, name,                         \
		  (FXT_FIRST(__VA_ARGS__)), 0, FXT_REST(__VA_ARGS__))
#define TRACE_DURATION_END_AT(cat, name, ...)                                  \
	FXT_EVENT(FXT_EVENT_DURATION_END, cat, name, (FXT_FIRST(__VA_ARGS__)), \
		  0, FXT_REST(__VA_ARGS__))
#define TRACE_ASYNC_BEGIN_AT(...) FXT_ID_EVENT_AT(ASYNC_BEGIN, __VA_ARGS__)
#define TRACE_ASYNC_INSTANT_AT(...) FXT_ID_EVENT_AT(ASYNC_INSTANT, __VA_ARGS__)
#define TRACE_ASYNC_END_AT(...) FXT_ID_EVENT_AT(ASYNC_END, __VA_ARGS__)
#define TRACE_FLOW_BEGIN_AT(...) FXT_ID_EVENT_AT(FLOW_BEGIN, __VA_ARGS__)
#define TRACE_FLOW_STEP_AT(...) FXT_ID_EVENT_AT(FLOW_STEP, __VA_ARGS__)
#define TRACE_FLOW_END_AT(...) FXT_ID_EVENT_AT(FLOW_END, __VA_ARGS__)

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
