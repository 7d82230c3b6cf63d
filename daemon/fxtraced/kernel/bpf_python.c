// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_python.h: CPython processes found from their maps.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_python.h"
#include "cleanup.h"
#include "proc_maps_line.h"
#include "proc_open.h"
#include "py_interp.h"
#include "py_procs.h"

_Static_assert(PY_LAYOUT_NO_CFRAME == FXT_PY_NO_CFRAME,
	       "py_layout.h's 3.13 marker is pyframes.h's");

/* Files looked at at most (each is once); past them none is. */
#define PYTHON_FILES_MAX 4096u

struct python_file {
	uint64_t dev, ino;
	int err;		/* 0: a CPython interpreter, in */
	struct py_interp in;
};

struct bpf_python {
	struct bpf_python_maps maps;
	struct py_procs *procs;
	struct python_file *files;
	size_t nfiles, files_cap;
	/* The process being read: its interpreter, where it is mapped. */
	const struct python_file *found;
	uint64_t bias;
	struct kernel_python_stats st;	/* but walk[]: atomics */
};

int bpf_python_new(const struct bpf_python_maps *maps, struct py_procs *procs,
		   struct bpf_python **ret)
{
	struct bpf_python *py = calloc(1, sizeof(*py));

	if (!py)
		return -ENOMEM;
	py->maps = *maps;
	py->procs = procs;
	*ret = py;
	return 0;
}

static void add_stat(uint64_t *c)
{
	__atomic_add_fetch(c, 1, __ATOMIC_RELAXED);
}

/* The file m maps, looked at when first met: NULL past the cap. */
static const struct python_file *file_of(struct bpf_python *py, uint32_t pid,
					 const struct proc_maps_line *m,
					 const struct proc_owner *owner)
{
	_cleanup_close_ int fd = -1;
	const char *missing = NULL;
	struct python_file *f;
	size_t i;

	for (i = 0; i < py->nfiles; i++)
		if (py->files[i].dev == m->dev && py->files[i].ino == m->inode)
			return &py->files[i];
	if (py->nfiles == py->files_cap) {
		size_t cap = py->files_cap ? py->files_cap * 2 : 64;

		f = cap <= PYTHON_FILES_MAX ?
			    realloc(py->files, cap * sizeof(*f)) :
			    NULL;
		if (!f)
			return NULL;
		py->files = f;
		py->files_cap = cap;
	}
	f = &py->files[py->nfiles++];
	*f = (struct python_file){ .dev = m->dev, .ino = m->inode };
	fd = proc_open_maps_line("/proc", pid, m, owner);
	/* One not opened is said by the tables' counts (files_unread). */
	f->err = fd < 0 ? -ENOENT : py_interp_read(fd, NULL, &f->in, &missing);
	if (f->err == -ENOENT)
		return f;
	if (f->err) {
		/* Said at the stop (the last reason). */
		__atomic_store_n(&py->st.unread_err, f->err, __ATOMIC_RELAXED);
		__atomic_store_n(&py->st.unread_missing, missing,
				 __ATOMIC_RELAXED);
		add_stat(&py->st.interpreters_unread);
	} else {
		add_stat(&py->st.interpreters);
	}
	return f;
}

void bpf_python_begin(struct bpf_python *py)
{
	if (py)
		py->found = NULL;
}

void bpf_python_line(struct bpf_python *py, uint32_t pid,
		     const struct proc_maps_line *m,
		     const struct proc_owner *owner)
{
	const struct python_file *f;
	const struct py_interp *in;

	if (!py || py->found)
		return;
	f = file_of(py, pid, m, owner);
	if (!f || f->err)
		return;
	in = &f->in;
	/* The mapping of the segment holding the evaluation code. */
	if (m->pgoff > in->text_offset + in->eval_start - in->text_vaddr ||
	    in->text_offset + in->eval_end - in->text_vaddr >
		    m->pgoff + (m->end - m->start))
		return;
	py->found = f;
	py->bias = m->start + in->text_offset - in->text_vaddr - m->pgoff;
}

void bpf_python_commit(struct bpf_python *py, uint32_t pid,
		       uint64_t start_stack)
{
	const struct py_interp *in;
	const struct py_layout *l;
	struct fxt_py_process e;
	struct py_proc p;

	if (!py || !py->found)
		return;
	in = &py->found->in;
	l = &in->layout;
	e = (struct fxt_py_process){
		.start_stack = start_stack,
		.runtime = l->runtime + py->bias,
		.eval_start = in->eval_start + py->bias,
		.eval_end = in->eval_end + py->bias,
		.runtime_interp_head = l->runtime_interp_head,
		.interp_next = l->interp_next,
		.interp_threads_head = l->interp_threads_head,
		.tstate_next = l->tstate_next,
		.tstate_native_tid = l->tstate_native_tid,
		.tstate_cframe = l->tstate_cframe,
		.cframe_current = l->cframe_current,
		.frame_code = l->frame_code,
		.frame_previous = l->frame_previous,
		.frame_owner = l->frame_owner,
		.frame_is_entry = l->frame_is_entry,
	};
	p = (struct py_proc){ .pid = pid, .start_stack = start_stack,
			      .runtime = e.runtime, .layout = *l };
	if (py->procs && py_procs_set(py->procs, &p))
		return;
	if (!bpf_map_update_elem(py->maps.procs_fd, &pid, &e, BPF_ANY))
		add_stat(&py->st.processes);
}

void bpf_python_stats(struct bpf_python *py, struct kernel_python_stats *st)
{
	int ncpus = libbpf_num_possible_cpus();
	_cleanup_free_ uint64_t *v = NULL;
	uint32_t k;
	int c;

	*st = (struct kernel_python_stats){
		.interpreters = __atomic_load_n(&py->st.interpreters,
						__ATOMIC_RELAXED),
		.interpreters_unread = __atomic_load_n(
			&py->st.interpreters_unread, __ATOMIC_RELAXED),
		.processes = __atomic_load_n(&py->st.processes,
					     __ATOMIC_RELAXED),
		.unread_err = __atomic_load_n(&py->st.unread_err,
					      __ATOMIC_RELAXED),
		.unread_missing = __atomic_load_n(&py->st.unread_missing,
						  __ATOMIC_RELAXED),
	};
	v = ncpus > 0 ? calloc((size_t)ncpus, sizeof(*v)) : NULL;
	for (k = 0; v && k < FXT_PY_STAT_COUNT; k++)
		if (!bpf_map_lookup_elem(py->maps.stats_fd, &k, v))
			for (c = 0; c < ncpus; c++)
				st->walk[k] += v[c];
}

void bpf_python_free(struct bpf_python *py)
{
	if (!py)
		return;
	free(py->files);
	free(py);
}
