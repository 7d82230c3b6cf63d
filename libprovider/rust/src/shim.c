// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The header's inline writer for call sites built in Rust: what the
 * <fxt/provider.h> macros expand to, with the site, strings and arguments
 * as parameters. The records are written by <fxt/provider_internal.h> and
 * the library, never by Rust. Rust tests the site word first (the
 * disabled path costs no call); dyn: FXT_DYN_* of the strings given.
 */
#include <fxt/provider.h>

/*
 * The inline writer's loops unrolled for the usual argument counts, as
 * in a macro, where the count is a constant.
 */
#define FXTRACE_RS_BY_NARGS(call)                                              \
	switch (nargs) {                                                       \
	case 0: call(0); break;                                                \
	case 1: call(1); break;                                                \
	case 2: call(2); break;                                                \
	case 3: call(3); break;                                                \
	case 4: call(4); break;                                                \
	default: call(nargs); break;                                           \
	}

FXT_INLINE void event_n(struct fxt_site_args *site, unsigned int dyn,
			const char *category, const char *name,
			unsigned int type, uint64_t ts, uint64_t extra,
			const struct fxt_arg_in *args, unsigned int nargs)
{
	struct fxt_internal_writer *w;
	uint64_t state;

	w = fxt_dyn_ready(&site->site, dyn, name, &state);
	if (FXT_LIKELY(w != NULL))
		fxt_fast_event(site, w, state, dyn, category, name, type, ts,
			       extra, args, nargs);
	else
		fxt_slow_event(site, dyn, category, name, type, ts, extra, args,
			       nargs);
}

void fxtrace_rs_event(struct fxt_site_args *site, unsigned int dyn,
		      const char *category, const char *name,
		      unsigned int type, uint64_t ts, uint64_t extra,
		      const struct fxt_arg_in *args, unsigned int nargs)
{
#define EVENT_N(n)                                                             \
	event_n(site, dyn, category, name, type, ts, extra, args, (n))
	FXTRACE_RS_BY_NARGS(EVENT_N)
#undef EVENT_N
}

void fxtrace_rs_instant(struct fxt_site_args *site, unsigned int dyn,
			const char *category, const char *name,
			enum fxt_scope scope, uint64_t ts,
			const struct fxt_arg_in *args, unsigned int nargs)
{
	if (scope == TRACE_SCOPE_THREAD)
		fxtrace_rs_event(site, dyn, category, name, FXT_EVENT_INSTANT,
				 ts, 0, args, nargs);
	else if (dyn)
		fxt_internal_instant_dyn(site, dyn, category, name, scope, ts,
					 args, nargs);
	else
		fxt_internal_instant_args_ts(site, category, name, scope, ts,
					     args, nargs);
}

FXT_INLINE void scope_begin_n(struct fxt_scope_args *scope,
			      struct fxt_site_args *site, unsigned int dyn,
			      const char *category, const char *name,
			      const struct fxt_arg_in *args, unsigned int nargs)
{
	scope->header = 0;
	scope->w = fxt_dyn_ready(&site->site, dyn, name, &scope->tag);
	if (FXT_LIKELY(scope->w != NULL))
		fxt_scope_args_begin(scope, site, scope->w, dyn, category, name,
				     args, nargs);
	else
		fxt_slow_scope_begin(scope, site, dyn, category, name, args,
				     nargs);
}

/*
 * TRACE_DURATION's beginning; scope->header 0 after it: nothing to end.
 * scope may be cut to nargs arguments (the Rust guard's storage).
 */
void fxtrace_rs_scope_begin(struct fxt_scope_args *scope,
			    struct fxt_site_args *site, unsigned int dyn,
			    const char *category, const char *name,
			    const struct fxt_arg_in *args, unsigned int nargs)
{
#define SCOPE_BEGIN_N(n)                                                       \
	scope_begin_n(scope, site, dyn, category, name, args, (n))
	FXTRACE_RS_BY_NARGS(SCOPE_BEGIN_N)
#undef SCOPE_BEGIN_N
}

/*
 * A call site of the crate's macros, a Rust static: the site, its
 * literal strings and its kind. Each call gives the argument types, 4
 * bits each (constants in Rust, from the values' types: never strings),
 * and the values as 64 bits (INT32, UINT32 and BOOL in the low 32): the
 * one call across the boundary carries nothing else.
 */
/*
 * A site's argument header words but for their values, as the C macros
 * have them as constants: made once for the site's word `state` (its
 * trace, and arg_name) and the types `types`. seq, odd while they are
 * being written, guards them (the other fields are read relaxed).
 */
struct fxtrace_rs_templates {
	uint64_t seq;
	uint64_t state;
	uint64_t types;
	uint64_t words[FXT_MAX_ARGS];
	uint32_t wide;		/* bit i: argument i has a word of value */
	uint32_t nwords;
};

