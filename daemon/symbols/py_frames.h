/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A thread's Python stack read from another process's memory with the
 * offsets of py_layout.h: the reading py-spy and Austin do from outside
 * a process, and the one an in-kernel reader does at each sample,
 * written once in C as its reference. From the runtime (its address in
 * the process: the layout's plus the interpreter's load bias), each
 * interpreter's threads until the one whose native id is tid, its
 * current frame and the chain of previous frames; of each frame, its
 * code object's qualified name, file name and first line.
 *
 * All of it is another process's memory, read while it runs: every
 * chain is bounded, a name's length too; a name that is not a compact
 * ASCII string is "?", a byte outside printable ASCII is '?'.
 */
#ifndef FXT_SYMBOLS_PY_FRAMES_H
#define FXT_SYMBOLS_PY_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "py_layout.h"

#define PY_FRAMES_INTERPS_MAX 16u
#define PY_FRAMES_THREADS_MAX 4096u
#define PY_FRAMES_NAME_MAX 128u

struct py_frame {
	uint64_t code;		/* the code object's address */
	uint32_t firstlineno;
	char qualname[PY_FRAMES_NAME_MAX];
	char filename[PY_FRAMES_NAME_MAX];
};

struct py_frames_ops {
	/* len bytes at addr of the process: 0, or -EFAULT. */
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
};

/*
 * The frames of thread tid, innermost first, at most max (*n of them):
 * 0; -ESRCH when no thread state has that native id (not a Python
 * thread, or one not started yet), -EFAULT when a read faulted (*n
 * frames read before it), -ELOOP when a chain passed its bound.
 */
int py_frames_read(const struct py_layout *l, uint64_t runtime, uint32_t tid,
		   const struct py_frames_ops *ops, void *ctx,
		   struct py_frame *out, size_t max, size_t *n);

/*
 * The names of the code object at code into f: 0, or -EFAULT when its
 * words could not be read (a name not a compact ASCII string is "?").
 */
int py_code_read(const struct py_layout *l, uint64_t code,
		 const struct py_frames_ops *ops, void *ctx,
		 struct py_frame *f);

/* Room for the longest py_frame_name(), its NUL counted. */
#define PY_FRAME_NAME_MAX (3 * PY_FRAMES_NAME_MAX + 16)

/*
 * f as a sample's frame names it: "module.qualname (file:line)", the
 * module from the file's name (a frozen module's own: "<frozen os>"
 * gives "os"), line the function's first.
 */
void py_frame_name(const struct py_frame *f, char *out, size_t cap);

#endif /* FXT_SYMBOLS_PY_FRAMES_H */
