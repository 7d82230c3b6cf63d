/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The unwinding tables the manager hands to the BPF stack walker
 * (daemon/fxtraced/kernel/fxt_stacks.bpf.c), one definition for both: how
 * to find each frame's caller in code built without frame pointers, from
 * the call frame information of the files a process maps (compiled by
 * daemon/symbols/cfi_table.h, encoded here).
 *
 * Rows (map fxt_unwind_rows, an array of 8-byte rows the manager writes
 * through a mapping of it): each file's rows lie together, sorted by pc,
 * the first at pc 0 (pcs are relative to the file's first row). A row
 * holds from its pc to the next row's pc:
 *
 *   bits  0..31  pc, relative to the file's first row
 *   bits 32..47  cfa_off (signed): CFA = rsp or rbp + cfa_off
 *   bits 48..55  rule: the CFA's (FXT_UNWIND_CFA_*, bits 0..2) and
 *                rbp's (FXT_UNWIND_FP_*, bits 3..4)
 *   bits 56..63  fp_off / 8 (signed): rbp saved at CFA + fp_off
 *
 * The return address is at CFA - 8 in every row (x86-64's calls); a row
 * where the CFI says otherwise is FXT_UNWIND_CFA_OTHER: a walk stops
 * there, counted.
 *
 * Processes (map fxt_unwind_procs, by tgid): the executable mappings of
 * the process that have rows, sorted by start, not overlapping. A pc in
 * [start, end) is at row key pc - base of the file's rows (base: where
 * the first row's pc is mapped); keys from len on have no row.
 *
 * A process without an entry, or whose entry is not of its program (its
 * start_stack differs), is walked with frame pointers (as before tables
 * existed); its tgid goes into fxt_unwind_wanted, which the manager
 * reads between drains to write its entry. So does a walk that meets a
 * pc in none of the entry's mappings (a library loaded since). Entries
 * are the manager's to write; the programs only delete a process's at
 * its exec and its leader's exit.
 *
 * Stops (map fxt_unwind_stats, per CPU, FXT_UNWIND_STAT_COUNT words):
 * what the walks with tables did and why they ended.
 */
#ifndef FXT_UNWIND_H
#define FXT_UNWIND_H

#include "fxt.h"

/* Rows in all: 16 MiB (the memory the array takes, whole). */
#define FXT_UNWIND_ROWS_MAX (2u << 20)
/* A process's mappings with rows; a power of two. */
#define FXT_UNWIND_MAPPINGS_MAX 128u
/* Processes with an entry at once. */
#define FXT_UNWIND_PROCS_MAX 1024u
/* Binary search steps: log2 of the rows and of the mappings, at most. */
#define FXT_UNWIND_ROW_STEPS 22u
#define FXT_UNWIND_MAPPING_STEPS 8u

enum fxt_unwind_cfa {
	FXT_UNWIND_CFA_NONE,	/* no CFI here: frame pointers */
	FXT_UNWIND_CFA_SP,	/* CFA = rsp + cfa_off */
	FXT_UNWIND_CFA_FP,	/* CFA = rbp + cfa_off */
	FXT_UNWIND_CFA_OTHER,	/* an expression, another register */
	FXT_UNWIND_CFA_END,	/* the outermost frame */
};

enum fxt_unwind_fp {
	FXT_UNWIND_FP_SAME,	/* the caller's rbp is rbp */
	FXT_UNWIND_FP_AT_CFA,	/* at CFA + fp_off */
	FXT_UNWIND_FP_OTHER,	/* unknown after this frame */
};

#define FXT_UNWIND_ROW_PC_SHIFT 0
#define FXT_UNWIND_ROW_PC_WIDTH 32
#define FXT_UNWIND_ROW_CFA_OFF_SHIFT 32
#define FXT_UNWIND_ROW_CFA_OFF_WIDTH 16
#define FXT_UNWIND_ROW_CFA_SHIFT 48
#define FXT_UNWIND_ROW_CFA_WIDTH 3
#define FXT_UNWIND_ROW_FP_SHIFT 51
#define FXT_UNWIND_ROW_FP_WIDTH 2
#define FXT_UNWIND_ROW_FP_OFF_SHIFT 56
#define FXT_UNWIND_ROW_FP_OFF_WIDTH 8

/*
 * A row of the given rules: offsets that do not fit make the row
 * FXT_UNWIND_CFA_OTHER (cfa_off) or its rbp unknown (fp_off).
 */
static inline __u64 fxt_unwind_row(__u32 pc, unsigned int cfa, __s64 cfa_off,
				   unsigned int fp, __s64 fp_off)
{
	if ((cfa == FXT_UNWIND_CFA_SP || cfa == FXT_UNWIND_CFA_FP) &&
	    (cfa_off < -32768 || cfa_off > 32767))
		cfa = FXT_UNWIND_CFA_OTHER;
	if (cfa != FXT_UNWIND_CFA_SP && cfa != FXT_UNWIND_CFA_FP)
		cfa_off = 0;
	if (fp == FXT_UNWIND_FP_AT_CFA &&
	    (fp_off % 8 || fp_off < -128 * 8 || fp_off > 127 * 8))
		fp = FXT_UNWIND_FP_OTHER;
	if (fp != FXT_UNWIND_FP_AT_CFA)
		fp_off = 0;
	return FXT_SET(pc, FXT_UNWIND_ROW_PC) |
	       FXT_SET((__u16)cfa_off, FXT_UNWIND_ROW_CFA_OFF) |
	       FXT_SET(cfa, FXT_UNWIND_ROW_CFA) |
	       FXT_SET(fp, FXT_UNWIND_ROW_FP) |
	       FXT_SET((__u8)(fp_off / 8), FXT_UNWIND_ROW_FP_OFF);
}

static inline __u32 fxt_unwind_row_pc(__u64 row)
{
	return (__u32)FXT_GET(row, FXT_UNWIND_ROW_PC);
}

static inline unsigned int fxt_unwind_row_cfa(__u64 row)
{
	return (unsigned int)FXT_GET(row, FXT_UNWIND_ROW_CFA);
}

static inline unsigned int fxt_unwind_row_fp(__u64 row)
{
	return (unsigned int)FXT_GET(row, FXT_UNWIND_ROW_FP);
}

static inline __s64 fxt_unwind_row_cfa_off(__u64 row)
{
	return (__s16)FXT_GET(row, FXT_UNWIND_ROW_CFA_OFF);
}

static inline __s64 fxt_unwind_row_fp_off(__u64 row)
{
	return (__s64)(__s8)FXT_GET(row, FXT_UNWIND_ROW_FP_OFF) * 8;
}

/* A mapping of a process with rows. */
struct fxt_unwind_mapping {
	__u64 start, end;	/* the mapping's addresses */
	__u64 base;		/* where the file's first row's pc is */
	__u32 first_row;	/* the file's rows in fxt_unwind_rows */
	__u32 nrows;
	__u32 len;		/* keys below this have rows */
	__u32 pad;
};

struct fxt_unwind_process {
	/*
	 * The process's mm->start_stack when its maps were read (its
	 * /proc/PID/stat "startstack"): an entry written for what the pid
	 * ran before an exec, or for a pid since reused, is not its own.
	 */
	__u64 start_stack;
	__u32 nmappings;	/* at most FXT_UNWIND_MAPPINGS_MAX */
	__u32 pad;
	struct fxt_unwind_mapping m[FXT_UNWIND_MAPPINGS_MAX];
};

/* fxt_unwind_stats' words. */
enum fxt_unwind_stat {
	FXT_UNWIND_STAT_WALKS,		/* walks with a process's tables */
	FXT_UNWIND_STAT_TABLE_FRAMES,	/* frames found by a row */
	FXT_UNWIND_STAT_FP_FRAMES,	/* by frame pointers, no row there */
	FXT_UNWIND_STAT_UNSUPPORTED,	/* walks stopped at an OTHER row */
	FXT_UNWIND_STAT_READ_FAULT,	/* at a stack word not readable */
	FXT_UNWIND_STAT_BAD_FRAME,	/* at a stack pointer not growing */
	FXT_UNWIND_STAT_NO_TABLE,	/* walks by frame pointers alone */
	FXT_UNWIND_STAT_COUNT,
};

#endif /* FXT_UNWIND_H */
