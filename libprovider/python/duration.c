// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * duration(): a context manager whose block is one complete event,
 * begun at __enter__ and written at __exit__ (the library's
 * TRACE_DURATION state inside it); when the category is not enabled, a
 * shared object that does nothing. traced: a function wrapper doing the
 * same around each call.
 */
#include "args.h"
#include "duration.h"
#include "emit.h"

/* ------------------------------------------------------------------ */
/* The disabled duration                                               */

static PyObject *noop_enter(PyObject *self, PyObject *unused)
{
	return Py_NewRef(self);
}

static PyObject *noop_exit(PyObject *self, PyObject *const *args,
			   Py_ssize_t nargs)
{
	Py_RETURN_NONE;
}

static PyMethodDef noop_methods[] = {
	{ "__enter__", noop_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)(void (*)(void))noop_exit, METH_FASTCALL,
	  NULL },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject pyfxt_noop_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fxtrace.NoDuration",
	.tp_basicsize = sizeof(PyObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "What duration() gives when its category is not traced.",
	.tp_methods = noop_methods,
};

/* Static, as None is: never freed (a reference more than it is given). */
static PyObject noop_object = {
	.ob_refcnt = 1,
	.ob_type = &pyfxt_noop_type,
};

/* ------------------------------------------------------------------ */
/* The enabled duration                                                */

struct duration {
	PyObject_HEAD struct pyfxt_call call;
	bool active;
	unsigned int nargs;
	unsigned int nkeep;
	/*
	 * The values (a str's bytes are read at the end), the category,
	 * the name and the keywords (names of the shared site's arguments).
	 */
	PyObject *keep[FXT_MAX_ARGS + 3];
	struct fxt_arg_in args[FXT_MAX_ARGS];
	struct fxt_scope_args scope;
};

/* Objects bigger than pymalloc's: a few are kept for the next ones. */
#define FREE_MAX 16
static struct duration *free_list[FREE_MAX];
static unsigned int free_count;

static struct duration *duration_alloc(void)
{
	struct duration *d;

	if (free_count) {
		d = free_list[--free_count];
		(void)PyObject_Init((PyObject *)d, &pyfxt_duration_type);
	} else {
		d = PyObject_New(struct duration, &pyfxt_duration_type);
		if (!d)
			return NULL;
	}
	d->active = false;
	d->nargs = 0;
	d->nkeep = 0;
	return d;
}

/*
 * The end of the block. One that ends on another thread than it began
 * (the writer of the inline path is its first thread's) is written by
 * the library, on this one.
 */
static void duration_end(struct duration *d)
{
	struct fxt_scope_args *scope = &d->scope;
	struct pyfxt_site *site = d->call.site;

	d->active = false;
	if (scope->header > 1 && scope->w != fxt_internal_self) {
		fxt_slow_event(&site->word, site->dyn, d->call.category,
			       d->call.name, FXT_EVENT_DURATION_COMPLETE,
			       scope->start, fxt_now(), d->args, d->nargs);
		scope->header = 0;
		return;
	}
	pyfxt_scope_end(scope);
}

static void duration_dealloc(PyObject *self)
{
	struct duration *d = (struct duration *)self;
	unsigned int i;

	if (d->active)
		duration_end(d);
	for (i = 0; i < d->nkeep; i++)
		Py_DECREF(d->keep[i]);
	if (free_count < FREE_MAX)
		free_list[free_count++] = d;
	else
		PyObject_Free(d);
}

static PyObject *duration_enter(PyObject *self, PyObject *unused)
{
	struct duration *d = (struct duration *)self;

	if (d->active) {
		PyErr_SetString(PyExc_RuntimeError,
				"fxtrace: this duration is running already");
		return NULL;
	}
	d->active = true;
	pyfxt_scope_begin(&d->scope, &d->call, d->args, d->nargs);
	return Py_NewRef(self);
}

static PyObject *duration_exit(PyObject *self, PyObject *const *args,
			       Py_ssize_t nargs)
{
	struct duration *d = (struct duration *)self;

	if (d->active)
		duration_end(d);
	Py_RETURN_NONE;
}

static PyMethodDef duration_methods[] = {
	{ "__enter__", duration_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)(void (*)(void))duration_exit, METH_FASTCALL,
	  NULL },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject pyfxt_duration_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fxtrace.Duration",
	.tp_basicsize = sizeof(struct duration),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A duration event: its block, from __enter__ to __exit__.",
	.tp_dealloc = duration_dealloc,
	.tp_methods = duration_methods,
};

/* The call's arguments, kept with the objects they point into. */
static int duration_args(struct duration *d, struct pyfxt_site *site,
			 PyObject *const *args, PyObject *kwnames)
{
	Py_ssize_t j, n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
	PyObject *id;
	int nargs;

	nargs = pyfxt_args(site, PYFXT_ARGS, args + 2, kwnames, d->args, &id);
	if (nargs < 0)
		return -1;
	d->nargs = (unsigned int)nargs;
	for (j = 0; j < n; j++)
		d->keep[d->nkeep++] = Py_NewRef(args[2 + j]);
	d->keep[d->nkeep++] = Py_NewRef(args[0]);
	d->keep[d->nkeep++] = Py_NewRef(args[1]);
	if (kwnames) /* the shared site's argument names are these */
		d->keep[d->nkeep++] = Py_NewRef(kwnames);
	return 0;
}

