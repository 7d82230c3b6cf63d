/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user stack walked with the manager's unwinding tables
 * (include/fxt/unwind.h), for fxt_stacks.bpf.c: code built without frame
 * pointers (a plain gcc -O2, Debian's libraries) walks as the compiler
 * described it in .eh_frame, frame pointers where no row applies. The
 * walk is daemon/symbols/cfi_walk.c's, its reference, step for step.
 *
 * Each frame is one bpf_loop() step: its mapping and row found by
 * bounded binary searches, its caller's return address, stack pointer
 * and frame pointer read from the thread's stack.
 */
#ifndef FXT_UNWIND_BPF_H
#define FXT_UNWIND_BPF_H

#include <fxt/ksample.h>
#include <fxt/unwind.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u64));
	__uint(max_entries, FXT_UNWIND_ROWS_MAX);
	__uint(map_flags, BPF_F_MMAPABLE);
} fxt_unwind_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct fxt_unwind_process));
	__uint(max_entries, FXT_UNWIND_PROCS_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} fxt_unwind_procs SEC(".maps");

/* Processes walked without tables, for the manager to give theirs. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u8));
	__uint(max_entries, FXT_UNWIND_PROCS_MAX);
} fxt_unwind_wanted SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u64));
	__uint(max_entries, FXT_UNWIND_STAT_COUNT);
} fxt_unwind_stats SEC(".maps");

static __always_inline void unwind_count(__u32 stat)
{
	__u64 *c = bpf_map_lookup_elem(&fxt_unwind_stats, &stat);

	if (c)
		(*c)++;
}

/* The walk's state, from frame to frame. */
struct unwind_walk {
	__u64 ip, sp, bp;
	__u64 *rec;	/* the record's words: PCs at rec[at + n] */
	const struct fxt_unwind_process *proc;
	__u32 at, n;
	__u32 stop;	/* FXT_UNWIND_STAT_* that ended it, or 0 */
	bool missed;	/* a pc in none of the process's mappings */
};

/* A binary search's state, one bpf_loop() step per halving. */
struct unwind_search {
	const struct fxt_unwind_process *proc;
	__u64 pc;
	__u32 lo, hi;
	__u32 first, key;	/* rows: the file's first, the key sought */
	__u32 found;		/* mappings: index + 1, or 0 */
};

static long unwind_mapping_step(__u32 i, void *ctx)
{
	struct unwind_search *s = ctx;
	const struct fxt_unwind_mapping *m;
	__u32 mid;

	if (s->lo >= s->hi)
		return 1;
	mid = (s->lo + s->hi) / 2;
	m = &s->proc->m[mid & (FXT_UNWIND_MAPPINGS_MAX - 1)];
	if (s->pc < m->start) {
		s->hi = mid;
	} else if (s->pc >= m->end) {
		s->lo = mid + 1;
	} else {
		s->found = mid + 1;
		return 1;
	}
	return 0;
}

/* The mapping of proc holding pc, or NULL. */
static __always_inline const struct fxt_unwind_mapping *
unwind_mapping(const struct fxt_unwind_process *proc, __u64 pc)
{
	struct unwind_search s = { .proc = proc, .pc = pc,
				   .hi = proc->nmappings };

	if (s.hi > FXT_UNWIND_MAPPINGS_MAX)
		s.hi = FXT_UNWIND_MAPPINGS_MAX;
	bpf_loop(FXT_UNWIND_MAPPING_STEPS, unwind_mapping_step, &s, 0);
	if (!s.found)
		return NULL;
	return &proc->m[(s.found - 1) & (FXT_UNWIND_MAPPINGS_MAX - 1)];
}

static long unwind_row_step(__u32 i, void *ctx)
{
	struct unwind_search *s = ctx;
	__u32 mid, idx;
	__u64 *row;

	if (s->lo >= s->hi)
		return 1;
	mid = (s->lo + s->hi) / 2;
	idx = s->first + mid;
	row = bpf_map_lookup_elem(&fxt_unwind_rows, &idx);
	if (!row)
		return 1;
	if (fxt_unwind_row_pc(*row) <= s->key)
		s->lo = mid + 1;
	else
		s->hi = mid;
	return 0;
}

/* The row that applies at pc of m: a row of rule NONE when none does. */
static __always_inline __u64 unwind_row(const struct fxt_unwind_mapping *m,
					__u64 pc)
{
	struct unwind_search s = { .hi = m->nrows, .first = m->first_row };
	__u64 *row;
	__u32 idx;

	if (pc < m->base || pc - m->base >= m->len)
		return 0;
	s.key = (__u32)(pc - m->base);
	/* The last row at or before key: lo ends past it. */
	bpf_loop(FXT_UNWIND_ROW_STEPS, unwind_row_step, &s, 0);
	if (!s.lo || s.lo < s.hi)
		return 0;
	idx = s.first + s.lo - 1;
	row = bpf_map_lookup_elem(&fxt_unwind_rows, &idx);
	return row ? *row : 0;
}

static __always_inline int unwind_read(__u64 *word, __u64 addr)
{
	return bpf_probe_read_user(word, sizeof(*word), (const void *)addr);
}

/* One frame up by frame pointers: 0, or the stat that stops the walk. */
static __always_inline __u32 unwind_fp_step(struct unwind_walk *w)
{
	__u64 ra, bp;

	if (!w->bp || w->bp < w->sp)
		return FXT_UNWIND_STAT_BAD_FRAME;
	if (unwind_read(&ra, w->bp + 8) || unwind_read(&bp, w->bp))
		return FXT_UNWIND_STAT_READ_FAULT;
	w->sp = w->bp + 16;
	w->bp = bp;
	w->ip = ra;
	unwind_count(FXT_UNWIND_STAT_FP_FRAMES);
	return 0;
}

