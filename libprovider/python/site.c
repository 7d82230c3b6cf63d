// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Call sites of the Python module: made once per (category, name,
 * argument names), found again by the identity of the call's objects
 * (site.h).
 */
#include <string.h>
#include <sys/prctl.h>

#include "site.h"

#define IDENTITY_SLOTS 1024u /* a power of two */

/* A call's objects, held, and the site they lead to. */
struct identity_slot {
	PyObject *category;
	PyObject *name;
	PyObject *kwnames; /* NULL: no keywords */
	enum pyfxt_mode mode;
	struct pyfxt_site *site;
};

static struct identity_slot identity[IDENTITY_SLOTS];
static PyObject *sites_by_content; /* (cat, name, kwnames, mode) -> site */
static PyObject *strings; /* str -> its copy's address */
static unsigned int sites_made;
static struct pyfxt_site shared_site = {
	.dyn = FXT_DYN_CAT | FXT_DYN_NAME,
	.id_index = -1,
};

__thread bool pyfxt_thread_named;

const char *pyfxt_intern(PyObject *str)
{
	PyObject *addr;
	const char *utf8;
	Py_ssize_t len;
	char *copy;

	if (!PyUnicode_Check(str)) {
		PyErr_Format(PyExc_TypeError,
			     "fxtrace: a name must be a str, not %.50s",
			     Py_TYPE(str)->tp_name);
		return NULL;
	}
	if (!strings && !(strings = PyDict_New()))
		return NULL;
	addr = PyDict_GetItemWithError(strings, str);
	if (addr)
		return PyLong_AsVoidPtr(addr);
	if (PyErr_Occurred())
		return NULL;
	utf8 = PyUnicode_AsUTF8AndSize(str, &len);
	if (!utf8)
		return NULL;
	if (strlen(utf8) != (size_t)len) {
		PyErr_SetString(PyExc_ValueError,
				"fxtrace: a name with a NUL character");
		return NULL;
	}
	copy = PyMem_RawMalloc(len + 1); /* never freed: a literal */
	if (!copy)
		return (const char *)PyErr_NoMemory();
	memcpy(copy, utf8, len + 1);
	addr = PyLong_FromVoidPtr(copy);
	if (!addr || PyDict_SetItem(strings, str, addr) < 0) {
		Py_XDECREF(addr);
		PyMem_RawFree(copy);
		return NULL;
	}
	Py_DECREF(addr);
	return copy;
}

/* The argument names of a new site: the keywords, "id" apart in ID mode. */
static int site_arg_names(struct pyfxt_site *site, PyObject *kwnames,
			  enum pyfxt_mode mode)
{
	Py_ssize_t i, n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;

	site->id_index = -1;
	site->nargs = 0;
	for (i = 0; i < n; i++) {
		PyObject *kw = PyTuple_GET_ITEM(kwnames, i);

		if (mode == PYFXT_ID && site->id_index < 0 &&
		    PyUnicode_CompareWithASCIIString(kw, "id") == 0) {
			site->id_index = (int)i;
			continue;
		}
		if (site->nargs == FXT_MAX_ARGS) {
			PyErr_Format(PyExc_TypeError,
				     "fxtrace: at most %u arguments",
				     FXT_MAX_ARGS);
			return -1;
		}
		site->arg_names[site->nargs] = pyfxt_intern(kw);
		if (!site->arg_names[site->nargs++])
			return -1;
	}
	return 0;
}

static struct pyfxt_site *site_make(PyObject *category, PyObject *name,
				    PyObject *kwnames, enum pyfxt_mode mode)
{
	struct pyfxt_site *site = PyMem_RawCalloc(1, sizeof(*site));

	if (!site)
		return (struct pyfxt_site *)PyErr_NoMemory();
	site->category = pyfxt_intern(category);
	site->name = site->category ? pyfxt_intern(name) : NULL;
	if (!site->name || site_arg_names(site, kwnames, mode) < 0) {
		/* Not given to the library yet: it may go. */
		PyMem_RawFree(site);
		return NULL;
	}
	return site;
}

