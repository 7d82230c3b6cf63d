/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Arguments of the provider's macros (TRACE_ARG_*) and the strings they
 * take: literals, interned by address, or TRACE_DYN() expressions,
 * interned by content. Part of <fxt/provider.h>, which includes it.
 *
 * struct fxt_arg_in is every argument written as FXT: the provider's and
 * the archive writer's (daemon/archive/fxt_writer.h), encoded by one
 * fxt_encode_arg() (<fxt/encode.h>).
 */
#ifndef FXT_PROVIDER_ARGS_H
#define FXT_PROVIDER_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include <fxt/fxt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set in fxt_arg_in.flags: the string value is a literal, intern it. */
#define FXT_ARG_IN_LITERAL 1u
/* The argument's name is dynamic (TRACE_DYN): intern it by content. */
#define FXT_ARG_IN_DYN_NAME 2u

/*
 * One argument; its layout is the provider library's ABI. The provider's
 * macros give NUL-terminated strings (flags: FXT_ARG_IN_*) and leave the
 * refs 0: the library interns the strings itself. The archive writer's
 * callers give the refs: a string table index, or inline (0x8000 | len)
 * with the bytes at name or v.str.
 */
struct fxt_arg_in {
	const char *name;
	uint16_t type;		/* enum fxt_arg_type */
	uint16_t flags;
	uint16_t name_ref;
	uint16_t value_ref;	/* of a string value */
	union {
		int64_t i64;	/* INT32, INT64 */
		uint64_t u64;	/* UINT32, UINT64, POINTER, KOID; BOOL: 0, 1 */
		double f64;
		const char *str;
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
		a.name_ref = 0;                                                \
		a.value_ref = 0;                                               \
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
	  .flags = (f) | FXT_ARG_NAME_FLAGS(n), .name_ref = 0,                 \
	  .value_ref = 0, .v = { .field = (val) } }
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
	const struct fxt_arg_in var[] = { { NULL, 0, 0, 0, 0, { 0 } },         \
					  __VA_ARGS__ }
#define FXT_ARGS(var)                                                          \
	(var) + 1, (unsigned int)(sizeof(var) / sizeof((var)[0]) - 1)

#ifdef __cplusplus
}
#endif

#endif /* FXT_PROVIDER_ARGS_H */
