/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPython processes a trace met, for those who name their frames:
 * each process's interpreter layout and where its runtime is, as the
 * manager's unwinding thread found them (kernel/bpf_unwind.c writes,
 * the stack ingest reads: safe across threads). A process is known by
 * pid and the start of its stack (a pid reused, or an exec, is another
 * program). Bounded: past PY_PROCS_MAX processes the oldest is replaced.
 */
#ifndef FXT_SYMBOLS_PY_PROCS_H
#define FXT_SYMBOLS_PY_PROCS_H

#include <stdint.h>

#include "py_layout.h"

#define PY_PROCS_MAX 4096u

struct py_procs;

struct py_proc {
	uint32_t pid;
	uint64_t start_stack;
	uint64_t runtime;	/* _PyRuntime in the process */
	struct py_layout layout;
};

int py_procs_new(struct py_procs **ret);
/* p's entry, written anew (the same pid's replaced): 0, -ENOMEM. */
int py_procs_set(struct py_procs *ps, const struct py_proc *p);
/* pid's latest entry into *out: 0, or -ENOENT. */
int py_procs_get(struct py_procs *ps, uint32_t pid, struct py_proc *out);
void py_procs_free(struct py_procs *ps);

#endif /* FXT_SYMBOLS_PY_PROCS_H */
