// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * instant, counter, flows, async spans; enabled(), trigger() and the
 * names of the provider, the process and the thread. A call whose
 * category is not enabled returns after one look-up and one load, its
 * argument values not looked at (as a C macro's); its category, name and
 * keyword names are checked by the look-up, enabled or not.
 */
#include <errno.h>

#include "args.h"
#include "emit.h"
#include "events.h"

static PyObject *arity_error(const char *what, Py_ssize_t nargs)
{
	PyErr_Format(
		PyExc_TypeError,
		"fxtrace.%s(category, name%s, **args): %zd positional arguments given",
		what, strcmp(what, "instant") ? "[, id]" : "", nargs);
	return NULL;
}

/* The event's id: positional (third) or the keyword "id", not both. */
static int event_id(unsigned int type, PyObject *const *args, Py_ssize_t nargs,
		    PyObject *kw_id, uint64_t *id)
{
	*id = 0;
	if (nargs == 3 && kw_id) {
		PyErr_SetString(PyExc_TypeError, "fxtrace: the id given twice");
		return -1;
	}
	if (nargs == 3)
		kw_id = args[2];
	if (!kw_id && type != FXT_EVENT_COUNTER) {
		PyErr_SetString(PyExc_TypeError,
				"fxtrace: this event needs an id");
		return -1;
	}
	return kw_id ? pyfxt_id(kw_id, id) : 0;
}

/* A counter's arguments are its values: numbers. */
static int counter_values(const struct fxt_arg_in *a, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (a[i].type == FXT_ARG_INT64 || a[i].type == FXT_ARG_UINT64 ||
		    a[i].type == FXT_ARG_DOUBLE)
			continue;
		PyErr_Format(
			PyExc_TypeError,
			"fxtrace.counter: value '%s' is not an int or a float",
			a[i].name);
		return -1;
	}
	return 0;
}

static PyObject *event(const char *what, unsigned int type,
		       enum pyfxt_mode mode, PyObject *const *args,
		       Py_ssize_t nargs, PyObject *kwnames)
{
	struct fxt_arg_in a[FXT_MAX_ARGS];
	struct pyfxt_site *site;
	struct pyfxt_call c;
	PyObject *kw_id;
	uint64_t id = 0;
	int n;

	if (nargs != 2 && !(mode == PYFXT_ID && nargs == 3))
		return arity_error(what, nargs);
	site = pyfxt_site_get(args[0], args[1], kwnames, mode);
	if (!site)
		return NULL;
	if (mode == PYFXT_ID && type != FXT_EVENT_COUNTER && nargs == 2 &&
	    !site->dyn && site->id_index < 0) {
		(void)event_id(type, args, nargs, NULL,
			       &id); /* no id: raises */
		return NULL;
	}
	if (!pyfxt_site_on(site))
		Py_RETURN_NONE;
	n = pyfxt_args(site, mode, args + nargs, kwnames, a, &kw_id);
	if (n < 0 ||
	    (mode == PYFXT_ID && event_id(type, args, nargs, kw_id, &id) < 0) ||
	    (type == FXT_EVENT_COUNTER && counter_values(a, n) < 0))
		return pyfxt_args_error(args[0]);
	if (pyfxt_call_init(&c, site, args[0], args[1]) < 0)
		return NULL;
	pyfxt_emit(&c, type, id, a, (unsigned int)n);
	Py_RETURN_NONE;
}

