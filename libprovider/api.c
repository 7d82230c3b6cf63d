// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Entry points of the <fxt/provider.h> macros: check the site, enter a
 * write, hand the record to the writer (record.c), leave.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "buffer.h"
#include "clock.h"
#include "early.h"
#include "intern.h"
#include "macro.h"
#include "record.h"
#include "session.h"
#include "test_hooks.h"
#include "thread.h"
#include "transport.h"

/* Callers built against older headers pass these: their layout is ABI. */
_Static_assert(sizeof(struct fxt_arg_in) == 24 &&
		       offsetof(struct fxt_arg_in, type) == 8 &&
		       offsetof(struct fxt_arg_in, flags) == 10 &&
		       offsetof(struct fxt_arg_in, v) == 16,
	       "struct fxt_arg_in is the library's ABI");

uint64_t fxt_test_library_events(void)
{
	struct fxt_thread *t = fxt_thread_self();

	return t ? t->library_events : 0;
}

/*
 * The site's session, for a site already evaluated in this trace; else
 * evaluate it (the first site evaluated connects to the manager, in
 * background).
 */
static inline struct fxt_session *
site_session(struct fxt_site *site, struct fxt_thread *t, const char *cat,
	     const char *name, const struct fxt_site_eval *eval,
	     uint16_t *cat_ref, uint16_t *name_ref)
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
	fxt_transport_ensure_started();
	return fxt_site_session_args(site, t, cat, name, eval, cat_ref,
				     name_ref);
}

/*
 * A name record now, if this thread is inside a running trace (a thread
 * that has not joined yet names itself when it joins).
 */
static void write_name(struct fxt_thread *t, bool process)
{
	struct fxt_session *s;

	if (fxt_write_nested(t))
		return;
	fxt_write_enter(t);
	s = atomic_load_explicit(&fxt_current, memory_order_acquire);
	if (s && t->gen == s->gen) {
		if (process)
			fxt_write_process_name(t, &s->trace);
		else
			fxt_write_thread_name(t, &s->trace);
	} else if (s && process) {
		/* Joining writes the thread's records and, once, the process's. */
		s = fxt_session_joined(t);
		if (s && atomic_load(&s->trace.process_named))
			fxt_write_process_name(t, &s->trace);
	}
	fxt_write_leave(t);
}

FXT_EXPORT int fxt_thread_set_name(const char *name)
{
	struct fxt_thread *t;

	if (!name || !name[0])
		return -EINVAL;
	t = fxt_thread_self();
	if (!t)
		return -ENOMEM;
	snprintf(t->name, sizeof(t->name), "%s", name);
	(void)prctl(PR_SET_NAME, name);
	write_name(t, false);
	return 0;
}

FXT_EXPORT int fxt_process_set_name(const char *name)
{
	struct fxt_thread *t;

	if (!name || !name[0])
		return -EINVAL;
	fxt_session_set_process_name(name);
	t = fxt_thread_self();
	if (!t)
		return -ENOMEM;
	write_name(t, true);
	return 0;
}

FXT_EXPORT int fxt_trigger(const char *name)
{
	if (!name || !*name || strlen(name) >= FXT_TRIGGER_NAME_MAX)
		return -EINVAL;
	return fxt_transport_send_trigger(name);
}

FXT_EXPORT bool fxt_category_enabled(const char *category)
{
	struct fxt_session *s;

	fxt_transport_join();
	s = atomic_load_explicit(&fxt_current, memory_order_acquire);
	return s && category && fxt_session_category_enabled(s, category);
}

/*
 * Enter a write if the site's category is enabled in the running trace:
 * returns the session (then call write_end()), or NULL.
 */