struct fxtrace_rs_site {
	struct fxt_site_args args;
	struct fxtrace_rs_templates tmpl;
	const char *category;
	const char *name;
	const char *const *arg_names;
	uint32_t kind;		/* enum fxt_event_type */
	uint32_t scope;		/* an instant's enum fxt_scope */
};

FXT_INLINE void site_args(struct fxt_arg_in *args,
			  const struct fxtrace_rs_site *s, uint64_t types,
			  const uint64_t *values, unsigned int nargs)
{
	unsigned int i;

	FXT_UNROLL
	for (i = 0; i < nargs; i++) {
		args[i] = (struct fxt_arg_in){
			.name = s->arg_names[i],
			.type = (uint16_t)((types >> (4 * i)) & 15),
			.v = { .u64 = values[i] },
		};
	}
}

FXT_INLINE void site_event_n(struct fxtrace_rs_site *s, uint64_t types,
			     uint64_t ts, uint64_t extra,
			     const uint64_t *values, unsigned int nargs)
{
	struct fxt_arg_in args[FXT_MAX_ARGS];

	/* A complete event begun at ts (a span's entry) ends now. */
	if (s->kind == FXT_EVENT_DURATION_COMPLETE && !extra)
		extra = fxt_internal_now();
	site_args(args, s, types, values, nargs);
	if (s->kind == FXT_EVENT_INSTANT && s->scope != TRACE_SCOPE_THREAD)
		fxt_internal_instant_args_ts(&s->args, s->category, s->name,
					     s->scope, 0, args, nargs);
	else
		event_n(&s->args, 0, s->category, s->name, s->kind, ts, extra,
			args, nargs);
}

/* ts 0: now; a complete event's extra (its end) 0: now. */
void fxtrace_rs_site_event(struct fxtrace_rs_site *s, uint64_t types,
			   uint64_t ts, uint64_t extra, const uint64_t *values,
			   unsigned int nargs)
{
#define SITE_EVENT_N(n) site_event_n(s, types, ts, extra, values, (n))
	FXTRACE_RS_BY_NARGS(SITE_EVENT_N)
#undef SITE_EVENT_N
}

