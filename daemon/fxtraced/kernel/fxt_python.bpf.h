/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Python frames of a sampled thread (include/fxt/pyframes.h), for
 * fxt_stacks.bpf.c: read from the interpreter's own structures with the
 * offsets the manager found in its DWARF, as daemon/symbols/py_frames.c
 * (their reference) reads them from outside. Every read is the thread's
 * own memory through bpf_probe_read_user(), every chain bounded.
 */
#ifndef FXT_PYTHON_BPF_H
#define FXT_PYTHON_BPF_H

#include <fxt/ksample.h>
#include <fxt/pyframes.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct fxt_py_process));
	__uint(max_entries, FXT_PY_PROCS_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} fxt_py_procs SEC(".maps");

/* A thread's state by its tid, checked against its native id at use. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u64));
	__uint(max_entries, FXT_PY_THREADS_CACHED);
} fxt_py_threads SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u64));
	__uint(max_entries, FXT_PY_STAT_COUNT);
} fxt_py_stats SEC(".maps");

static __always_inline void py_count(__u32 stat, __u64 n)
{
	__u64 *c = bpf_map_lookup_elem(&fxt_py_stats, &stat);

	if (c)
		*c += n;
}

static __always_inline int py_read(__u64 *word, __u64 addr)
{
	return bpf_probe_read_user(word, sizeof(*word), (const void *)addr);
}

/* The search for a thread's state: interpreters, then their threads. */
struct py_find {
	const struct fxt_py_process *proc;
	__u64 interp, tstate, found;
	__u32 tid, interps;
	bool fault;
};

static long py_find_step(__u32 i, void *ctx)
{
	struct py_find *f = ctx;
	__u64 native;

	if (!f->tstate) {
		/* The next interpreter's threads (the first: the head's). */
		if (f->interps && py_read(&f->interp, f->interp +
						     f->proc->interp_next))
			goto fault;
		if (!f->interp || f->interps++ == FXT_PY_INTERPS_MAX)
			return 1;
		if (py_read(&f->tstate,
			    f->interp + f->proc->interp_threads_head))
			goto fault;
		return 0;
	}
	if (py_read(&native, f->tstate + f->proc->tstate_native_tid))
		goto fault;
	if (native == f->tid) {
		f->found = f->tstate;
		return 1;
	}
	if (py_read(&f->tstate, f->tstate + f->proc->tstate_next))
		goto fault;
	return 0;
fault:
	f->fault = true;
	return 1;
}

/* The state of thread tid: its address, 0 when none or not readable. */
static __always_inline __u64 py_thread(const struct fxt_py_process *proc,
				       __u32 tid)
{
	struct py_find f = { .proc = proc, .tid = tid };
	__u64 *cached = bpf_map_lookup_elem(&fxt_py_threads, &tid);
	__u64 native;

	if (cached && *cached &&
	    !py_read(&native, *cached + proc->tstate_native_tid) &&
	    native == tid)
		return *cached;
	if (py_read(&f.interp, proc->runtime + proc->runtime_interp_head)) {
		py_count(FXT_PY_STAT_READ_FAULT, 1);
		return 0;
	}
	bpf_loop(FXT_PY_INTERPS_MAX * (FXT_PY_THREADS_MAX + 1), py_find_step,
		 &f, 0);
	if (f.fault)
		py_count(FXT_PY_STAT_READ_FAULT, 1);
	else if (!f.found)
		py_count(FXT_PY_STAT_NO_THREAD, 1);
	if (f.found)
		bpf_map_update_elem(&fxt_py_threads, &tid, &f.found, BPF_ANY);
	return f.found;
}

/* The walk of a thread's frames, one bpf_loop() step a frame. */
struct py_walk {
	const struct fxt_py_process *proc;
	__u64 *rec;		/* words at rec[at + n] */
	__u64 frame;
	__u32 at, n, room;
	__u32 group;		/* the evaluation call's, innermost 0 */
	__u32 ngroups;		/* native frames in the evaluation code */
	__u32 native[FXT_PY_GROUPS_MAX];	/* their indexes, leaf first */
	__u32 unplaced;
	bool fault, cut;
};