/* One frame up by row (rule SP or FP). */
static __always_inline __u32 unwind_by_row(struct unwind_walk *w, __u64 row)
{
	unsigned int fp = fxt_unwind_row_fp(row);
	__u64 cfa, ra, bp = w->bp;

	cfa = (fxt_unwind_row_cfa(row) == FXT_UNWIND_CFA_SP ? w->sp : w->bp) +
	      (__u64)fxt_unwind_row_cfa_off(row);
	if (cfa <= w->sp)
		return FXT_UNWIND_STAT_BAD_FRAME;
	if (unwind_read(&ra, cfa - 8))
		return FXT_UNWIND_STAT_READ_FAULT;
	if (fp == FXT_UNWIND_FP_AT_CFA &&
	    unwind_read(&bp, cfa + (__u64)fxt_unwind_row_fp_off(row)))
		return FXT_UNWIND_STAT_READ_FAULT;
	if (fp == FXT_UNWIND_FP_OTHER)
		bp = 0;	/* unknown from here: no frame-pointer fallback */
	w->sp = cfa;
	w->bp = bp;
	w->ip = ra;
	unwind_count(FXT_UNWIND_STAT_TABLE_FRAMES);
	return 0;
}

/*
 * Stops that are no stat: the walk's end, and its depth (the manager
 * counts records at FXT_KSAMPLE_USER_MAX user frames, as without tables).
 */
#define UNWIND_END FXT_UNWIND_STAT_COUNT
#define UNWIND_DEPTH (FXT_UNWIND_STAT_COUNT + 1)

/* bpf_loop()'s step: the frame at w->ip written, then its caller found. */
static long unwind_frame(__u32 i, void *ctx)
{
	const struct fxt_unwind_mapping *m;
	struct unwind_walk *w = ctx;
	__u32 idx = w->at + w->n, stop;
	__u64 row = 0, sp = w->sp;
	unsigned int cfa;

	if (!w->ip || w->n >= FXT_KSAMPLE_USER_MAX ||
	    idx >= FXT_KSAMPLE_BPF_MAX_WORDS) {
		w->stop = w->ip ? UNWIND_DEPTH : UNWIND_END;
		return 1;
	}
	w->rec[idx] = w->ip;
	w->n++;
	/* A return address is after its call: look up the call. */
	m = unwind_mapping(w->proc, w->n > 1 ? w->ip - 1 : w->ip);
	if (m)
		row = unwind_row(m, w->n > 1 ? w->ip - 1 : w->ip);
	else
		w->missed = true;
	cfa = fxt_unwind_row_cfa(row);
	if (cfa == FXT_UNWIND_CFA_END)
		stop = UNWIND_END;
	else if (cfa == FXT_UNWIND_CFA_OTHER)
		stop = FXT_UNWIND_STAT_UNSUPPORTED;
	else if (cfa == FXT_UNWIND_CFA_NONE)
		stop = unwind_fp_step(w);
	else
		stop = unwind_by_row(w, row);
	if (!stop && w->sp <= sp)
		stop = FXT_UNWIND_STAT_BAD_FRAME;
	w->stop = stop;
	return stop ? 1 : 0;
}

/* The user registers saved at kernel entry (task_pt_regs). */
struct pt_regs___unwind {
	unsigned long ip, sp, bp;
} __attribute__((preserve_access_index));

/* Asks the manager for tgid's entry (once until it reads the ask). */
static __always_inline void unwind_ask(__u32 tgid)
{
	__u8 one = 1;

	bpf_map_update_elem(&fxt_unwind_wanted, &tgid, &one, BPF_NOEXIST);
}

/*
 * The current thread's user stack walked with proc's tables into rec
 * from word at on: the PCs written. Its stop is counted; a pc in none
 * of proc's mappings asks for the entry again.
 */
static __always_inline __u32 unwind_user(const struct fxt_unwind_process *proc,
					 __u32 tgid, __u64 *rec, __u32 at)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs___unwind *regs = (void *)bpf_task_pt_regs(task);
	struct unwind_walk w = {
		.ip = BPF_CORE_READ(regs, ip),
		.sp = BPF_CORE_READ(regs, sp),
		.bp = BPF_CORE_READ(regs, bp),
		.rec = rec,
		.proc = proc,
		.at = at,
	};

	unwind_count(FXT_UNWIND_STAT_WALKS);
	bpf_loop(FXT_KSAMPLE_USER_MAX + 1, unwind_frame, &w, 0);
	if (w.stop < FXT_UNWIND_STAT_COUNT)
		unwind_count(w.stop);
	if (w.missed)
		unwind_ask(tgid);
	return w.n;
}

/*
 * The tables of the current process (tgid, its stack's start), or NULL:
 * none (asked for), an entry of another program (asked for again), or
 * one without mappings.
 */
static __always_inline const struct fxt_unwind_process *
unwind_process(__u32 tgid, __u64 start_stack)
{
	const struct fxt_unwind_process *proc;

	proc = bpf_map_lookup_elem(&fxt_unwind_procs, &tgid);
	if (proc && proc->start_stack == start_stack && proc->nmappings)
		return proc;
	if (!proc || proc->start_stack != start_stack)
		unwind_ask(tgid);
	unwind_count(FXT_UNWIND_STAT_NO_TABLE);
	return NULL;
}

#endif /* FXT_UNWIND_BPF_H */
