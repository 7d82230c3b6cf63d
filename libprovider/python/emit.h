/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the <fxt/provider.h> macros do at a call site (FXT_EVENT,
 * FXT_DURATION), for a site and arguments known at run time: the inline
 * writer when the site allows, else the library's entry points. The
 * records are the library's own; nothing here encodes one.
 */
#ifndef PYFXT_EMIT_H
#define PYFXT_EMIT_H

#include "site.h"

/* An event now; ts 0: now. The caller checked pyfxt_site_on(). */
static inline void pyfxt_emit(const struct pyfxt_call *c, unsigned int type,
			      uint64_t extra, const struct fxt_arg_in *args,
			      unsigned int nargs)
{
	struct fxt_site_args *word = &c->site->word;
	unsigned int dyn = c->site->dyn;
	struct fxt_internal_writer *w;
	uint64_t state;

	pyfxt_thread_name_once();
	w = fxt_dyn_ready(&word->site, dyn, c->name, &state);
	if (FXT_LIKELY(w != NULL))
		fxt_fast_event(word, w, state, dyn, c->category, c->name, type,
			       0, extra, args, nargs);
	else
		fxt_slow_event(word, dyn, c->category, c->name, type, 0, extra,
			       args, nargs);
}

/*
 * The start of a duration written at pyfxt_scope_end(). The strings and
 * argument values must live until then (the library's path reads them
 * at the end).
 */
static inline void pyfxt_scope_begin(struct fxt_scope_args *scope,
				     const struct pyfxt_call *c,
				     const struct fxt_arg_in *args,
				     unsigned int nargs)
{
	struct fxt_site_args *word = &c->site->word;
	unsigned int dyn = c->site->dyn;

	scope->header = 0;
	if (!pyfxt_site_on(c->site))
		return;
	pyfxt_thread_name_once();
	scope->w = fxt_dyn_ready(&word->site, dyn, c->name, &scope->tag);
	if (FXT_LIKELY(scope->w != NULL))
		fxt_scope_args_begin(scope, word, scope->w, dyn, c->category,
				     c->name, args, nargs);
	else
		fxt_slow_scope_begin(scope, word, dyn, c->category, c->name,
				     args, nargs);
}

static inline void pyfxt_scope_end(struct fxt_scope_args *scope)
{
	fxt_scope_args_cleanup(scope);
}

#endif /* PYFXT_EMIT_H */