/* The shared site, for a call of any names: they must be strings. */
static struct pyfxt_site *site_shared(PyObject *category, PyObject *name,
				      PyObject *kwnames, enum pyfxt_mode mode)
{
	Py_ssize_t n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;

	if (!PyUnicode_Check(category) || !PyUnicode_Check(name)) {
		PyErr_SetString(PyExc_TypeError,
				"fxtrace: the category and name must be str");
		return NULL;
	}
	if (n > (Py_ssize_t)FXT_MAX_ARGS + (mode == PYFXT_ID)) {
		PyErr_Format(PyExc_TypeError, "fxtrace: at most %u arguments",
			     FXT_MAX_ARGS);
		return NULL;
	}
	return &shared_site;
}

/* A site by content: found, made, or the shared one past the limit. */
static struct pyfxt_site *site_by_content(PyObject *category, PyObject *name,
					  PyObject *kwnames,
					  enum pyfxt_mode mode)
{
	struct pyfxt_site *site;
	PyObject *key, *found, *addr;

	if (!sites_by_content && !(sites_by_content = PyDict_New()))
		return NULL;
	key = Py_BuildValue("(OOOi)", category, name,
			    kwnames ? kwnames : Py_None, (int)mode);
	if (!key)
		return NULL;
	found = PyDict_GetItemWithError(sites_by_content, key);
	if (found || PyErr_Occurred()) {
		Py_DECREF(key);
		return found ? PyLong_AsVoidPtr(found) : NULL;
	}
	if (sites_made >= PYFXT_SITES_MAX) {
		Py_DECREF(key);
		return site_shared(category, name, kwnames, mode);
	}
	site = site_make(category, name, kwnames, mode);
	addr = site ? PyLong_FromVoidPtr(site) : NULL;
	if (!addr || PyDict_SetItem(sites_by_content, key, addr) < 0) {
		PyMem_RawFree(site); /* not given to the library yet */
		site = NULL;
	} else {
		sites_made++;
	}
	Py_XDECREF(addr);
	Py_DECREF(key);
	return site;
}

static unsigned int identity_hash(PyObject *category, PyObject *name,
				  PyObject *kwnames, enum pyfxt_mode mode)
{
	uint64_t h = (uintptr_t)category;

	h = (h ^ (uintptr_t)name) * 0x9e3779b97f4a7c15ull;
	h = (h ^ (uintptr_t)kwnames ^ mode) * 0x9e3779b97f4a7c15ull;
	return (unsigned int)(h >> 40) & (IDENTITY_SLOTS - 1);
}

struct pyfxt_site *pyfxt_site_get(PyObject *category, PyObject *name,
				  PyObject *kwnames, enum pyfxt_mode mode)
{
	struct identity_slot *slot;
	struct pyfxt_site *site;

	slot = &identity[identity_hash(category, name, kwnames, mode)];
	if (__builtin_expect(slot->category == category && slot->name == name &&
				     slot->kwnames == kwnames &&
				     slot->mode == mode && slot->site,
			     1))
		return slot->site;
	site = site_by_content(category, name, kwnames, mode);
	if (!site)
		return NULL;
	Py_XDECREF(slot->category);
	Py_XDECREF(slot->name);
	Py_XDECREF(slot->kwnames);
	slot->category = Py_NewRef(category);
	slot->name = Py_NewRef(name);
	slot->kwnames = Py_XNewRef(kwnames);
	slot->mode = mode;
	slot->site = site;
	return site;
}

struct pyfxt_site *pyfxt_site_new_auto(PyObject *category, PyObject *name)
{
	return site_make(category, name, NULL, PYFXT_ARGS);
}

int pyfxt_call_init(struct pyfxt_call *c, struct pyfxt_site *site,
		    PyObject *category, PyObject *name)
{
	c->site = site;
	if (!site->dyn) {
		c->category = site->category;
		c->name = site->name;
		return 0;
	}
	c->category = PyUnicode_AsUTF8(category);
	c->name = c->category ? PyUnicode_AsUTF8(name) : NULL;
	return c->name ? 0 : -1;
}

