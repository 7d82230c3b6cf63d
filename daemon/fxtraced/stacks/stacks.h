/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A trace's stack samples (kernel:sample, kernel:offcpu), beside kernel
 * capture: the sources that resolve them (kallsyms, each process's
 * mappings, the files' symbols: profile_sources.h) and the ingest that
 * turns the rings' raw records into the archive's form
 * (profile_ingest.h). Capture hands raw records over through the hook
 * (struct kernel_stacks_hook, kernel_session.h) and never sees what
 * becomes of them; the manager's kernel_source.c owns both and wires
 * them, and follows new mappings (stacks_follow()) between drains.
 */
#ifndef FXT_STACKS_H
#define FXT_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include <fxt/stacks_losses.h>

#include "kernel_session.h"

struct stacks;

/*
 * For events (FXT_SCHED_EV_*): *ret NULL without stack categories.
 * adopted: a trace taken over from a manager that died, whose ids are in
 * the archive already: ours are of another generation. The mapping
 * tracker starts here: before the first sample can be taken.
 */
int stacks_new(uint32_t events, bool adopted, struct stacks **ret);
void stacks_free(struct stacks *s);

/* What capture calls (s must outlive the session). */
struct kernel_stacks_hook stacks_hook(struct stacks *s);
/*
 * Where kernel capture puts the CPython processes whose frames it reads,
 * for their names (kernel_session_config's py_procs); NULL for none.
 */
struct py_procs *stacks_python(struct stacks *s);

/*
 * The processes' new mappings read, their files opened while the
 * processes live: every STACKS_FOLLOW_NS, between drains.
 */
#define STACKS_FOLLOW_NS 100000000ull
void stacks_follow(struct stacks *s);

/*
 * The end's names (a stop, a snapshot) are looked up for this long at
 * most; frames left are unnamed, counted (files_over_budget).
 */
#define STACKS_SYMBOLS_NS 5000000000ull

/* 0, or why user frames of programs mapped while tracing are "[unknown]". */
int stacks_tracker_error(const struct stacks *s);

/*
 * What the stacks lost so far, by reason (include/fxt/stacks_losses.h):
 * all but the samples lost whole, which capture counts (its drops by
 * category); files_error: why the last mapped file was not opened.
 */
struct stacks_losses {
	uint64_t count[FXT_STACK_LOSS_COUNT];
	int files_error;
	/*
	 * JITs' perf maps and jitdumps (jit_maps.h), said in the journal:
	 * reads; lines or names skipped (malformed, too long, past the
	 * entries' cap); maps cut or not kept (past the bytes read, the
	 * processes, the memory); jitdumps refused (another user's, a
	 * symlink, replaced since mapped), records skipped (malformed, past
	 * the records' cap), files not of this byte order and version,
	 * reads that ended in a record being written.
	 */
	uint64_t jit_maps_read, jit_lines_skipped, jit_maps_cut;
	uint64_t jit_dumps_read, jit_dumps_refused, jit_records_skipped,
		jit_dumps_unsupported, jit_dumps_truncated;
	/* The BPF walker's unwinding tables, said in the journal. */
	struct kernel_unwind_stats unwind;
	/* User stacks the manager unwound from the module's copies. */
	uint64_t copies_unwound;
};

/*
 * Adds s's counts to *l (s NULL: none); snapshot: the walks' of the last
 * snapshot (which ingests the rings into tables of its own), else the
 * trace's. The mappings' and names' are the trace's in both.
 */
void stacks_losses(const struct stacks *s, bool snapshot,
		   struct stacks_losses *l);

#endif /* FXT_STACKS_H */
