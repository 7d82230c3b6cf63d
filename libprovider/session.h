/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Traces in this process and the call-site cache in front of them
 * (session.c).
 *
 * Lifetimes: a struct fxt_session is one trace in this process (from the
 * manager's START to its STOP). Sessions and buffers are never freed:
 * a writer may still hold a pointer to a stopped one, and everything it
 * can touch after the stop lives in private memory (the areas' bump
 * pointers, the drop counters), never in the unmapped shared buffer.
 */
#ifndef FXT_PROVIDER_SESSION_H
#define FXT_PROVIDER_SESSION_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <fxt/provider.h>
#include <fxt/provider_abi.h>

#include "buffer.h"
#include "thread.h"
#include "trace.h"

struct fxt_session {
	/* What the writers under it see: its buffer, its tables. */
	struct fxt_trace trace;
	uint64_t gen;		/* fxt_trace_gen when it started */
	char categories[FXT_CATEGORIES_MAX];	/* empty: all */
	char provider_name[FXT_PROVIDER_NAME_MAX];	/* the process's name */
	struct fxt_session *all_next;	/* every session ever started */
};

/* What the owner of a trace (the transport, a test) starts it with. */
struct fxt_session_config {
	enum fxt_buffering_mode mode;
	const char *categories;		/* NULL or empty: all */
	const char *provider_name;
	/* Streaming: how a full half is saved (buffer.h); NULL: it is not. */
	fxt_buffer_save_fn save;
	void *save_ctx;
};

/* The running trace, or NULL; rules: written only by session.c. */
extern _Atomic(struct fxt_session *) fxt_current;
/* Bumped on every start and stop; call sites cache against it. */
extern _Atomic uint64_t fxt_trace_gen;

/* Starts the buffer and a trace on it, which becomes the running one. */
struct fxt_session *fxt_session_start(struct fxt_buffer *b,
				      const struct fxt_session_config *c);
void fxt_session_stop(struct fxt_session *s);
bool fxt_session_category_enabled(const struct fxt_session *s,
				  const char *category);
/* Disable tracing without touching the buffer (fork child). */
void fxt_session_forget(void);
/* Inside a write: the running session, joined by t; or NULL. */
struct fxt_session *fxt_session_joined(struct fxt_thread *t);
/* The process's name in traces: fxt_process_set_name()'s, or s's. */
void fxt_session_set_process_name(const char *name);

/*
 * A site with argument names (struct fxt_site_args): what the site's
 * evaluation also interns, into arg_name[], for the inline writer.
 */
struct fxt_site_eval {
	uint16_t *arg_name;	/* NULL: a plain struct fxt_site */
	const struct fxt_arg_in *args;
	unsigned int nargs;
	/*
	 * FXT_DYN_CAT, FXT_DYN_NAME: the site's category or name changes
	 * from call to call; the site word caches neither (its ref is 0),
	 * and with FXT_DYN_CAT it says only that a trace runs.
	 */
	unsigned int dyn;
};

/*
 * Inside a write: the running session if the site's category is enabled,
 * with the category and name refs (site may be NULL: no cache).
 */
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

void fxt_sites_lock(void);
void fxt_sites_unlock(void);

#endif /* FXT_PROVIDER_SESSION_H */
