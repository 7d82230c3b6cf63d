/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CPython processes of the BPF stack walker (include/fxt/pyframes.h),
 * for bpf_unwind.c's thread: as it reads a process's maps, each file
 * mapped executable is looked at once (opened as the process's owner
 * could: proc_open.h) for a CPython interpreter with a layout
 * (daemon/symbols/py_interp.h); a process mapping one gets its entry in
 * fxt_py_procs and in the trace's py_procs.h, where the stack ingest
 * finds how to name its frames.
 */
#ifndef FXT_BPF_PYTHON_H
#define FXT_BPF_PYTHON_H

#include <stdint.h>

#include "kernel_session.h"

struct bpf_python;
struct proc_maps_line;
struct proc_owner;
struct py_procs;

/* The maps of fxt_python.bpf.h, by descriptor (not taken over). */
struct bpf_python_maps {
	int procs_fd, stats_fd;
};

/*
 * procs must outlive the object. The calls below take a NULL py: no
 * process is given Python frames (bpf_unwind.c without py_procs).
 */
int bpf_python_new(const struct bpf_python_maps *maps, struct py_procs *procs,
		   struct bpf_python **ret);
/* A process's entry begins: its maps' lines follow. */
void bpf_python_begin(struct bpf_python *py);
/* One executable file-backed line of pid's maps (pid's owner's). */
void bpf_python_line(struct bpf_python *py, uint32_t pid,
		     const struct proc_maps_line *m,
		     const struct proc_owner *owner);
/* pid's entry written, if a line was an interpreter's. */
void bpf_python_commit(struct bpf_python *py, uint32_t pid,
		       uint64_t start_stack);
void bpf_python_stats(struct bpf_python *py, struct kernel_python_stats *st);
void bpf_python_free(struct bpf_python *py);

#endif /* FXT_BPF_PYTHON_H */