/* The site's templates for state and types, after fxt_fast_ready(). */
static void templates_put(struct fxtrace_rs_site *s, uint64_t state,
			  uint64_t types, unsigned int nargs)
{
	struct fxtrace_rs_templates *t = &s->tmpl;
	uint64_t seq = __atomic_load_n(&t->seq, __ATOMIC_RELAXED);
	uint32_t wide = 0, nwords = 0;
	unsigned int i;

	/* Another thread writing them: they are its. */
	if ((seq & 1) ||
	    !__atomic_compare_exchange_n(&t->seq, &seq, seq + 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (i = 0; i < nargs; i++) {
		unsigned int type = (types >> (4 * i)) & 15;
		bool two = fxt_arg_wide(type);
		uint16_t name = __atomic_load_n(&s->args.arg_name[i],
						__ATOMIC_RELAXED);

		__atomic_store_n(&t->words[i],
				 fxt_arg_header(type, 1 + two, name, 0),
				 __ATOMIC_RELAXED);
		wide |= (uint32_t)two << i;
		nwords += 1 + two;
	}
	__atomic_store_n(&t->wide, wide, __ATOMIC_RELAXED);
	__atomic_store_n(&t->nwords, nwords, __ATOMIC_RELAXED);
	__atomic_store_n(&t->state, state, __ATOMIC_RELAXED);
	__atomic_store_n(&t->types, types, __ATOMIC_RELAXED);
	__atomic_store_n(&t->seq, seq + 2, __ATOMIC_RELEASE);
}

/*
 * fxt_scope_args_begin() with the site's templates, if made for state
 * and types: the words are the C macro's; false: nothing done.
 */
FXT_INLINE bool templated_scope_begin(struct fxt_scope_args *scope,
				      const struct fxtrace_rs_site *s,
				      struct fxt_internal_writer *w,
				      uint64_t state, uint64_t types,
				      const uint64_t *values,
				      unsigned int nargs)
{
	const struct fxtrace_rs_templates *t = &s->tmpl;
	uint64_t seq = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);
	uint64_t *q = scope->u.words;
	uint32_t wide, nwords;
	unsigned int i;

	if ((seq & 1) || __atomic_load_n(&t->state, __ATOMIC_RELAXED) != state ||
	    __atomic_load_n(&t->types, __ATOMIC_RELAXED) != types)
		return false;
	wide = __atomic_load_n(&t->wide, __ATOMIC_RELAXED);
	nwords = __atomic_load_n(&t->nwords, __ATOMIC_RELAXED);
	FXT_UNROLL
	for (i = 0; i < nargs; i++) {
		bool two = (wide >> i) & 1;
		uint64_t hdr = __atomic_load_n(&t->words[i], __ATOMIC_RELAXED);

		/* INT32, UINT32, BOOL: the value in the header (Rust's bits). */
		q[0] = two ? hdr : hdr | fxt_arg_header(0, 0, 0, (uint32_t)values[i]);
		q[1] = values[i];	/* room: 2 words an argument */
		q += 1 + two;
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (FXT_UNLIKELY(__atomic_load_n(&t->seq, __ATOMIC_RELAXED) != seq))
		return false;
	scope->nwords = nwords;
	scope->header = fxt_fast_header(w, state, 3 + nwords,
					FXT_EVENT_DURATION_COMPLETE, nargs);
	scope->tag = w->site_tag;
	scope->w = w;
	scope->start = fxt_internal_now();
	return true;
}

FXT_INLINE void site_scope_begin_n(struct fxt_scope_args *scope,
				   struct fxtrace_rs_site *s, uint64_t types,
				   const uint64_t *values, unsigned int nargs)
{
	struct fxt_arg_in args[FXT_MAX_ARGS];
	struct fxt_internal_writer *w;
	uint64_t state;

	w = fxt_fast_ready(&s->args.site, &state);
	if (FXT_LIKELY(w != NULL) &&
	    templated_scope_begin(scope, s, w, state, types, values, nargs))
		return;
	site_args(args, s, types, values, nargs);
	scope_begin_n(scope, &s->args, 0, s->category, s->name, args, nargs);
	/* Written by the inline writer: the site's refs hold for state. */
	if (w != NULL && scope->header > 1)
		templates_put(s, state, types, nargs);
}

/* fxtrace_rs_scope_begin() for a macro's site. */
void fxtrace_rs_site_scope_begin(struct fxt_scope_args *scope,
				 struct fxtrace_rs_site *s, uint64_t types,
				 const uint64_t *values, unsigned int nargs)
{
#define SITE_SCOPE_BEGIN_N(n) site_scope_begin_n(scope, s, types, values, (n))
	FXTRACE_RS_BY_NARGS(SITE_SCOPE_BEGIN_N)
#undef SITE_SCOPE_BEGIN_N
}

void fxtrace_rs_scope_end(struct fxt_scope_args *scope)
{
	fxt_scope_args_cleanup(scope);
	scope->header = 0;
}

uint64_t fxtrace_rs_now(void)
{
	return fxt_internal_now();
}

/* The ABI's sizes and offsets, for the Rust mirror's unit test. */
#define FXTRACE_RS_LAYOUT(X)                                                   \
	X(sizeof(struct fxt_site))                                             \
	X(sizeof(struct fxt_site_args))                                        \
	X(offsetof(struct fxt_site_args, arg_name))                            \
	X(sizeof(struct fxt_arg_in))                                           \
	X(offsetof(struct fxt_arg_in, type))                                   \
	X(offsetof(struct fxt_arg_in, flags))                                  \
	X(offsetof(struct fxt_arg_in, name_ref))                               \
	X(offsetof(struct fxt_arg_in, value_ref))                              \
	X(offsetof(struct fxt_arg_in, v))                                      \
	X(sizeof(struct fxt_scope_state))                                      \
	X(offsetof(struct fxt_scope_state, start))                             \
	X(offsetof(struct fxt_scope_state, nargs))                             \
	X(offsetof(struct fxt_scope_state, dyn))                               \
	X(offsetof(struct fxt_scope_state, args))                              \
	X(sizeof(struct fxt_scope_args))                                       \
	X(offsetof(struct fxt_scope_args, start))                              \
	X(offsetof(struct fxt_scope_args, tag))                                \
	X(offsetof(struct fxt_scope_args, w))                                  \
	X(offsetof(struct fxt_scope_args, nwords))                             \
	X(offsetof(struct fxt_scope_args, u))                                   \
	X(sizeof(struct fxtrace_rs_site))                                      \
	X(offsetof(struct fxtrace_rs_site, tmpl))                              \
	X(sizeof(struct fxtrace_rs_templates))                                 \
	X(offsetof(struct fxtrace_rs_templates, words))                        \
	X(offsetof(struct fxtrace_rs_templates, nwords))                       \
	X(offsetof(struct fxtrace_rs_site, category))                          \
	X(offsetof(struct fxtrace_rs_site, arg_names))                         \
	X(offsetof(struct fxtrace_rs_site, kind))                              \
	X(offsetof(struct fxtrace_rs_site, scope))
#define FXTRACE_RS_ITEM(x) (x),
const size_t fxtrace_rs_layout[] = { FXTRACE_RS_LAYOUT(FXTRACE_RS_ITEM) };
const size_t fxtrace_rs_layout_len =
	sizeof(fxtrace_rs_layout) / sizeof(fxtrace_rs_layout[0]);