static inline struct fxt_session *
write_begin_eval(struct fxt_site *site, const char *cat, const char *name,
		 const struct fxt_site_eval *eval, struct fxt_thread **tp,
		 uint16_t *cat_ref, uint16_t *name_ref)
{
	struct fxt_session *s;
	struct fxt_thread *t;

	if (!atomic_load_explicit(&fxt_current, memory_order_relaxed)) {
		/* Early sites may wait to join a trace ($FXTRACE_START_WAIT_MS). */
		fxt_transport_join();
		/* Before the first attempt settled, a miss is counted. */
		if (!atomic_load_explicit(&fxt_current, memory_order_acquire) &&
		    fxt_early_missed(cat))
			return NULL;
		if (!atomic_load_explicit(&fxt_current, memory_order_acquire))
			return fxt_site_session_args(site, NULL, cat, name,
						     eval, cat_ref, name_ref);
	}
	t = fxt_thread_self();
	if (unlikely(!t))
		return NULL;
	if (unlikely(fxt_write_nested(t))) {
		/* A signal handler interrupted this thread's write. */
		s = atomic_load(&fxt_current);
		if (s)
			fxt_buffer_count_drop(s->trace.buf, 0);
		return NULL;
	}
	fxt_write_enter(t);
	s = site_session(site, t, cat, name, eval, cat_ref, name_ref);
	if (!s)
		fxt_write_leave(t);
	*tp = t;
	return s;
}

static inline struct fxt_session *write_begin(struct fxt_site *site,
					      const char *cat,
					      const char *name,
					      struct fxt_thread **tp,
					      uint16_t *cat_ref,
					      uint16_t *name_ref)
{
	return write_begin_eval(site, cat, name, NULL, tp, cat_ref, name_ref);
}

static inline void write_end(struct fxt_thread *t)
{
	fxt_write_leave(t);
}

/*
 * write_begin_eval(), then the refs of the site's dynamic strings
 * (eval->dyn) by content; a dynamic category decides here, at each call.
 */
static inline struct fxt_session *
write_begin_dyn(struct fxt_site *site, const char *cat, const char *name,
		const struct fxt_site_eval *eval, struct fxt_thread **tp,
		uint16_t *cat_ref, uint16_t *name_ref)
{
	bool enabled = true, category;
	struct fxt_session *s;

	s = write_begin_eval(site, cat, name, eval, tp, cat_ref, name_ref);
	if (likely(!s || !eval || !eval->dyn))
		return s;
	if (eval->dyn & FXT_DYN_CAT)
		*cat_ref = fxt_intern_dynamic(&s->trace, cat, true, &enabled);
	if (!enabled) {
		write_end(*tp);
		return NULL;
	}
	if (eval->dyn & FXT_DYN_NAME)
		*name_ref = fxt_intern_dynamic(&s->trace, name, false,
					       &category);
	return s;
}

static inline void event_entry_eval(struct fxt_site *site,
				    const struct fxt_site_eval *eval,
				    const char *category, const char *name,
				    unsigned int event_type, uint64_t ts,
				    uint64_t extra,
				    const struct fxt_arg_in *args,
				    unsigned int nargs)
{
	struct fxt_event_desc e = {
		.type = event_type, .cat = category, .name = name, .ts = ts,
		.extra = extra, .args = args, .nargs = nargs,
	};
	struct fxt_thread *t;
	struct fxt_session *s;

	if (unlikely(event_type > FXT_EVENT_TYPE_MAX))
		return;
	s = write_begin_dyn(site, category, name, eval, &t, &e.cat_ref,
			    &e.name_ref);
	if (!s)
		return;
	t->library_events++;
	fxt_write_event(t, &s->trace, &e);
	write_end(t);
}

static inline void event_entry(struct fxt_site *site, const char *category,
			       const char *name, unsigned int event_type,
			       uint64_t ts, uint64_t extra,
			       const struct fxt_arg_in *args, unsigned int nargs)
{
	event_entry_eval(site, NULL, category, name, event_type, ts, extra,
			 args, nargs);
}

