/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What profile_ingest.c keeps, for the passes at the end
 * (profile_symbols.c, profile_perfetto.c). Not for other users.
 */
#ifndef FXT_PROFILE_INTERNAL_H
#define FXT_PROFILE_INTERNAL_H

#include <fxt/ksample.h>
#include <fxt/stacks.h>

#include "profile_ingest.h"
#include "profile_intern.h"

/* A table's entries not written yet: one blob record's payload. */
struct profile_table {
	uint16_t name_ref;
	size_t len; /* words of buf used, after the header word */
	uint64_t buf[1 + FXT_STACKS_BLOB_PAYLOAD_MAX / 8];
};

struct profile_frame {
	uint8_t kind; /* enum fxt_stacks_frame_kind */
	bool nonleaf; /* seen as a caller: its pc is a return address */
	bool inlined; /* an inline frame (profile_inline.c) */
	uint8_t inline_known; /* bit c: inline_first[c] looked up */
	uint32_t mapping; /* 0: kernel, or a user pc in no mapping */
	uint64_t addr; /* user: ELF vaddr or raw pc; kernel: offset */
	char *name; /* kernel, inline frames and "[unknown]"; else NULL */
	/* A user pc in no file its JIT did not name yet: its process. */
	uint32_t jit_pid;
	/* Inlined: the frame of the function it is inlined into. */
	uint32_t next;
	/*
	 * A function's frame: the innermost inline frame at addr (c 0) and
	 * at addr - 1 (c 1: addr a return address, the call before it), 0
	 * when none.
	 */
	uint32_t inline_first[2];
};

/* The key frames are interned by; inline frames have inline_depth. */
struct profile_frame_key {
	uint8_t kind;
	uint8_t inline_depth; /* 1: innermost; 0 not inlined */
	uint8_t inline_caller; /* the chain of addr - 1 */
	/*
	 * Unnamed by its process's JIT yet (named at the end): apart from
	 * the frame its name makes once the JIT has written it.
	 */
	uint8_t jit_late;
	uint32_t mapping;
	uint64_t pc_or_addr;
	/* A JIT's frame (named by its process's map): the process. */
	uint32_t jit_pid;
	uint32_t pad2;
};

/* A stack's frames at most: the PCs of a record and a leaf's caller. */
#define PROFILE_STACK_FRAMES_MAX \
	(FXT_KSAMPLE_KERNEL_MAX + FXT_KSAMPLE_USER_MAX + 1)
/* ... and the inline frames that fit beside them. */
#define PROFILE_STACK_IDS_MAX (4 * PROFILE_STACK_FRAMES_MAX)
/* Levels of inlining kept at one address. */
#define PROFILE_INLINE_MAX 16

/* A leaf's return address slot (profile_leaf.c), by mapping and vaddr. */
#define PROFILE_LEAF_CACHE_BITS 12
#define PROFILE_LEAF_NO_SLOT UINT64_MAX

struct profile_leaf_slot {
	uint32_t mapping; /* 0: free */
	uint64_t vaddr;
	uint64_t offset; /* from the stack pointer, or PROFILE_LEAF_NO_SLOT */
};

struct profile_sample_kept {
	uint64_t ts, weight_ns;
	uint32_t pid, tid, stack;
	uint16_t cpu; /* clamped */
	uint8_t offcpu, kernel_mode; /* 32 bytes in all */
};

struct profile_ingest {
	struct profile_resolver r;
	struct profile_intern mappings; /* u32 file, path \0 build id */
	struct profile_intern frames; /* struct frame_key */
	struct profile_intern stacks; /* frame ids, leaf first */
	struct profile_frame *frame; /* frame[id - 1] */
	size_t frame_cap;
	struct profile_table *pending[3]; /* mappings, frames, stacks */
	struct profile_sample_kept *kept;
	size_t nkept, kept_cap, kept_max;
	struct profile_ingest_stats st;
	struct profile_leaf_slot *leaf_cache; /* 1 << PROFILE_LEAF_CACHE_BITS */
	uint32_t id_base; /* added to every id written */
	bool finished;
};

/* The resolver's file handle at the start of a mapping's key. */
#define PROFILE_MAPPING_FILE_BYTES 4

