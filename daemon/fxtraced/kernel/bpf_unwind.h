/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The unwinding tables of the BPF stack walker (include/fxt/unwind.h),
 * written by the manager: a thread of its own (a table is tens of
 * milliseconds of libdw's work, never the event loop's) takes the
 * processes the walker asked for (fxt_unwind_wanted), reads each one's
 * /proc/PID/maps and writes its entry, with the rows of each executable
 * file it maps: compiled from the file's .eh_frame (cfi_table.h) once per
 * file, the file opened as the process's owner could (proc_open.h),
 * shared by every process that maps it, and kept for the next traces
 * (unwind_cache.h). The same reading finds the CPython processes
 * (bpf_python.h).
 *
 * A process asks again when a walk meets a pc in none of its mappings (a
 * library loaded since, a JIT's code): its entry is written anew, at most
 * every BPF_UNWIND_REREAD_NS. Files whose rows do not fit the rows' map
 * are walked with frame pointers, counted.
 */
#ifndef FXT_BPF_UNWIND_H
#define FXT_BPF_UNWIND_H

#include <stdint.h>

#include <fxt/unwind.h>

#include "kernel_session.h"

#define BPF_UNWIND_POLL_NS 20000000ull
#define BPF_UNWIND_REREAD_NS 500000000ull

struct bpf_unwind;

/*
 * The maps of fxt_unwind.bpf.h, and fxt_python.bpf.h's, by descriptor
 * (not taken over).
 */
struct bpf_unwind_maps {
	int rows_fd, procs_fd, wanted_fd, stats_fd;
	int py_procs_fd, py_stats_fd;
};

struct unwind_cache;
struct py_procs;

/*
 * Maps the rows and starts the thread: 0 or -errno. cache (NULL: none)
 * gives the rows of files compiled by earlier traces and takes this
 * one's; py (NULL: none) takes the CPython processes found
 * (bpf_python.h). Both must outlive u.
 */
int bpf_unwind_start(const struct bpf_unwind_maps *maps,
		     struct unwind_cache *cache, struct py_procs *py,
		     struct bpf_unwind **ret);
void bpf_unwind_stats(struct bpf_unwind *u, struct kernel_unwind_stats *st);
/* Stops the thread (waits for the file it compiles). NULL is fine. */
void bpf_unwind_free(struct bpf_unwind *u);

#endif /* FXT_BPF_UNWIND_H */