static bool enabled_entry(struct fxt_site *site, unsigned int dyn,
			  const char *category)
{
	struct fxt_site_eval eval = { .dyn = dyn };
	uint16_t cat_ref, name_ref;
	struct fxt_thread *t;
	struct fxt_session *s;

	s = write_begin_dyn(site, category, "", &eval, &t, &cat_ref,
			    &name_ref);
	if (!s)
		return false;
	write_end(t);
	return true;
}

FXT_EXPORT bool fxt_internal_enabled(struct fxt_site *site,
				     const char *category)
{
	return enabled_entry(site, 0, category);
}

FXT_EXPORT bool fxt_internal_enabled_dyn(struct fxt_site *site,
					 const char *category)
{
	return enabled_entry(site, FXT_DYN_CAT, category);
}

FXT_EXPORT uint16_t fxt_internal_dyn_name_ref(const char *name,
					      uint64_t state)
{
	struct fxt_session *s = atomic_load_explicit(&fxt_current,
						     memory_order_acquire);

	/* The refs of the trace whose buffer the writer of state uses. */
	if (unlikely(!s || !fxt_site_state_current(state, s->gen)))
		return 0;
	return fxt_intern_dynamic_find(&s->trace, name);
}

FXT_EXPORT void fxt_internal_event(struct fxt_site *site, const char *category,
				   const char *name, unsigned int event_type,
				   uint64_t ts, uint64_t extra,
				   const struct fxt_arg_in *args,
				   unsigned int nargs)
{
	event_entry(site, category, name, event_type, ts, extra, args, nargs);
}

static const char *const scope_names[] = {
	[TRACE_SCOPE_PROCESS] = "process",
	[TRACE_SCOPE_GLOBAL] = "global",
};

/* Sites of process or global instants carry a "scope" argument. */
static void instant_entry(struct fxt_site *site, uint16_t *arg_name,
			  unsigned int dyn, const char *category,
			  const char *name, enum fxt_scope scope, uint64_t ts,
			  const struct fxt_arg_in *args, unsigned int nargs)
{
	struct fxt_arg_in with_scope[FXT_MAX_ARGS];
	struct fxt_site_eval eval = {
		.arg_name = arg_name, .args = args, .nargs = nargs, .dyn = dyn,
	};

	if (likely(scope != TRACE_SCOPE_PROCESS && scope != TRACE_SCOPE_GLOBAL)) {
		event_entry_eval(site, &eval, category, name,
				 FXT_EVENT_INSTANT, ts, 0, args, nargs);
		return;
	}
	if (nargs > FXT_MAX_ARGS - 1)
		nargs = FXT_MAX_ARGS - 1;
	/* args may be NULL with no arguments (a language binding's call). */
	if (nargs)
		memcpy(with_scope, args, nargs * sizeof(*args));
	with_scope[nargs] = (struct fxt_arg_in){
		.name = "scope", .type = FXT_ARG_STRING,
		.flags = FXT_ARG_IN_LITERAL, .v.str = scope_names[scope],
	};
	/* The inline writer never sees this site's extra argument. */
	eval.args = with_scope;
	eval.nargs = nargs + 1;
	eval.arg_name = NULL;
	event_entry_eval(site, &eval, category, name, FXT_EVENT_INSTANT, ts, 0,
			 with_scope, nargs + 1);
}

FXT_EXPORT void fxt_internal_instant(struct fxt_site *site,
				     const char *category, const char *name,
				     enum fxt_scope scope,
				     const struct fxt_arg_in *args,
				     unsigned int nargs)
{
	instant_entry(site, NULL, 0, category, name, scope, 0, args, nargs);
}

FXT_EXPORT void fxt_internal_instant_args(struct fxt_site_args *site,
					  const char *category,
					  const char *name,
					  enum fxt_scope scope,
					  const struct fxt_arg_in *args,
					  unsigned int nargs)
{
	instant_entry(&site->site, site->arg_name, 0, category, name, scope, 0,
		      args, nargs);
}