#define EVENT_FUNCTION(fn, type, mode)                                   \
	static PyObject *fn(PyObject *self, PyObject *const *args,       \
			    Py_ssize_t nargs, PyObject *kwnames)         \
	{                                                                \
		return event(#fn, (type), (mode), args, nargs, kwnames); \
	}

EVENT_FUNCTION(instant, FXT_EVENT_INSTANT, PYFXT_ARGS)
EVENT_FUNCTION(counter, FXT_EVENT_COUNTER, PYFXT_ID)
EVENT_FUNCTION(flow_begin, FXT_EVENT_FLOW_BEGIN, PYFXT_ID)
EVENT_FUNCTION(flow_step, FXT_EVENT_FLOW_STEP, PYFXT_ID)
EVENT_FUNCTION(flow_end, FXT_EVENT_FLOW_END, PYFXT_ID)
EVENT_FUNCTION(async_begin, FXT_EVENT_ASYNC_BEGIN, PYFXT_ID)
EVENT_FUNCTION(async_instant, FXT_EVENT_ASYNC_INSTANT, PYFXT_ID)
EVENT_FUNCTION(async_end, FXT_EVENT_ASYNC_END, PYFXT_ID)

static PyObject *enabled(PyObject *self, PyObject *category)
{
	int on = pyfxt_category_enabled(category);

	return on < 0 ? NULL : PyBool_FromLong(on);
}

/* A name given to the library: a str without NUL. */
static const char *name_arg(PyObject *name)
{
	Py_ssize_t len;
	const char *s;

	if (!PyUnicode_Check(name)) {
		PyErr_Format(PyExc_TypeError,
			     "fxtrace: a name must be a str, not %.50s",
			     Py_TYPE(name)->tp_name);
		return NULL;
	}
	s = PyUnicode_AsUTF8AndSize(name, &len);
	if (s && strlen(s) != (size_t)len) {
		PyErr_SetString(PyExc_ValueError,
				"fxtrace: a name with a NUL character");
		return NULL;
	}
	return s;
}

static PyObject *trigger(PyObject *self, PyObject *name)
{
	const char *s = name_arg(name);
	int ret;

	if (!s)
		return NULL;
	ret = fxt_trigger(s);
	if (ret == -EINVAL) {
		PyErr_SetString(PyExc_ValueError,
				"fxtrace.trigger: a name of 1 to 63 bytes");
		return NULL;
	}
	return PyBool_FromLong(ret == 0);
}

static PyObject *name_call(PyObject *name, int (*fn)(const char *))
{
	const char *s = name_arg(name);
	int ret;

	if (!s)
		return NULL;
	ret = fn(s);
	if (ret == -EALREADY) {
		PyErr_SetString(
			PyExc_RuntimeError,
			"fxtrace.init: the provider has a name already");
		return NULL;
	}
	if (ret < 0) {
		errno = -ret;
		return PyErr_SetFromErrno(PyExc_OSError);
	}
	Py_RETURN_NONE;
}

static PyObject *init(PyObject *self, PyObject *name)
{
	return name_call(name, fxt_provider_init);
}

static PyObject *set_thread_name(PyObject *self, PyObject *name)
{
	pyfxt_thread_named = true; /* the Python name no longer */
	return name_call(name, fxt_thread_set_name);
}

static PyObject *set_process_name(PyObject *self, PyObject *name)
{
	return name_call(name, fxt_process_set_name);
}

static PyObject *now(PyObject *self, PyObject *unused)
{
	return PyLong_FromUnsignedLongLong(fxt_now());
}

#define FASTCALL (METH_FASTCALL | METH_KEYWORDS)
/* clang-format off */
#define EVENT_METHOD(fn, doc) \
	{ #fn, (PyCFunction)(void (*)(void))fn, FASTCALL, doc }
/* clang-format on */

PyMethodDef pyfxt_event_methods[] = {
	EVENT_METHOD(instant,
		     "instant(category, name, **args): an instant event"),
	EVENT_METHOD(counter,
		     "counter(category, name, id=0, **values): a counter"),
	EVENT_METHOD(flow_begin, "flow_begin(category, name, id, **args)"),
	EVENT_METHOD(flow_step, "flow_step(category, name, id, **args)"),
	EVENT_METHOD(flow_end, "flow_end(category, name, id, **args)"),
	EVENT_METHOD(async_begin, "async_begin(category, name, id, **args)"),
	EVENT_METHOD(async_instant,
		     "async_instant(category, name, id, **args)"),
	EVENT_METHOD(async_end, "async_end(category, name, id, **args)"),
	{ "enabled", enabled, METH_O,
	  "enabled(category): True while a trace runs with it enabled" },
	{ "trigger", trigger, METH_O,
	  "trigger(name): ask for a snapshot of the running circular trace" },
	{ "init", init, METH_O,
	  "init(name): the provider's name in traces, before the first event" },
	{ "set_thread_name", set_thread_name, METH_O,
	  "set_thread_name(name): the calling thread's name in traces" },
	{ "set_process_name", set_process_name, METH_O,
	  "set_process_name(name): the process's name in traces" },
	{ "now", now, METH_NOARGS,
	  "now(): the trace clock, CLOCK_BOOTTIME nanoseconds" },
	{ NULL, NULL, 0, NULL }
};
