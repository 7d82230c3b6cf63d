// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fxtrace._core: the C part of the fxtrace package, over libfxt-provider
 * (README.md beside it). Calls point down only:
 *   module.c -> events.c, duration.c, auto.c -> args.c -> site.c
 */
#include "auto.h"
#include "duration.h"
#include "events.h"

static int add_type(PyObject *module, PyTypeObject *type, const char *name)
{
	if (PyType_Ready(type) < 0)
		return -1;
	return PyModule_AddObjectRef(module, name, (PyObject *)type);
}

static void core_free(void *module)
{
	pyfxt_site_clear();
}

static struct PyModuleDef core_module = {
	PyModuleDef_HEAD_INIT,
	.m_name = "fxtrace._core",
	.m_doc = "The C part of fxtrace: events through libfxt-provider.",
	.m_size = -1,
	.m_free = core_free,
};

PyMODINIT_FUNC PyInit__core(void);

PyMODINIT_FUNC PyInit__core(void)
{
	PyObject *m = PyModule_Create(&core_module);

	if (!m)
		return NULL;
	if (PyModule_AddFunctions(m, pyfxt_event_methods) < 0 ||
	    PyModule_AddFunctions(m, pyfxt_duration_methods) < 0 ||
	    PyModule_AddFunctions(m, pyfxt_auto_methods) < 0 ||
	    add_type(m, &pyfxt_noop_type, "NoDuration") < 0 ||
	    add_type(m, &pyfxt_duration_type, "Duration") < 0 ||
	    add_type(m, &pyfxt_traced_type, "Traced") < 0 ||
	    pyfxt_auto_init() < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