FXT_EXPORT void fxt_internal_instant_args_ts(struct fxt_site_args *site,
					     const char *category,
					     const char *name,
					     enum fxt_scope scope, uint64_t ts,
					     const struct fxt_arg_in *args,
					     unsigned int nargs)
{
	instant_entry(&site->site, site->arg_name, 0, category, name, scope,
		      ts, args, nargs);
}

FXT_EXPORT void fxt_internal_instant_dyn(struct fxt_site_args *site,
					 unsigned int dyn,
					 const char *category,
					 const char *name,
					 enum fxt_scope scope, uint64_t ts,
					 const struct fxt_arg_in *args,
					 unsigned int nargs)
{
	instant_entry(&site->site, site->arg_name, dyn, category, name, scope,
		      ts, args, nargs);
}

FXT_EXPORT void fxt_internal_event_dyn(struct fxt_site_args *site,
				       unsigned int dyn, const char *category,
				       const char *name,
				       unsigned int event_type, uint64_t ts,
				       uint64_t extra,
				       const struct fxt_arg_in *args,
				       unsigned int nargs)
{
	struct fxt_site_eval eval = {
		.arg_name = site->arg_name, .args = args, .nargs = nargs,
		.dyn = dyn,
	};

	event_entry_eval(&site->site, &eval, category, name, event_type, ts,
			 extra, args, nargs);
}

FXT_EXPORT void fxt_internal_event_args(struct fxt_site_args *site,
					const char *category,
					const char *name,
					unsigned int event_type, uint64_t ts,
					uint64_t extra,
					const struct fxt_arg_in *args,
					unsigned int nargs)
{
	fxt_internal_event_dyn(site, 0, category, name, event_type, ts, extra,
			       args, nargs);
}

static void blob_entry(struct fxt_site *site, unsigned int dyn,
		       const char *category, const char *name,
		       unsigned int blob_type, const void *data, size_t len)
{
	struct fxt_site_eval eval = { .dyn = dyn };
	uint16_t cat_ref, name_ref;
	struct fxt_thread *t;
	struct fxt_session *s;

	s = write_begin_dyn(site, category, name, &eval, &t, &cat_ref,
			    &name_ref);
	if (!s)
		return;
	fxt_write_blob(t, &s->trace, name, name_ref, blob_type, data, len);
	write_end(t);
}

FXT_EXPORT void fxt_internal_blob(struct fxt_site *site, const char *category,
				  const char *name, unsigned int blob_type,
				  const void *data, size_t len)
{
	blob_entry(site, 0, category, name, blob_type, data, len);
}

FXT_EXPORT void fxt_internal_blob_dyn(struct fxt_site *site, unsigned int dyn,
				      const char *category, const char *name,
				      unsigned int blob_type, const void *data,
				      size_t len)
{
	blob_entry(site, dyn, category, name, blob_type, data, len);
}

/* write_begin_dyn() for records without a name ref: logs, objects. */
static struct fxt_session *write_begin_unnamed(struct fxt_site *site,
					       unsigned int dyn,
					       const char *category,
					       struct fxt_thread **tp)
{
	struct fxt_site_eval eval = { .dyn = dyn };
	uint16_t cat_ref, name_ref;

	return write_begin_dyn(site, category, "", &eval, tp, &cat_ref,
			       &name_ref);
}

static void log_entry(struct fxt_site *site, unsigned int dyn,
		      const char *category, const char *message, size_t len)
{
	struct fxt_thread *t;
	struct fxt_session *s = write_begin_unnamed(site, dyn, category, &t);

	if (!s)
		return;
	fxt_write_log(t, &s->trace, message, len);
	write_end(t);
}

FXT_EXPORT void fxt_internal_log(struct fxt_site *site, const char *category,
				 const char *message, size_t len)
{
	log_entry(site, 0, category, message, len);
}

FXT_EXPORT void fxt_internal_log_dyn(struct fxt_site *site, unsigned int dyn,
				     const char *category,
				     const char *message, size_t len)
{
	log_entry(site, dyn, category, message, len);
}

