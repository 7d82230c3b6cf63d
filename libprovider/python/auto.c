// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Automatic tracing (auto.h). Each code object gets a site of its own,
 * "module.qualname" in the configured category, kept in the code
 * object's extra slot with the verdict of the module filters: found in
 * one load at every later call. A thread's returns of calls it was not
 * seen entering (frames begun before tracing started) are not written,
 * so that the durations of each thread nest.
 */
#include "auto.h"
#include "emit.h"

#include <frameobject.h>

#if PY_VERSION_HEX >= 0x030C0000
#define request_extra_index PyUnstable_Eval_RequestCodeExtraIndex
#define code_get_extra PyUnstable_Code_GetExtra
#define code_set_extra PyUnstable_Code_SetExtra
#else
#define request_extra_index _PyEval_RequestCodeExtraIndex
#define code_get_extra _PyCode_GetExtra
#define code_set_extra _PyCode_SetExtra
#endif

static Py_ssize_t extra_index = -1;
static char not_traced; /* the extra of a code left out */
static PyObject *category; /* of the events, a str */
static PyObject *includes, *excludes; /* tuples of module names */
static unsigned long sites_made, codes_left_out;
/* Calls entered and not returned from, on this thread. */
static __thread long depth __attribute__((tls_model("initial-exec")));

/* Is module name (or a package it is in) one of the tuple's? */
static bool module_in(PyObject *tuple, PyObject *module)
{
	Py_ssize_t i, n = PyTuple_GET_SIZE(tuple), len;

	len = PyUnicode_GET_LENGTH(module);
	for (i = 0; i < n; i++) {
		PyObject *m = PyTuple_GET_ITEM(tuple, i);
		Py_ssize_t mlen = PyUnicode_GET_LENGTH(m);

		if (PyUnicode_Tailmatch(module, m, 0, mlen, -1) != 1)
			continue;
		if (len == mlen || PyUnicode_READ_CHAR(module, mlen) == '.')
			return true;
	}
	return false;
}

static bool module_selected(PyObject *module)
{
	if (PyTuple_GET_SIZE(includes) && !module_in(includes, module))
		return false;
	return !module_in(excludes, module);
}

/* A new code object's site, or NULL: not traced. */
static struct pyfxt_site *code_site_new(PyObject *code, PyObject *globals)
{
	PyObject *module = globals ? PyDict_GetItemString(globals, "__name__") :
				     NULL;
	PyObject *qualname, *name;
	struct pyfxt_site *site = NULL;

	if (!module || !PyUnicode_Check(module) || !module_selected(module))
		return NULL;
	if (sites_made >= PYFXT_AUTO_SITES_MAX) {
		codes_left_out++;
		return NULL;
	}
	qualname = PyObject_GetAttrString(code, "co_qualname");
	name = qualname ? PyUnicode_FromFormat("%U.%S", module, qualname) :
			  NULL;
	if (name)
		site = pyfxt_site_new_auto(category, name);
	sites_made += site != NULL;
	Py_XDECREF(name);
	Py_XDECREF(qualname);
	PyErr_Clear();
	return site;
}

/* The site of code (globals: its frame's, for a code seen first). */
static struct pyfxt_site *code_site(PyObject *code, PyFrameObject *frame,
				    PyObject *globals)
{
	struct pyfxt_site *site;
	void *extra = NULL;

	if (code_get_extra(code, extra_index, &extra) < 0) {
		PyErr_Clear();
		return NULL;
	}
	if (__builtin_expect(extra != NULL, 1))
		return extra == &not_traced ? NULL : extra;
	if (!category)
		return NULL; /* stopped: decided when it starts again */
	if (frame) {
		globals = PyFrame_GetGlobals(frame);
		site = code_site_new(code, globals);
		Py_XDECREF(globals);
	} else {
		site = code_site_new(code, globals);
	}
	if (code_set_extra(code, extra_index,
			   site ? (void *)site : (void *)&not_traced) < 0)
		PyErr_Clear();
	return site;
}

static void code_event(struct pyfxt_site *site, bool enter)
{
	struct pyfxt_call c;

	if (enter) {
		depth++;
	} else {
		if (depth <= 0)
			return; /* a frame begun before tracing */
		depth--;
	}
	if (!pyfxt_site_on(site))
		return;
	c.site = site;
	c.category = site->category;
	c.name = site->name;
	pyfxt_emit(&c,
		   enter ? FXT_EVENT_DURATION_BEGIN : FXT_EVENT_DURATION_END, 0,
		   NULL, 0);
}

