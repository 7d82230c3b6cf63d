/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether an ELF file a process maps is a CPython interpreter (the
 * python3.X executable, or a libpython3.X.so embedded in another
 * program), and what a reader of its frames needs of it: its layout
 * (py_layout.h), read from the DWARF of its debug file, found by the
 * file's build id under the root-owned /usr/lib/debug/.build-id/
 * (Debian's python3.X-dbg), or where there is none from the file's own
 * DWARF when only root may have written the file (an interpreter built
 * with -g and installed by root, pyenv's); never the DWARF of a file its
 * process's owner may have written. Else, for 3.13, from the offsets
 * the interpreter publishes in its file (py_debug_offsets.h: a fixed
 * structure, whoever wrote it: it only tells how to read that owner's
 * own process). The runtime's and the evaluation function's addresses
 * come from the file's dynamic symbols (bounded).
 */
#ifndef FXT_SYMBOLS_PY_INTERP_H
#define FXT_SYMBOLS_PY_INTERP_H

#include <stdint.h>

#include "py_layout.h"

/* A dynamic symbol table read at most this long. */
#define PY_INTERP_DYNSYM_MAX (16u << 20)
/* A debug file read at most this long. */
#define PY_INTERP_DEBUG_MAX (1ull << 30)

struct py_interp {
	struct py_layout layout;	/* layout.runtime: an ELF address */
	uint64_t eval_start, eval_end;	/* _PyEval_EvalFrameDefault's */
	/* The loadable segment holding it: its file offset, address, size. */
	uint64_t text_offset, text_vaddr, text_filesz;
};

/*
 * The ELF file open at fd (as its process's owner could open it): 0 and
 * *out for a CPython interpreter whose layout was found; -ENOENT for a
 * file that is none (no _PyRuntime among its dynamic symbols);
 * -ENODATA when no debug file has its build id (*missing: what to
 * install, when known); -EPROTONOSUPPORT for a layout py_layout.h does
 * not know (*missing: what it lacks); -errno else.
 */
int py_interp_read(int fd, const char *debug_root, struct py_interp *out,
		   const char **missing);

#endif /* FXT_SYMBOLS_PY_INTERP_H */