static void logf_entry(struct fxt_site *site, unsigned int dyn,
		       const char *category, const char *fmt, va_list ap)
{
	char message[1024];
	int n;

	if (!fxt_category_enabled(category))
		return;
	n = vsnprintf(message, sizeof(message), fmt, ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(message))
		n = sizeof(message) - 1;
	log_entry(site, dyn, category, message, (size_t)n);
}

FXT_EXPORT void fxt_internal_logf(struct fxt_site *site, const char *category,
				  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	logf_entry(site, 0, category, fmt, ap);
	va_end(ap);
}

FXT_EXPORT void fxt_internal_logf_dyn(struct fxt_site *site, unsigned int dyn,
				      const char *category, const char *fmt,
				      ...)
{
	va_list ap;

	va_start(ap, fmt);
	logf_entry(site, dyn, category, fmt, ap);
	va_end(ap);
}

/* Object records: their names are written inline, never interned. */
static void object_entry(struct fxt_site *site, unsigned int dyn,
			 const char *category, const struct fxt_object_desc *o)
{
	struct fxt_thread *t;
	struct fxt_session *s = write_begin_unnamed(site, dyn, category, &t);

	if (!s)
		return;
	fxt_write_object(t, &s->trace, o);
	write_end(t);
}

FXT_EXPORT void fxt_internal_userspace_object_dyn(struct fxt_site *site,
						  unsigned int dyn,
						  const char *category,
						  const void *pointer,
						  const char *name,
						  const struct fxt_arg_in *args,
						  unsigned int nargs)
{
	const struct fxt_object_desc o = {
		.record = FXT_RECORD_USERSPACE_OBJECT,
		.id = (uint64_t)(uintptr_t)pointer, .name = name,
		.args = args, .nargs = nargs,
	};

	object_entry(site, dyn, category, &o);
}

FXT_EXPORT void fxt_internal_userspace_object(struct fxt_site *site,
					      const char *category,
					      const void *pointer,
					      const char *name,
					      const struct fxt_arg_in *args,
					      unsigned int nargs)
{
	fxt_internal_userspace_object_dyn(site, 0, category, pointer, name,
					  args, nargs);
}

FXT_EXPORT void fxt_internal_kernel_object_dyn(struct fxt_site *site,
					       unsigned int dyn,
					       const char *category,
					       uint64_t koid,
					       unsigned int obj_type,
					       const char *name,
					       const struct fxt_arg_in *args,
					       unsigned int nargs)
{
	const struct fxt_object_desc o = {
		.record = FXT_RECORD_KERNEL_OBJECT, .id = koid,
		.obj_type = obj_type, .name = name,
		.args = args, .nargs = nargs,
	};

	object_entry(site, dyn, category, &o);
}

FXT_EXPORT void fxt_internal_kernel_object(struct fxt_site *site,
					   const char *category, uint64_t koid,
					   unsigned int obj_type,
					   const char *name,
					   const struct fxt_arg_in *args,
					   unsigned int nargs)
{
	fxt_internal_kernel_object_dyn(site, 0, category, koid, obj_type,
				       name, args, nargs);
}

FXT_EXPORT void fxt_internal_scope_begin(struct fxt_scope_state *scope,
					 struct fxt_site *site,
					 const char *category,
					 const char *name,
					 const struct fxt_arg_in *args,
					 unsigned int nargs)
{
	struct fxt_session *s = atomic_load_explicit(&fxt_current,
						     memory_order_relaxed);
	uint64_t state = __atomic_load_n(&site->state, __ATOMIC_RELAXED);
	uint16_t cat_ref, name_ref;
	struct fxt_thread *t;

	scope->site = NULL;
	/* Enabled in this trace already: nothing to write until the end. */
	if (unlikely(!s || !fxt_site_state_current(state, s->gen))) {
		s = write_begin(site, category, name, &t, &cat_ref, &name_ref);
		if (!s)
			return;
		write_end(t);
	}
	if (nargs > FXT_MAX_ARGS)
		nargs = FXT_MAX_ARGS;
	scope->site = site;
	scope->dyn = 0;
	scope->category = category;
	scope->name = name;
	scope->nargs = nargs;
	if (nargs)
		memcpy(scope->args, args, nargs * sizeof(*args));
	scope->start = fxt_clock_ns();
}