static int profile(PyObject *unused, PyFrameObject *frame, int what,
		   PyObject *arg)
{
	struct pyfxt_site *site;
	PyCodeObject *code;

	if (what != PyTrace_CALL && what != PyTrace_RETURN)
		return 0;
	code = PyFrame_GetCode(frame);
	site = code_site((PyObject *)code, frame, NULL);
	Py_DECREF(code);
	if (site)
		code_event(site, what == PyTrace_CALL);
	return 0;
}

static bool tuple_of_str(PyObject *t)
{
	Py_ssize_t i;

	if (!PyTuple_Check(t))
		return false;
	for (i = 0; i < PyTuple_GET_SIZE(t); i++)
		if (!PyUnicode_Check(PyTuple_GET_ITEM(t, i)))
			return false;
	return true;
}

/* start(category, include, exclude, profile): profile this thread too. */
static PyObject *start(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	if (nargs != 4 || !PyUnicode_Check(args[0]) || !tuple_of_str(args[1]) ||
	    !tuple_of_str(args[2])) {
		PyErr_SetString(
			PyExc_TypeError,
			"fxtrace._core.auto_start(category, (include...), (exclude...), profile)");
		return NULL;
	}
	if (!pyfxt_intern(args[0])) /* a name the library takes */
		return NULL;
	Py_XSETREF(category, Py_NewRef(args[0]));
	Py_XSETREF(includes, Py_NewRef(args[1]));
	Py_XSETREF(excludes, Py_NewRef(args[2]));
	depth = 0;
	if (PyObject_IsTrue(args[3]))
		PyEval_SetProfile(profile, NULL);
	Py_RETURN_NONE;
}

static PyObject *stop(PyObject *self, PyObject *unused)
{
	PyEval_SetProfile(NULL, NULL);
	Py_CLEAR(category);
	Py_RETURN_NONE;
}

/*
 * threading.setprofile()'s hook, called at a new thread's first call:
 * it hands the thread over to the C profile function, this call first.
 */
static PyObject *thread_hook(PyObject *self, PyObject *const *args,
			     Py_ssize_t nargs)
{
	if (nargs != 3 || !PyFrame_Check(args[0])) {
		PyErr_SetString(PyExc_TypeError,
				"fxtrace._core.auto_thread(frame, event, arg)");
		return NULL;
	}
	depth = 0;
	PyEval_SetProfile(profile, NULL);
	if (PyUnicode_Check(args[1]) &&
	    !PyUnicode_CompareWithASCIIString(args[1], "call"))
		(void)profile(NULL, (PyFrameObject *)args[0], PyTrace_CALL,
			      Py_None);
	Py_RETURN_NONE;
}

/* sys.monitoring's callbacks: (code, offset, ...). */
static PyObject *monitored(PyObject *const *args, Py_ssize_t nargs, bool enter)
{
	struct pyfxt_site *site;

	if (nargs < 2 || !PyCode_Check(args[0])) {
		PyErr_SetString(
			PyExc_TypeError,
			"fxtrace._core.auto_enter/leave(code, offset, ...)");
		return NULL;
	}
	site = code_site(args[0], NULL, PyEval_GetGlobals());
	if (site)
		code_event(site, enter);
	Py_RETURN_NONE;
}

static PyObject *enter(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	return monitored(args, nargs, true);
}

static PyObject *leave(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	return monitored(args, nargs, false);
}

static PyObject *stats(PyObject *self, PyObject *unused)
{
	return Py_BuildValue("{s:k,s:k}", "functions", sites_made, "left_out",
			     codes_left_out);
}

#define FAST(fn) (PyCFunction)(void (*)(void))(fn), METH_FASTCALL

PyMethodDef pyfxt_auto_methods[] = {
	{ "auto_start", FAST(start),
	  "auto_start(category, include, exclude, profile): trace every call" },
	{ "auto_stop", stop, METH_NOARGS,
	  "auto_stop(): this thread's no more" },
	{ "auto_thread", FAST(thread_hook),
	  "auto_thread(frame, event, arg): for threading.setprofile()" },
	{ "auto_enter", FAST(enter), "auto_enter(code, offset, ...)" },
	{ "auto_leave", FAST(leave), "auto_leave(code, offset, ...)" },
	{ "auto_stats", stats, METH_NOARGS,
	  "auto_stats(): functions traced, and left out past the limit" },
	{ NULL, NULL, 0, NULL }
};

int pyfxt_auto_init(void)
{
	if (extra_index < 0)
		extra_index = request_extra_index(NULL);
	return extra_index < 0 ? -1 : 0;
}