int pyfxt_category_enabled(PyObject *category)
{
	static PyObject *no_name;
	struct pyfxt_site *site;
	const char *cat;

	if (!no_name && !(no_name = PyUnicode_FromString("")))
		return -1;
	site = pyfxt_site_get(category, no_name, NULL, PYFXT_ENABLED);
	if (!site)
		return -1;
	if (!pyfxt_site_on(site))
		return 0;
	if (!site->dyn)
		return fxt_internal_enabled(&site->word.site, site->category);
	cat = PyUnicode_AsUTF8(category);
	if (!cat)
		return -1;
	return fxt_internal_enabled_dyn(&site->word.site, cat);
}

PyObject *pyfxt_args_error(PyObject *category)
{
	PyObject *type, *value, *tb;
	int on;

	PyErr_Fetch(&type, &value, &tb);
	on = pyfxt_category_enabled(category);
	if (on == 0) {
		Py_XDECREF(type);
		Py_XDECREF(value);
		Py_XDECREF(tb);
		Py_RETURN_NONE;
	}
	if (on < 0) /* the first exception is the one to see */
		PyErr_Clear();
	PyErr_Restore(type, value, tb);
	return NULL;
}

void pyfxt_site_clear(void)
{
	unsigned int i;

	for (i = 0; i < IDENTITY_SLOTS; i++) {
		Py_CLEAR(identity[i].category);
		Py_CLEAR(identity[i].name);
		Py_CLEAR(identity[i].kwnames);
		identity[i].site = NULL;
	}
}

/*
 * The main thread keeps its kernel name (the process's, in ps and top):
 * only its name in traces changes.
 */
static void name_thread(const char *name, bool main_thread)
{
	char comm[16] = "";

	if (main_thread)
		(void)prctl(PR_GET_NAME, comm);
	(void)fxt_thread_set_name(name);
	if (main_thread && comm[0])
		(void)prctl(PR_SET_NAME, comm);
}

/*
 * The Python thread of the calling one, from threading's table: not
 * current_thread(), which makes a dummy of a thread starting up (whose
 * first calls sys.monitoring sees before threading knows it).
 */
static PyObject *python_thread(PyObject *threading)
{
	PyObject *active = PyObject_GetAttrString(threading, "_active");
	PyObject *ident, *thread = NULL;

	if (active && PyDict_Check(active)) {
		ident = PyLong_FromUnsignedLong(PyThread_get_thread_ident());
		if (ident)
			thread = Py_XNewRef(
				PyDict_GetItemWithError(active, ident));
		Py_XDECREF(ident);
	}
	Py_XDECREF(active);
	return thread;
}

/* A thread threading does not know yet is asked for again, a few times. */
#define NAME_TRIES 64
static __thread unsigned int name_tries;

void pyfxt_thread_name_slow(void)
{
	PyObject *threading, *current = NULL, *main = NULL, *name = NULL;
	PyObject *saved_type, *saved_value, *saved_tb;
	const char *utf8;

	pyfxt_thread_named = ++name_tries >= NAME_TRIES;
	/* Best effort: an exception of the caller's stays as it was. */
	PyErr_Fetch(&saved_type, &saved_value, &saved_tb);
	threading = PyImport_ImportModule("threading");
	if (threading) {
		current = python_thread(threading);
		main = PyObject_CallMethod(threading, "main_thread", NULL);
	}
	if (current) {
		pyfxt_thread_named = true;
		name = PyObject_GetAttrString(current, "name");
	}
	utf8 = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
	if (utf8 && utf8[0])
		name_thread(utf8, current == main);
	Py_XDECREF(name);
	Py_XDECREF(main);
	Py_XDECREF(current);
	Py_XDECREF(threading);
	PyErr_Clear();
	PyErr_Restore(saved_type, saved_value, saved_tb);
}