FXT_EXPORT void fxt_internal_scope_end(struct fxt_scope_state *scope)
{
	uint64_t end = fxt_clock_ns();

	event_entry(scope->site, scope->category, scope->name,
		    FXT_EVENT_DURATION_COMPLETE, scope->start, end, scope->args,
		    scope->nargs);
	scope->site = NULL;
}

/*
 * TRACE_DURATION when the inline writer cannot begin it: the site is
 * evaluated (with its argument names, so that the next time can be
 * inline) and the arguments kept for the end, as fxt_internal_scope_*().
 */
static void scope_args_begin(struct fxt_scope_args *scope,
			     struct fxt_site_args *site, unsigned int dyn,
			     const char *category, const char *name,
			     const struct fxt_arg_in *args, unsigned int nargs)
{
	struct fxt_site_eval eval = {
		.arg_name = site->arg_name, .args = args, .nargs = nargs,
		.dyn = dyn,
	};
	struct fxt_session *s;
	uint16_t cat_ref, name_ref;
	struct fxt_thread *t;

	scope->header = 0;
	s = write_begin_dyn(&site->site, category, name, &eval, &t, &cat_ref,
			    &name_ref);
	if (!s)
		return;
	write_end(t);
	if (nargs > FXT_MAX_ARGS)
		nargs = FXT_MAX_ARGS;
	scope->header = 1;
	scope->u.slow.site = &site->site;
	scope->u.slow.category = category;
	scope->u.slow.name = name;
	scope->u.slow.nargs = nargs;
	scope->u.slow.dyn = dyn;
	if (nargs)
		memcpy(scope->u.slow.args, args, nargs * sizeof(*args));
	scope->u.slow.start = fxt_clock_ns();
}

FXT_EXPORT void fxt_internal_scope_args_begin(struct fxt_scope_args *scope,
					      struct fxt_site_args *site,
					      const char *category,
					      const char *name,
					      const struct fxt_arg_in *args,
					      unsigned int nargs)
{
	scope_args_begin(scope, site, 0, category, name, args, nargs);
}

FXT_EXPORT void fxt_internal_scope_dyn_begin(struct fxt_scope_args *scope,
					     struct fxt_site_args *site,
					     unsigned int dyn,
					     const char *category,
					     const char *name,
					     const struct fxt_arg_in *args,
					     unsigned int nargs)
{
	scope_args_begin(scope, site, dyn, category, name, args, nargs);
}

/* The end of a scope begun here, or of one whose trace changed. */
FXT_EXPORT void fxt_internal_scope_args_end(struct fxt_scope_args *scope)
{
	struct fxt_session *s;

	if (scope->header == 1) {
		struct fxt_scope_state *slow = &scope->u.slow;
		/* slow->site is the first member of a struct fxt_site_args. */
		struct fxt_site_eval eval = {
			.arg_name = ((struct fxt_site_args *)slow->site)->arg_name,
			.args = slow->args, .nargs = slow->nargs,
			.dyn = slow->dyn,
		};

		event_entry_eval(slow->site, &eval, slow->category, slow->name,
				 FXT_EVENT_DURATION_COMPLETE, slow->start,
				 fxt_clock_ns(), slow->args, slow->nargs);
	} else if (__atomic_load_n(&scope->w->seq, __ATOMIC_RELAXED) & 1) {
		/* A signal handler interrupted this thread's write. */
		s = atomic_load(&fxt_current);
		if (s)
			fxt_buffer_count_drop(s->trace.buf, 0);
	}
	scope->header = 0;
}