/* A mapping's path and build id, from its key. */
static inline void profile_mapping(const struct profile_ingest *p, uint32_t id,
				   const char **path, size_t *path_len,
				   const uint8_t **build_id,
				   size_t *build_id_len)
{
	uint32_t len;
	const char *k = profile_intern_key(&p->mappings, id, &len);

	k += PROFILE_MAPPING_FILE_BYTES;
	len -= PROFILE_MAPPING_FILE_BYTES;
	*path = k;
	*path_len = strnlen(k, len);
	*build_id = (const uint8_t *)k + *path_len + 1;
	*build_id_len = len - *path_len - 1;
}

/* A mapping's file handle (struct profile_user_hit's file). */
static inline uint32_t profile_mapping_file(const struct profile_ingest *p,
					    uint32_t id)
{
	uint32_t len, file;
	const char *k = profile_intern_key(&p->mappings, id, &len);

	memcpy(&file, k, sizeof(file));
	return file;
}

struct fxt_ksample;

/* What is known of a sample's user leaf. */
struct profile_leaf {
	bool frameless; /* its CFA is from the stack pointer: no frame */
	uint64_t caller; /* the return address the walk skipped, or 0 */
	/* The stack unwound from its copy (profile_unwind.c): none skipped */
	bool walked;
};

/*
 * Of s's user leaf (of mapping, at hit): whether it keeps no frame, and
 * then the caller the walk skipped, its return address in leaf->caller
 * (0, counted as leaf_caller_unknown, when it should be there but is not
 * in s's stack words or in no mapping of s's process).
 */
void profile_leaf_caller(struct profile_ingest *p, const struct fxt_ksample *s,
			 uint32_t mapping, const struct profile_user_hit *hit,
			 struct profile_leaf *leaf);

/*
 * The user PCs of s unwound from the copy of its user stack (the
 * module's, more words than a leaf's frame) with each file's call frame
 * information, into pcs (FXT_KSAMPLE_USER_MAX at most): how many when
 * more than the record's own walk has (why the walk stopped is counted
 * then), else 0: the record's PCs stand.
 */
uint32_t profile_unwind(struct profile_ingest *p, const struct fxt_ksample *s,
			uint64_t *pcs);

/* The tables of definitions, in the order they are flushed. */
enum { PROFILE_TABLE_MAPPINGS, PROFILE_TABLE_FRAMES, PROFILE_TABLE_STACKS };

/* Room in pending table i; a full table first flushes those before it. */
int profile_pending_room(struct profile_ingest *p, unsigned int i, size_t words,
			 profile_emit_fn emit, void *ctx, uint64_t **at);
/* Mappings, then frames, then stacks: each before what names it. */
int profile_pending_flush(struct profile_ingest *p, profile_emit_fn emit,
			  void *ctx);

/* Room in frame[] for one more interned frame, before interning it. */
int profile_frame_reserve(struct profile_ingest *p);
/* New frame id: its fields, its name copied, its entry queued. */
int profile_frame_new(struct profile_ingest *p, uint32_t id, uint8_t kind,
		      uint32_t mapping, uint64_t addr, const char *name,
		      bool inlined, profile_emit_fn emit, void *ctx);
/*
 * The frame of key k, interned (name copied, inline frames flagged, its
 * entry queued when new): its id in *id, *added when new.
 */
int profile_frame_get(struct profile_ingest *p,
		      const struct profile_frame_key *k, const char *name,
		      profile_emit_fn emit, void *ctx, uint32_t *id,
		      int *added);

/*
 * User frame id (a function's, of a mapping) as the sample holds it,
 * after its inline frames if it has any (caller: id is a caller's,
 * its pc a return address): appended to ids, *n of them used, keeping
 * room for the PROFILE_STACK_FRAMES_MAX frames that may follow.
 */
int profile_inline_push(struct profile_ingest *p, uint32_t id, bool caller,
			profile_emit_fn emit, void *ctx, uint32_t *ids,
			uint16_t *n);

int profile_table_flush(struct profile_table *t, profile_emit_fn emit,
			void *ctx);
/* Room for words more words, flushing first if needed. */
int profile_table_room(struct profile_table *t, size_t words,
		       profile_emit_fn emit, void *ctx, uint64_t **at);

/* The user frames' symbol entries; names[frame id - 1] for Perfetto. */
int profile_symbols_write(struct profile_ingest *p, profile_emit_fn emit,
			  void *ctx, const char ***names);

#endif /* FXT_PROFILE_INTERNAL_H */
