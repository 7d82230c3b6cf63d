/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stack records of an archive (include/fxt/stacks.h), collected in
 * one pass in any order: the definition tables (blob records
 * "fxtrace:mappings", "fxtrace:frames", "fxtrace:stacks",
 * "fxtrace:symbols"), the samples (large blob records "cpu_sample" of
 * kernel:sample, "offcpu" of kernel:offcpu) and the manager's count of
 * what it lost ("fxtrace:stack_losses", include/fxt/stacks_losses.h).
 *
 * The input is hostile: every entry's lengths are checked against its
 * record, ids are looked up, never trusted as indexes; the first
 * definition of an id wins. Memory is bounded by the ceilings below;
 * what does not fit is counted in the stats, never silently lost.
 */
#ifndef FXT_STACK_TABLES_H
#define FXT_STACK_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/stacks_losses.h>

#include "fxt_reader.h"

/*
 * Everything the tables and samples hold (arrays, indexes, names, frame
 * lists) counts against this: about a million samples, or fewer with
 * big tables. stack_profile.h has a budget of its own.
 */
#define STACKS_TABLES_BYTES_MAX (40u << 20)
#define STACKS_DEFS_MAX (1u << 20)	/* of each kind */
#define STACKS_NAME_MAX 4096u		/* longer names are cut */

enum stack_frame_kind {
	STACK_FRAME_USER = 1,
	STACK_FRAME_KERNEL = 2,
};

struct stack_mapping {
	uint32_t id;
	uint32_t path_len;
	char *path;		/* NUL-terminated copy */
};

struct stack_frame {
	uint32_t id;
	uint8_t kind;
	uint32_t mapping_id;
	uint64_t addr;		/* user: ELF vaddr; kernel: offset */
	char *name;		/* NUL-terminated; "" for user frames */
	uint32_t name_len;
	char *symbol;		/* from "fxtrace:symbols", or NULL */
	uint32_t symbol_len;
	bool inlined;		/* a user frame FXT_STACKS_FRAME_INLINED */
};

struct stack_def {
	uint32_t id;
	uint32_t nframes;
	uint32_t *frames;	/* frame ids, leaf first */
};

struct stack_sample {
	uint64_t ts_ns;
	uint64_t pid, tid;
	uint64_t weight_ns;	/* period_ns (on-CPU) or blocked_ns */
	uint32_t stack_id;
	uint32_t cpu;
	bool offcpu;
};

/* Open addressing: 32-bit id -> index in its array. */
struct stack_id_index {
	uint64_t *slots;	/* id << 32 | (index + 1); 0 free */
	uint32_t mask;
	uint32_t n;
};

struct stack_table_stats {
	uint64_t samples;		/* kept */
	uint64_t samples_dropped;	/* past STACKS_TABLES_BYTES_MAX */
	uint64_t samples_malformed;	/* without their args */
	uint64_t entries_malformed;	/* bad lengths, reserved ids, kinds */
	uint64_t entries_duplicate;	/* an id defined again: ignored */
	uint64_t entries_dropped;	/* past the ceilings */
};

/*
 * What the manager counted as lost while it recorded the samples (the
 * "fxtrace:stack_losses" records of include/fxt/stacks_losses.h): the
 * counts of every record added, saturating.
 */
struct stack_capture_losses {
	uint32_t records;	/* read; 0: the archive has none */
	uint64_t count[FXT_STACK_LOSS_COUNT];
	uint64_t unknown;	/* entries of reasons this reader does not know */
};

struct stack_tables {
	struct stack_mapping *mappings;
	uint32_t nmappings, mappings_cap;
	struct stack_id_index mapping_index;
	struct stack_frame *frames;
	uint32_t nframes, frames_cap;
	struct stack_id_index frame_index;
	struct stack_def *stacks;
	uint32_t nstacks, stacks_cap;
	struct stack_id_index stack_index;
	/* symbols arrive in any order: applied to frames at the end */
	struct stack_frame *symbols;	/* id, symbol, symbol_len only */
	uint32_t nsymbols, symbols_cap;

	struct stack_sample *samples;
	size_t nsamples, samples_cap;

	uint64_t bytes;		/* of STACKS_TABLES_BYTES_MAX */
	struct stack_table_stats stats;
	struct stack_capture_losses capture;
	int err;		/* -ENOMEM */
};

void stack_tables_init(struct stack_tables *t);
void stack_tables_free(struct stack_tables *t);

/*
 * Takes rec if it is one of the stack records: returns true then (false
 * for every other record). Out of memory leaves t->err set.
 */
bool stack_tables_take(struct stack_tables *t, const struct fxt_record *rec);
/* Whether rec is a sample record, and *offcpu whether kernel:offcpu's. */
bool stack_tables_is_sample(const struct fxt_record *rec, bool *offcpu);

/* After the last record: symbols applied to their frames. 0 or -ENOMEM. */
int stack_tables_finish(struct stack_tables *t);

/* The index of the definition with this id, or -1. */
int64_t stack_id_lookup(const struct stack_id_index *x, uint32_t id);

static inline const struct stack_frame *
stack_tables_frame(const struct stack_tables *t, uint32_t id)
{
	int64_t i = stack_id_lookup(&t->frame_index, id);

	return i < 0 ? NULL : &t->frames[i];
}

static inline const struct stack_mapping *
stack_tables_mapping(const struct stack_tables *t, uint32_t id)
{
	int64_t i = stack_id_lookup(&t->mapping_index, id);

	return i < 0 ? NULL : &t->mappings[i];
}

#endif /* FXT_STACK_TABLES_H */
