/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The manager's side of kernel:sample and kernel:offcpu: each raw record
 * of the rings (include/fxt/ksample.h, kernel addresses in it) becomes
 * the archive's form (include/fxt/stacks.h): its frames and stack are
 * interned, the definitions not yet written go out first, then a sample
 * record naming the stack. The raw record itself is never written.
 *
 * At the end (a stop, or a snapshot's own object), the user frames are
 * named ("fxtrace:symbols") and the samples written once more as one
 * Perfetto Trace stream in blob records (profile_perfetto.h).
 *
 * Where addresses come from is the caller's: struct profile_resolver
 * (the session binds it to ksyms, mmap_tracker and usyms; tests to fakes).
 */
#ifndef FXT_PROFILE_INGEST_H
#define FXT_PROFILE_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct profile_user_hit {
	const char *path; /* the file mapped at pc */
	const uint8_t *build_id;
	size_t build_id_len;
	uint64_t vaddr; /* pc as an ELF virtual address of path */
	/* The resolver's handle of the file as the process's owner could
	 * open it (>= 1): mappings of one path with different handles are
	 * kept apart.
	 */
	uint32_t file;
};

struct cfi_table;

struct profile_resolver {
	/* The function holding a kernel pc, and pc's offset in it; -ENOENT. */
	int (*kernel_lookup)(void *ctx, uint64_t pc, const char **name,
			     uint64_t *offset);
	/* Whether pc is in the scheduler's own text. */
	bool (*in_sched_text)(void *ctx, uint64_t pc);
	/* The mapping of pid holding user pc at time ts; -ENOENT. */
	int (*user_find)(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
			 struct profile_user_hit *hit);
	/*
	 * Where the return address of a leaf at vaddr of file (a hit's) is,
	 * as an offset from the stack pointer, when the leaf keeps no frame
	 * pointer; -ENOENT else. NULL: leaves' callers are not looked for.
	 */
	int (*user_return_slot)(void *ctx, uint32_t file,
				const uint8_t *build_id, size_t build_id_len,
				uint64_t vaddr, uint64_t *sp_offset);
	/*
	 * The unwinding rows of file (a hit's; cfi_table.h, at the file's
	 * addresses), valid until the next call; -errno. NULL: the copies
	 * of user stacks the module writes are not unwound.
	 */
	int (*user_cfi)(void *ctx, uint32_t file, const uint8_t *build_id,
			size_t build_id_len, const struct cfi_table **t);
	/* The function holding vaddr of file (name valid until the end). */
	int (*user_symbol)(void *ctx, uint32_t file, const uint8_t *build_id,
			   size_t build_id_len, uint64_t vaddr,
			   const char **name);
	/*
	 * The functions inlined at vaddr of file, innermost first, at most
	 * max names (valid until the end): their count, 0 for none or when
	 * not known; -errno. NULL: no inline frames.
	 */
	int (*user_inline)(void *ctx, uint32_t file, const uint8_t *build_id,
			   size_t build_id_len, uint64_t vaddr,
			   const char **names, size_t max);
	/*
	 * A JIT's name of user pc of pid at time ts, when no file-backed
	 * mapping holds it (jit_maps.h): valid until the next call;
	 * -ENOENT. NULL: such frames stay "[unknown]".
	 */
	int (*user_jit)(void *ctx, uint32_t pid, uint64_t pc, uint64_t ts,
			const char **name);
	/*
	 * The same at the end, for a pc user_jit could not name while the
	 * trace ran (a JIT may write its names only as it exits). NULL:
	 * such frames stay "[unknown]", one for every process.
	 */
	int (*user_jit_late)(void *ctx, uint32_t pid, uint64_t pc,
			     const char **name);
	/*
	 * The name of a Python frame of pid, its code object's address
	 * (include/fxt/pyframes.h): valid until the next call; -errno.
	 * NULL: such frames are "[python]".
	 */
	int (*user_python)(void *ctx, uint32_t pid, uint64_t code,
			   const char **name);
	void *ctx;
};

/* Writes whole records (words of them) to the archive. */
typedef int (*profile_emit_fn)(void *ctx, const uint64_t *rec, size_t words);

struct profile_ingest_stats {
	uint64_t samples; /* sample records written */
	uint64_t dropped; /* raw records lost: malformed, or memory bound */
	uint64_t dropped_offcpu; /* of which kernel:offcpu records */
	uint64_t perfetto_dropped; /* samples past the Perfetto bound */
	/* leaves without a frame whose caller's return address was lost */
	uint64_t leaf_caller_unknown;
	/*
	 * Walks that stopped early, of the samples written: stacks as deep
	 * as a record holds (kernel, user: maybe cut there); user stacks
	 * whose words at the stack pointer the kernel side could not read;
	 * walks ended at a junk word above a frameless leaf.
	 */
	uint64_t kernel_depth_limit, user_depth_limit;
	uint64_t user_read_fault, junk_frame_word;
	/*
	 * Copies of user stacks unwound (profile_unwind.c): walks whose
	 * frames replaced the record's frame-pointer walk, and of those the
	 * ones that stopped early: at a rule not followed, at a word outside
	 * the copy, at a stack pointer that did not grow.
	 */
	uint64_t unwind_walks, unwind_unsupported, unwind_read_fault;
	uint64_t unwind_bad_frame;
	/* Python frames interned, and those whose names were not read. */
	uint64_t python_frames, python_unnamed;
};

struct profile_ingest;

/* Samples kept for the Perfetto blobs by default (about 64 MiB). */
#define PROFILE_PERFETTO_SAMPLES_MAX (2u << 20)

/* Bounds: interned bytes, samples kept for Perfetto (0: defaults). */
int profile_ingest_new(const struct profile_resolver *r, size_t intern_budget,
		       size_t perfetto_max, struct profile_ingest **ret);

/*
 * Ids written from generation << 24 on (1..255; 0, the default: from 1),
 * each table then holding 2^24 - 1 at most: a manager that takes over a
 * trace from one that died writes ids that cannot be those before it.
 */
#define PROFILE_ID_GENERATION_SHIFT 24
/* Where the kernel's half of a 64-bit address space begins (x86-64, arm64). */
#define PROFILE_KERNEL_HALF (1ull << 63)
void profile_ingest_set_generation(struct profile_ingest *p,
				   uint8_t generation);
void profile_ingest_free(struct profile_ingest *p);

/*
 * One raw record of words words (fxt_ksample_is() of its first two):
 * definitions, then the sample record, through emit. A malformed one or
 * one past the bounds is counted as dropped (0 returned); an emit error
 * is returned.
 */
int profile_ingest_record(struct profile_ingest *p, const uint64_t *rec,
			  size_t words, profile_emit_fn emit, void *ctx);

/* The symbols of the user frames, then the Perfetto blobs. Once. */
int profile_ingest_finish(struct profile_ingest *p, profile_emit_fn emit,
			  void *ctx);

void profile_ingest_stats(const struct profile_ingest *p,
			  struct profile_ingest_stats *st);

#endif /* FXT_PROFILE_INGEST_H */
