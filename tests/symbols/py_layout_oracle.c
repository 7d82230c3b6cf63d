// SPDX-License-Identifier: GPL-2.0-only
/*
 * The layout py_layout.h reads, as the compiler lays it out from
 * CPython's own headers (its internal ones, with Py_BUILD_CORE): the
 * other side of the py-layout test. The runtime's address is not known
 * here: the test takes it from the interpreter's symbol table.
 */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_runtime.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define FIELD(name, value) printf("%s=%zu\n", name, (size_t)(value))

/* The one bit set in o: a bit field's place (bit 0 of byte 0 first). */
static size_t set_bit(const PyASCIIObject *o)
{
	const unsigned char *p = (const unsigned char *)o;
	size_t i;

	for (i = 0; i < sizeof(*o) * 8; i++)
		if (p[i / 8] & (1u << (i % 8)))
			return i;
	return 0;
}

int main(void)
{
	PyASCIIObject o;

	FIELD("_PyRuntimeState.interpreters.head",
	      offsetof(_PyRuntimeState, interpreters.head));
	FIELD("PyInterpreterState.next", offsetof(PyInterpreterState, next));
	FIELD("PyInterpreterState.threads.head",
	      offsetof(PyInterpreterState, threads.head));
	FIELD("PyThreadState.next", offsetof(PyThreadState, next));
	FIELD("PyThreadState.native_thread_id",
	      offsetof(PyThreadState, native_thread_id));
	FIELD("PyThreadState.cframe", offsetof(PyThreadState, cframe));
	FIELD("_PyCFrame.current_frame", offsetof(_PyCFrame, current_frame));
	FIELD("_PyInterpreterFrame.f_code",
	      offsetof(_PyInterpreterFrame, f_code));
	FIELD("_PyInterpreterFrame.previous",
	      offsetof(_PyInterpreterFrame, previous));
	FIELD("_PyInterpreterFrame.prev_instr",
	      offsetof(_PyInterpreterFrame, prev_instr));
	FIELD("_PyInterpreterFrame.owner",
	      offsetof(_PyInterpreterFrame, owner));
	FIELD("_PyInterpreterFrame.is_entry",
	      offsetof(_PyInterpreterFrame, is_entry));
	FIELD("PyCodeObject.co_filename", offsetof(PyCodeObject, co_filename));
	FIELD("PyCodeObject.co_name", offsetof(PyCodeObject, co_name));
	FIELD("PyCodeObject.co_qualname", offsetof(PyCodeObject, co_qualname));
	FIELD("PyCodeObject.co_firstlineno",
	      offsetof(PyCodeObject, co_firstlineno));
	FIELD("PyCodeObject.co_linetable",
	      offsetof(PyCodeObject, co_linetable));
	FIELD("PyCodeObject.co_code_adaptive",
	      offsetof(PyCodeObject, co_code_adaptive));
	FIELD("PyASCIIObject.length", offsetof(PyASCIIObject, length));
	FIELD("PyASCIIObject.state", offsetof(PyASCIIObject, state));
	FIELD("sizeof(PyASCIIObject)", sizeof(PyASCIIObject));
	memset(&o, 0, sizeof(o));
	o.state.compact = 1;
	FIELD("PyASCIIObject.state.compact (bit)", set_bit(&o));
	memset(&o, 0, sizeof(o));
	o.state.ascii = 1;
	FIELD("PyASCIIObject.state.ascii (bit)", set_bit(&o));
	FIELD("PyBytesObject.ob_base.ob_size",
	      offsetof(PyBytesObject, ob_base.ob_size));
	FIELD("PyBytesObject.ob_sval", offsetof(PyBytesObject, ob_sval));
	return 0;
}