static PyObject *duration(PyObject *self, PyObject *const *args,
			  Py_ssize_t nargs, PyObject *kwnames)
{
	struct pyfxt_site *site;
	struct duration *d;
	PyObject *none;

	if (nargs != 2) {
		PyErr_Format(
			PyExc_TypeError,
			"fxtrace.duration(category, name, **args): %zd positional arguments given",
			nargs);
		return NULL;
	}
	site = pyfxt_site_get(args[0], args[1], kwnames, PYFXT_ARGS);
	if (!site)
		return NULL;
	if (!pyfxt_site_on(site))
		return Py_NewRef(&noop_object);
	d = duration_alloc();
	if (!d)
		return NULL;
	if (duration_args(d, site, args, kwnames) < 0) {
		Py_DECREF(d);
		none = pyfxt_args_error(args[0]); /* None: a no-op */
		if (!none)
			return NULL;
		Py_DECREF(none);
		return Py_NewRef(&noop_object);
	}
	if (pyfxt_call_init(&d->call, site, args[0], args[1]) < 0) {
		Py_DECREF(d);
		return NULL;
	}
	return (PyObject *)d;
}

/* ------------------------------------------------------------------ */
/* A traced function                                                   */

struct traced {
	PyObject_HEAD vectorcallfunc vectorcall;
	PyObject *func;
	PyObject *category;
	PyObject *name;
	PyObject *dict; /* __name__, __doc__, __wrapped__... */
	struct pyfxt_site *site;
};

static PyObject *traced_call(PyObject *self, PyObject *const *args,
			     size_t nargsf, PyObject *kwnames)
{
	struct traced *t = (struct traced *)self;
	struct fxt_scope_args scope;
	struct pyfxt_call c;
	PyObject *result;

	if (!pyfxt_site_on(t->site))
		return PyObject_Vectorcall(t->func, args, nargsf, kwnames);
	if (pyfxt_call_init(&c, t->site, t->category, t->name) < 0)
		return NULL;
	pyfxt_scope_begin(&scope, &c, NULL, 0);
	result = PyObject_Vectorcall(t->func, args, nargsf, kwnames);
	pyfxt_scope_end(&scope);
	return result;
}

static PyObject *traced_get(PyObject *self, PyObject *obj, PyObject *type)
{
	if (!obj || obj == Py_None)
		return Py_NewRef(self);
	return PyMethod_New(self, obj);
}

static int traced_traverse(PyObject *self, visitproc visit, void *arg)
{
	struct traced *t = (struct traced *)self;

	Py_VISIT(t->func);
	Py_VISIT(t->dict);
	return 0;
}

static int traced_clear(PyObject *self)
{
	struct traced *t = (struct traced *)self;

	Py_CLEAR(t->func);
	Py_CLEAR(t->category);
	Py_CLEAR(t->name);
	Py_CLEAR(t->dict);
	return 0;
}

static void traced_dealloc(PyObject *self)
{
	PyObject_GC_UnTrack(self);
	(void)traced_clear(self);
	PyObject_GC_Del(self);
}

static PyObject *traced_repr(PyObject *self)
{
	struct traced *t = (struct traced *)self;

	return PyUnicode_FromFormat("<fxtrace.traced %R %R of %R>", t->category,
				    t->name, t->func);
}

static PyGetSetDef traced_getset[] = { { "__dict__", PyObject_GenericGetDict,
					 PyObject_GenericSetDict, NULL, NULL },
				       { NULL, NULL, NULL, NULL, NULL } };

PyTypeObject pyfxt_traced_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fxtrace.Traced",
	.tp_basicsize = sizeof(struct traced),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC |
		    Py_TPFLAGS_HAVE_VECTORCALL,
	.tp_doc = "A function whose calls are duration events.",
	.tp_vectorcall_offset = offsetof(struct traced, vectorcall),
	.tp_call = PyVectorcall_Call,
	.tp_descr_get = traced_get,
	.tp_dictoffset = offsetof(struct traced, dict),
	.tp_getset = traced_getset,
	.tp_getattro = PyObject_GenericGetAttr,
	.tp_setattro = PyObject_GenericSetAttr,
	.tp_traverse = traced_traverse,
	.tp_clear = traced_clear,
	.tp_dealloc = traced_dealloc,
	.tp_repr = traced_repr,
};

/* wrap(function, category, name): its calls as durations. */
static PyObject *wrap(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
	struct pyfxt_site *site;
	struct traced *t;

	if (nargs != 3 || !PyCallable_Check(args[0])) {
		PyErr_SetString(PyExc_TypeError,
				"fxtrace._core.wrap(function, category, name)");
		return NULL;
	}
	site = pyfxt_site_get(args[1], args[2], NULL, PYFXT_ARGS);
	if (!site)
		return NULL;
	t = PyObject_GC_New(struct traced, &pyfxt_traced_type);
	if (!t)
		return NULL;
	t->vectorcall = traced_call;
	t->func = Py_NewRef(args[0]);
	t->category = Py_NewRef(args[1]);
	t->name = Py_NewRef(args[2]);
	t->dict = NULL;
	t->site = site;
	PyObject_GC_Track(t);
	return (PyObject *)t;
}

PyMethodDef pyfxt_duration_methods[] = {
	{ "duration", (PyCFunction)(void (*)(void))duration,
	  METH_FASTCALL | METH_KEYWORDS,
	  "duration(category, name, **args): a context manager; its block is "
	  "one duration event" },
	{ "wrap", (PyCFunction)(void (*)(void))wrap, METH_FASTCALL,
	  "wrap(function, category, name): the function, its calls traced" },
	{ NULL, NULL, 0, NULL }
};