static long py_frame_step(__u32 i, void *ctx)
{
	struct py_walk *w = ctx;
	__u64 code, previous, idx;
	__u8 owner = 0, entry = 0;
	__u32 native;

	if (!w->frame)
		return 1;
	if (py_read(&code, w->frame + w->proc->frame_code) ||
	    py_read(&previous, w->frame + w->proc->frame_previous) ||
	    bpf_probe_read_user(&owner, 1, (const void *)(w->frame +
						      w->proc->frame_owner)) ||
	    (w->proc->frame_is_entry &&
	     bpf_probe_read_user(&entry, 1,
				 (const void *)(w->frame +
						w->proc->frame_is_entry)))) {
		w->fault = true;
		return 1;
	}
	w->frame = previous;
	if (owner == FXT_PY_OWNED_BY_CSTACK) {
		w->group++;	/* 3.12: the shim of an evaluation call */
		return 0;
	}
	if (!code)
		return 0;
	idx = w->at + w->n;
	if (w->n >= w->room || idx >= FXT_KSAMPLE_BPF_MAX_WORDS) {
		w->cut = true;
		return 1;
	}
	native = FXT_PY_NATIVE_NONE;
	if (w->group < w->ngroups && w->group < FXT_PY_GROUPS_MAX)
		native = w->native[w->group];
	else
		w->unplaced++;
	w->rec[idx] = fxt_py_word(code, native);
	w->n++;
	if (entry)
		w->group++;	/* 3.11: the first frame of its call */
	return 0;
}

/* The native frames in the evaluation function, innermost first. */
struct py_natives {
	struct py_walk *w;
	__u32 first, nu;
};

static long py_native_step(__u32 i, void *ctx)
{
	struct py_natives *s = ctx;
	struct py_walk *w = s->w;
	__u32 idx = s->first + i;
	__u64 pc;

	if (i >= s->nu || idx >= FXT_KSAMPLE_BPF_MAX_WORDS ||
	    w->ngroups >= FXT_PY_GROUPS_MAX)
		return 1;
	pc = w->rec[idx];
	/* A caller's pc is a return address: the call is the byte before. */
	if (i)
		pc--;
	if (pc >= w->proc->eval_start && pc < w->proc->eval_end)
		w->native[w->ngroups++] = i;
	return 0;
}

/*
 * The current thread's Python frames (its process's tgid, its tid)
 * written after its nu native user PCs, which start at rec[first]: how
 * many, at most room. 0 for a process without an entry of its program.
 */
static __always_inline __u32 python_frames(__u32 tgid, __u32 tid,
					   __u64 start_stack, __u64 *rec,
					   __u32 first, __u32 nu, __u32 room)
{
	const struct fxt_py_process *proc;
	struct py_walk w = { .rec = rec, .at = first + nu, .room = room };
	struct py_natives s = { .w = &w, .first = first, .nu = nu };
	__u64 tstate, cframe;

	proc = bpf_map_lookup_elem(&fxt_py_procs, &tgid);
	if (!proc || proc->start_stack != start_stack || !room)
		return 0;
	w.proc = proc;
	tstate = py_thread(proc, tid);
	if (!tstate)
		return 0;
	if (py_read(&cframe, tstate + proc->tstate_cframe) ||
	    (cframe && proc->cframe_current != FXT_PY_NO_CFRAME &&
	     py_read(&w.frame, cframe + proc->cframe_current))) {
		py_count(FXT_PY_STAT_READ_FAULT, 1);
		return 0;
	}
	if (proc->cframe_current == FXT_PY_NO_CFRAME)
		w.frame = cframe;	/* 3.13: the thread's current frame */
	if (!cframe || !w.frame)
		return 0;
	bpf_loop(FXT_KSAMPLE_USER_MAX, py_native_step, &s, 0);
	bpf_loop(FXT_PY_STEPS_MAX, py_frame_step, &w, 0);
	py_count(FXT_PY_STAT_WALKS, 1);
	py_count(FXT_PY_STAT_FRAMES, w.n);
	py_count(FXT_PY_STAT_UNPLACED, w.unplaced);
	if (w.fault)
		py_count(FXT_PY_STAT_READ_FAULT, 1);
	else if (w.cut || w.frame)
		py_count(FXT_PY_STAT_DEPTH, 1);
	return w.n;
}

#endif /* FXT_PYTHON_BPF_H */
