// SPDX-License-Identifier: LGPL-2.1-or-later
/* Python values as trace arguments (args.h). */
#include <string.h>

#include "args.h"

static int arg_int(PyObject *value, struct fxt_arg_in *a)
{
	int overflow;
	long long v = PyLong_AsLongLongAndOverflow(value, &overflow);

	if (v == -1 && PyErr_Occurred())
		return -1;
	if (!overflow) {
		a->type = FXT_ARG_INT64;
		a->v.i64 = v;
		return 0;
	}
	if (overflow > 0) {
		a->v.u64 = PyLong_AsUnsignedLongLong(value);
		if (a->v.u64 != (uint64_t)-1 || !PyErr_Occurred()) {
			a->type = FXT_ARG_UINT64;
			return 0;
		}
		PyErr_Clear();
	}
	PyErr_Format(PyExc_OverflowError,
		     "fxtrace: argument '%s': int out of the 64-bit range",
		     a->name);
	return -1;
}

static int arg_str(PyObject *value, struct fxt_arg_in *a)
{
	Py_ssize_t len;

	a->type = FXT_ARG_STRING;
	a->v.str = PyUnicode_AsUTF8AndSize(value, &len);
	if (!a->v.str)
		return -1;
	if (strlen(a->v.str) != (size_t)len) {
		PyErr_Format(
			PyExc_ValueError,
			"fxtrace: argument '%s': a str with a NUL character",
			a->name);
		return -1;
	}
	return 0;
}

static int arg_value(PyObject *value, struct fxt_arg_in *a)
{
	if (PyBool_Check(value)) {
		a->type = FXT_ARG_BOOL;
		a->v.u64 = value == Py_True;
	} else if (PyLong_Check(value)) {
		return arg_int(value, a);
	} else if (PyFloat_Check(value)) {
		a->type = FXT_ARG_DOUBLE;
		a->v.f64 = PyFloat_AS_DOUBLE(value);
	} else if (PyUnicode_Check(value)) {
		return arg_str(value, a);
	} else if (value == Py_None) {
		a->type = FXT_ARG_NULL;
		a->v.u64 = 0;
	} else {
		PyErr_Format(
			PyExc_TypeError,
			"fxtrace: argument '%s' is a %.50s: give an int, float, str, bool or None",
			a->name, Py_TYPE(value)->tp_name);
		return -1;
	}
	return 0;
}

/* The argument's name: the site's, or the keyword's own (shared site). */
static int arg_name(const struct pyfxt_site *site, unsigned int i, PyObject *kw,
		    struct fxt_arg_in *a)
{
	a->flags = 0;
	a->name_ref = 0;
	a->value_ref = 0;
	if (!site->dyn) {
		a->name = site->arg_names[i];
		return 0;
	}
	a->flags = FXT_ARG_IN_DYN_NAME;
	a->name = PyUnicode_AsUTF8(kw);
	return a->name ? 0 : -1;
}

int pyfxt_args(const struct pyfxt_site *site, enum pyfxt_mode mode,
	       PyObject *const *kwvalues, PyObject *kwnames,
	       struct fxt_arg_in *out, PyObject **id)
{
	Py_ssize_t j, n = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
	unsigned int i = 0;

	*id = NULL;
	for (j = 0; j < n; j++) {
		PyObject *kw = PyTuple_GET_ITEM(kwnames, j);

		if (mode == PYFXT_ID && !*id &&
		    (site->dyn ? !PyUnicode_CompareWithASCIIString(kw, "id") :
				 j == site->id_index)) {
			*id = kwvalues[j];
			continue;
		}
		if (i == FXT_MAX_ARGS) {
			PyErr_Format(PyExc_TypeError,
				     "fxtrace: at most %u arguments",
				     FXT_MAX_ARGS);
			return -1;
		}
		if (arg_name(site, i, kw, &out[i]) < 0 ||
		    arg_value(kwvalues[j], &out[i]) < 0)
			return -1;
		i++;
	}
	return (int)i;
}

int pyfxt_id(PyObject *value, uint64_t *id)
{
	if (!PyLong_Check(value) || PyBool_Check(value)) {
		PyErr_Format(PyExc_TypeError,
			     "fxtrace: an id is an int, not %.50s",
			     Py_TYPE(value)->tp_name);
		return -1;
	}
	*id = PyLong_AsUnsignedLongLong(value);
	if (*id == (uint64_t)-1 && PyErr_Occurred()) {
		PyErr_SetString(PyExc_OverflowError,
				"fxtrace: an id is an int of 0 to 2**64 - 1");
		return -1;
	}
	return 0;
}
