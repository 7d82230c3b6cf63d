/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPython 3.13's layout from the offsets the interpreter publishes for
 * out-of-process readers: _PyRuntime begins with a _Py_DebugOffsets
 * (cookie "xdebugpy", the version, then the offsets of the members a
 * reader needs), whose initial value is in the interpreter's file. Read
 * from there, for an interpreter without DWARF (a distribution's
 * stripped python3.13). Its layout is that of one minor version: 3.13's
 * (pycore_runtime.h), refused for another; a compact string's flags are
 * 3.13's bits of PyASCIIObject.state (interned:2, kind:3, compact:1,
 * ascii:1), which the offsets do not give.
 */
#ifndef FXT_SYMBOLS_PY_DEBUG_OFFSETS_H
#define FXT_SYMBOLS_PY_DEBUG_OFFSETS_H

#include <stdint.h>

#include <gelf.h>

#include "py_layout.h"

/*
 * The layout in elf's initial _PyRuntime at runtime (its address): 0;
 * -ENOENT without the cookie (not 3.13+, or no data there);
 * -EPROTONOSUPPORT for another version, a free-threaded build, or an
 * offset past its structure's size.
 */
int py_debug_offsets_read(Elf *elf, uint64_t runtime, struct py_layout *l);

#endif /* FXT_SYMBOLS_PY_DEBUG_OFFSETS_H */
