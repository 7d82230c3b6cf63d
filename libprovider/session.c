// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Traces in this process and the call-site cache in front of them.
 *
 * A call site's word (struct fxt_site) caches "disabled", or "enabled"
 * with the category and name string refs of one trace generation. Every
 * start and stop bumps fxt_trace_gen and resets every registered site to
 * 0 ("evaluate again"), so a disabled site costs its caller one relaxed
 * load and one branch (the call-site cache of Fuchsia's trace-engine).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "intern.h"
#include "macro.h"
#include "record.h"
#include "session.h"

/* Rules: written only here, under sites_lock; read lock-free anywhere. */
_Atomic(struct fxt_session *) fxt_current;
_Atomic uint64_t fxt_trace_gen;

/* Registered sites, linked through fxt_site.next; rules: sites_lock. */
static struct fxt_site sites_end;
static struct fxt_site *sites_head = &sites_end;
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;

/* Every session ever started: kept, never freed (session.h). */
static struct fxt_session *sessions_all;

static uint64_t site_enabled_state(uint64_t gen, uint16_t cat_ref,
				   uint16_t name_ref, bool fast)
{
	return FXT_SITE_ENABLED | (uint64_t)cat_ref << FXT_SITE_CAT_SHIFT |
	       (uint64_t)name_ref << FXT_SITE_NAME_SHIFT |
	       (gen & FXT_SITE_GEN_MASK) << FXT_SITE_GEN_SHIFT |
	       (fast ? FXT_SITE_FAST : 0);
}

static void flush_sites_locked(void)
{
	struct fxt_site *site;

	for (site = sites_head; site != &sites_end; site = site->next)
		__atomic_store_n(&site->state, 0, __ATOMIC_RELAXED);
}

static void site_register(struct fxt_site *site)
{
	pthread_mutex_lock(&sites_lock);
	if (!site->next) {
		site->next = sites_head;
		sites_head = site;
	}
	pthread_mutex_unlock(&sites_lock);
}

static bool category_matches(const char *list, const char *category)
{
	size_t len = strlen(category);
	const char *p = list;

	if (!*list)
		return true;
	while (*p) {
		const char *end = strchrnul(p, ',');
		size_t n = end - p;

		if (n == 1 && *p == '*')
			return true;
		if (n == len && !memcmp(p, category, len))
			return true;
		if (n && p[n - 1] == '*' && len >= n - 1 &&
		    !memcmp(p, category, n - 1))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

bool fxt_session_category_enabled(const struct fxt_session *s,
				  const char *category)
{
	return category_matches(s->categories, category);
}

/*
 * Intern a site's argument names into arg_name[]; true if every one is an
 * index and no argument is a string (the inline writer may use the site).
 */
static bool intern_arg_names(struct fxt_thread *t, struct fxt_session *s,
			     const struct fxt_site_eval *eval)
{
	bool fast = eval->nargs <= FXT_MAX_ARGS;
	unsigned int i;

	for (i = 0; fast && i < eval->nargs; i++) {
		const struct fxt_arg_in *a = &eval->args[i];
		uint16_t ref;

		if (a->flags & FXT_ARG_IN_DYN_NAME) {
			fast = false;	/* the name is looked up at each call */
			break;
		}
		ref = fxt_intern_cached(t, &s->trace, a->name);
		__atomic_store_n(&eval->arg_name[i], ref, __ATOMIC_RELAXED);
		if (!fxt_arg_fixed(a->type) || fxt_string_ref_is_inline(ref))
			fast = false;
	}
	return fast;
}

static bool refs_indexed(uint16_t cat_ref, uint16_t name_ref)
{
	return !fxt_string_ref_is_inline(cat_ref) &&
	       !fxt_string_ref_is_inline(name_ref);
}

/*
 * The enabled state of a site in session s. With argument names, under
 * sites_lock and only for the running trace: arg_name[] is then written
 * for one generation at a time, before the state word that vouches for
 * it (release); the inline writer reads it after its reservation, which
 * a stop waits for before another trace can start.
 */
static uint64_t site_enabled(struct fxt_site *site, struct fxt_thread *t,
			     struct fxt_session *s, const char *cat,
			     const char *name, const struct fxt_site_eval *eval,
			     uint16_t *cat_ref, uint16_t *name_ref)
{
	uint64_t state;
	bool fast;

	*cat_ref = eval && (eval->dyn & FXT_DYN_CAT) ?
			   FXT_STRING_REF_EMPTY :
			   fxt_intern_cached(t, &s->trace, cat);
	*name_ref = eval && (eval->dyn & FXT_DYN_NAME) ?
			    FXT_STRING_REF_EMPTY :
			    fxt_intern_cached(t, &s->trace, name);
	if (!eval || !eval->arg_name)
		return site_enabled_state(s->gen, *cat_ref, *name_ref, false);
	pthread_mutex_lock(&sites_lock);
	if (atomic_load(&fxt_current) != s) {
		pthread_mutex_unlock(&sites_lock);
		return 0;
	}
	fast = intern_arg_names(t, s, eval) &&
	       refs_indexed(*cat_ref, *name_ref);
	state = site_enabled_state(s->gen, *cat_ref, *name_ref, fast);
	__atomic_store_n(&site->state, state, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&sites_lock);
	return state;
}

/* The site tag a thread joined to the trace of generation gen writes for. */
static uint64_t site_tag(uint64_t gen)
{
	return FXT_SITE_FAST | FXT_SITE_ENABLED |
	       (gen & FXT_SITE_GEN_MASK) << FXT_SITE_GEN_SHIFT;
}

/* First event of thread t in session s: fresh caches, thread records. */
static void join(struct fxt_thread *t, struct fxt_session *s)
{
	memset(t->strings, 0, sizeof(t->strings));
	t->thread_ref = FXT_THREAD_REF_INLINE;
	t->gen = s->gen;
	t->buf = s->trace.buf;
	fxt_write_thread_records(t, &s->trace);
	/* The inline writer needs an indexed thread (no inline koids). */
	t->w.thread_ref = t->thread_ref;
	t->w.areas = fxt_full_areas;
	t->w.current = &fxt_full_current;
	t->w.site_tag = t->thread_ref == FXT_THREAD_REF_INLINE ?
				FXT_SITE_TAG_NONE : site_tag(s->gen);
}

/*
 * Evaluate a site for the current trace. The trace may change meanwhile:
 * a site cached against an old generation is reset to 0 again.
 */
static struct fxt_session *site_evaluate(struct fxt_site *site,
					 struct fxt_thread *t,
					 struct fxt_session *s,
					 const char *cat, const char *name,
					 const struct fxt_site_eval *eval,
					 uint16_t *cat_ref, uint16_t *name_ref)
{
	uint64_t gen = atomic_load(&fxt_trace_gen);
	uint64_t state = FXT_SITE_DISABLED;

	if (!site->next)
		site_register(site);
	/* A dynamic category is checked at each call (fxt_intern_dynamic()). */
	if (s && t &&
	    ((eval && (eval->dyn & FXT_DYN_CAT)) ||
	     fxt_session_category_enabled(s, cat))) {
		state = site_enabled(site, t, s, cat, name, eval, cat_ref,
				     name_ref);
		/* The session is written to even if it stopped meanwhile. */
	} else {
		s = NULL;
	}
	__atomic_store_n(&site->state, state, __ATOMIC_RELEASE);
	if (atomic_load(&fxt_trace_gen) != gen)
		__atomic_store_n(&site->state, 0, __ATOMIC_RELAXED);
	return s;
}

struct fxt_session *fxt_session_joined(struct fxt_thread *t)
{
	struct fxt_session *s = atomic_load_explicit(&fxt_current,
						     memory_order_acquire);

	if (s && unlikely(t->gen != s->gen))
		join(t, s);
	return s;
}

static pthread_mutex_t process_name_lock = PTHREAD_MUTEX_INITIALIZER;
static char process_name[FXT_PROVIDER_NAME_MAX];	/* "": the provider's */

void fxt_session_set_process_name(const char *name)
{
	pthread_mutex_lock(&process_name_lock);
	snprintf(process_name, sizeof(process_name), "%s", name);
	pthread_mutex_unlock(&process_name_lock);
}

struct fxt_session *fxt_site_session_args(struct fxt_site *site,
					  struct fxt_thread *t,
					  const char *cat, const char *name,
					  const struct fxt_site_eval *eval,
					  uint16_t *cat_ref,
					  uint16_t *name_ref)
{
	struct fxt_session *s = atomic_load_explicit(&fxt_current,
						     memory_order_acquire);
	uint64_t state;

	if (unlikely(!s)) {
		if (site)
			site_evaluate(site, t, NULL, cat, name, eval, cat_ref,
				      name_ref);
		return NULL;
	}
	if (unlikely(t->gen != s->gen))
		join(t, s);
	if (!site) {
		if (!fxt_session_category_enabled(s, cat))
			return NULL;
		*cat_ref = fxt_intern_cached(t, &s->trace, cat);
		*name_ref = fxt_intern_cached(t, &s->trace, name);
		return s;
	}
	state = __atomic_load_n(&site->state, __ATOMIC_RELAXED);
	if (likely(fxt_site_state_current(state, s->gen))) {
		*cat_ref = (uint16_t)(state >> FXT_SITE_CAT_SHIFT);
		*name_ref = (uint16_t)(state >> FXT_SITE_NAME_SHIFT);
		return s;
	}
	return site_evaluate(site, t, s, cat, name, eval, cat_ref, name_ref);
}

/* What the writers under a session ask it (trace.h). */
static const struct fxt_session *session_of(const struct fxt_trace *tr)
{
	const char *p = (const char *)tr;

	return (const struct fxt_session *)(p - offsetof(struct fxt_session,
							 trace));
}

static bool trace_running(const struct fxt_trace *tr)
{
	return atomic_load(&fxt_current) == session_of(tr);
}

static bool trace_category_enabled(const struct fxt_trace *tr,
				   const char *category)
{
	return fxt_session_category_enabled(session_of(tr), category);
}

static void trace_process_name(const struct fxt_trace *tr, char *out,
			       size_t size)
{
	pthread_mutex_lock(&process_name_lock);
	snprintf(out, size, "%s", process_name[0] ? process_name :
		 session_of(tr)->provider_name);
	pthread_mutex_unlock(&process_name_lock);
}

static const struct fxt_trace_owner session_owner = {
	.running = trace_running,
	.category_enabled = trace_category_enabled,
	.process_name = trace_process_name,
};

static void new_generation_locked(struct fxt_session *s)
{
	uint64_t gen = atomic_fetch_add(&fxt_trace_gen, 1) + 1;

	if (s)
		s->gen = gen;
	atomic_store_explicit(&fxt_current, s, memory_order_release);
	flush_sites_locked();
}

struct fxt_session *fxt_session_start(struct fxt_buffer *b,
				      const struct fxt_session_config *c)
{
	struct fxt_session *s;

	fxt_buffer_start(b, c->mode, c->save, c->save_ctx);
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->trace.buf = b;
	s->trace.owner = &session_owner;
	strncpy(s->categories, c->categories ? c->categories : "",
		sizeof(s->categories) - 1);
	strncpy(s->provider_name, c->provider_name,
		sizeof(s->provider_name) - 1);
	atomic_init(&s->trace.next_thread_index, 1);
	fxt_clock_trace_start();
	pthread_mutex_lock(&sites_lock);
	s->all_next = sessions_all;
	sessions_all = s;
	new_generation_locked(s);
	pthread_mutex_unlock(&sites_lock);
	return s;
}

/* Writers stop taking the session at once; the buffer then quiesces. */
void fxt_session_stop(struct fxt_session *s)
{
	pthread_mutex_lock(&sites_lock);
	if (atomic_load(&fxt_current) == s)
		new_generation_locked(NULL);
	pthread_mutex_unlock(&sites_lock);
	fxt_buffer_stop(s->trace.buf);
}

/* fork child: a single thread, the parent's locks possibly taken. */
void fxt_session_forget(void)
{
	pthread_mutex_init(&sites_lock, NULL);
	new_generation_locked(NULL);
}

void fxt_sites_lock(void)
{
	pthread_mutex_lock(&sites_lock);
}

void fxt_sites_unlock(void)
{
	pthread_mutex_unlock(&sites_lock);
}
