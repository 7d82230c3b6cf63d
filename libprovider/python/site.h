/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The call sites of the Python module (site.c): what a C macro's static
 * struct fxt_site_args is, made at run time.
 *
 * A site stands for one (category, name, argument names) of the API, or
 * one function (code object) of the automatic mode. Its strings are
 * copies made once per content and never freed: to the library they are
 * literals, interned by address, and the inline writer takes its events.
 * The library keeps every site word on a process-wide list, so sites are
 * never freed either; there are at most PYFXT_SITES_MAX of the API's.
 * Past that, calls share one site whose strings are dynamic (TRACE_DYN's
 * path: interned by content, at each call); nothing is lost.
 *
 * Look-up: a table by the identity of the call's string objects (which
 * it holds, so that an address is never reused under it), then a dict by
 * their content. Everything here runs under the GIL.
 */
#ifndef PYFXT_SITE_H
#define PYFXT_SITE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include <fxt/provider.h>

#define PYFXT_SITES_MAX 4096

/* How a call names its arguments: all keywords, or "id" apart. */
enum pyfxt_mode {
	PYFXT_ARGS = 0, /* every keyword is an argument */
	PYFXT_ID = 1, /* "id" is the event's id, not an argument */
	PYFXT_ENABLED = 2, /* enabled(category): no name, no arguments */
	PYFXT_MODES
};

struct pyfxt_site {
	struct fxt_site_args word; /* first: the library's call-site word */
	const char *category; /* NULL for the shared dynamic site */
	const char *name;
	unsigned int dyn; /* FXT_DYN_CAT | FXT_DYN_NAME: shared */
	unsigned int nargs; /* argument names (without "id") */
	int id_index; /* of "id" among the keywords; -1 */
	const char *arg_names[FXT_MAX_ARGS];
};

/* A call's strings: the site's own, or the call's for the shared site. */
struct pyfxt_call {
	struct pyfxt_site *site;
	const char *category;
	const char *name;
};

/*
 * The site of a call with these category and name (str) and keyword
 * names (a tuple of str, or NULL); NULL with an exception set.
 */
struct pyfxt_site *pyfxt_site_get(PyObject *category, PyObject *name,
				  PyObject *kwnames, enum pyfxt_mode mode);

/* A site of its own for the automatic mode (never shared); NULL: none. */
struct pyfxt_site *pyfxt_site_new_auto(PyObject *category, PyObject *name);

/* The call's strings for site (the objects' UTF-8 for the shared one). */
int pyfxt_call_init(struct pyfxt_call *c, struct pyfxt_site *site,
		    PyObject *category, PyObject *name);

/*
 * A NUL-terminated copy of str's UTF-8, one per content, never freed;
 * NULL with an exception (not a str, an embedded NUL, no memory).
 */
const char *pyfxt_intern(PyObject *str);

/* Names the calling thread in traces after its Python thread, once. */
void pyfxt_thread_name_slow(void);
extern __thread bool pyfxt_thread_named;

static inline void pyfxt_thread_name_once(void)
{
	if (__builtin_expect(!pyfxt_thread_named, 0))
		pyfxt_thread_name_slow();
}

/* Is the site's category enabled in the running trace (one load)? */
static inline bool pyfxt_site_on(const struct pyfxt_site *site)
{
	return fxt_site_maybe_enabled(&site->word.site);
}

/* enabled(category): 1, 0, or -1 with an exception. */
int pyfxt_category_enabled(PyObject *category);

/*
 * A call's arguments were refused: the exception stands if the category
 * is enabled (a site not evaluated yet in this trace looks enabled),
 * else the call was a no-op. NULL, or None.
 */
PyObject *pyfxt_args_error(PyObject *category);

void pyfxt_site_clear(void);

#endif /* PYFXT_SITE_H */
