/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Stack samples in the archive (kernel:sample, kernel:offcpu), as the
 * manager writes them and tracectl reads them: one definition for both.
 *
 * The kernel side's raw records (include/fxt/ksample.h) hold kernel
 * addresses and never reach the archive. The manager replaces each by
 * a sample record naming an interned stack, and writes the tables that
 * define stacks, frames and mappings before the first sample using them:
 *
 * - Sample: a large blob record with metadata (record type 15, large
 *   type 0, format 0), thread inline, timestamp (CLOCK_BOOTTIME ns),
 *   args uint32 "cpu", uint64 "stack" (stack id), uint64 "period_ns"
 *   (kernel:sample) or "blocked_ns" (kernel:offcpu); blob size 0.
 *   FXT_STACKS_SAMPLE_WORDS words, whatever the refs (all indexed).
 * - Tables: blob records (type 5) of blob type 1 named
 *   FXT_STACKS_NAME_MAPPINGS, _FRAMES, _STACKS, _SYMBOLS, each payload
 *   a whole number of entries, at most FXT_STACKS_BLOB_PAYLOAD_MAX bytes
 *   (an entry never spans two records). Entries are below.
 * - At stop: "fxtrace:symbols" entries, then blob type 3 records named
 *   "perfetto", the pieces of one protobuf Trace stream, and one blob
 *   "fxtrace:perfetto_dropped" holding a uint64: samples left out of it.
 *
 * All words little-endian 64-bit; fields [shift, shift+width). Readers
 * must treat every table as hostile: the decoders check bounds and
 * return 0 for an entry that does not fit.
 */
#ifndef FXT_STACKS_H
#define FXT_STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fxt.h"
#include "kdev.h"

/* Blob names (readers match the resolved name, inline or indexed). */
#define FXT_STACKS_NAME_MAPPINGS "fxtrace:mappings"
#define FXT_STACKS_NAME_FRAMES "fxtrace:frames"
#define FXT_STACKS_NAME_STACKS "fxtrace:stacks"
#define FXT_STACKS_NAME_SYMBOLS "fxtrace:symbols"
#define FXT_STACKS_NAME_PERFETTO "perfetto"
#define FXT_STACKS_NAME_PERFETTO_DROPPED "fxtrace:perfetto_dropped"

/*
 * The manager writes these names as the kernel provider's indexed
 * strings of include/fxt/kdev.h (FXT_KDEV_STRING_TABLE).
 */
#define FXT_STACKS_STR_MAPPINGS FXT_KDEV_STR_MAPPINGS
#define FXT_STACKS_STR_FRAMES FXT_KDEV_STR_FRAMES
#define FXT_STACKS_STR_STACKS FXT_KDEV_STR_STACKS
#define FXT_STACKS_STR_SYMBOLS FXT_KDEV_STR_SYMBOLS
#define FXT_STACKS_STR_PERFETTO FXT_KDEV_STR_PERFETTO
#define FXT_STACKS_STR_PERFETTO_DROPPED FXT_KDEV_STR_PERFETTO_DROPPED
#define FXT_STACKS_STR_STACK FXT_KDEV_STR_STACK /* the "stack" argument */

/*
 * A blob record is at most 4095 words; with an indexed name that leaves
 * 4094 words of payload. Perfetto sizes every record by bits 4..15.
 */
#define FXT_STACKS_BLOB_PAYLOAD_MAX 32752u

/* Mapping id 0 is the kernel ("[kernel]"); it is never written. */
#define FXT_STACKS_MAPPING_KERNEL 0u
#define FXT_STACKS_KERNEL_PATH "[kernel]"
/* Name of a kernel frame whose PC no kallsyms symbol holds. */
#define FXT_STACKS_KERNEL_UNKNOWN "[kernel]"
/*
 * Name of a user frame no mapping covers: its mapping id is 0 (no
 * mapping, not the kernel's: the frame kind says which) and w2 the raw
 * PC. Readers show it by this name, and count no missing mapping.
 */
#define FXT_STACKS_USER_UNKNOWN "[unknown]"

/* The longest file name an unnamed frame's name takes of its mapping. */
#define FXT_STACKS_UNNAMED_BASE_MAX 255u

/*
 * The one rule for a user frame that has no symbol, for every reader and
 * the manager's Perfetto blobs alike: the mapping's file name (the part
 * after its last '/', or the whole path when that part is empty), cut at
 * FXT_STACKS_UNNAMED_BASE_MAX bytes, then "+0x" and the address in hex.
 * Into buf (cap bytes, NUL-terminated); returns the length written.
 */
static inline size_t fxt_stacks_unnamed_name(char *buf, size_t cap,
					     const char *path, size_t len,
					     uint64_t addr)
{
	static const char hex[] = "0123456789abcdef";
	char digits[16];
	size_t base = len, n, at = 0, nd = 0;

	while (base > 0 && path[base - 1] != '/')
		base--;
	if (base == len)
		base = 0;
	n = len - base < FXT_STACKS_UNNAMED_BASE_MAX ?
		    len - base :
		    FXT_STACKS_UNNAMED_BASE_MAX;
	do
		digits[nd++] = hex[addr & 15];
	while ((addr >>= 4));
	if (!cap)
		return 0;
	while (at + 1 < cap && at < n) {
		buf[at] = path[base + at];
		at++;
	}
	for (n = 0; at + 1 < cap && n < 3; n++)
		buf[at++] = "+0x"[n];
	while (at + 1 < cap && nd)
		buf[at++] = digits[--nd];
	buf[at] = '\0';
	return at;
}

/* Ids are 32-bit; 0 is never a frame or stack id. */
#define FXT_STACKS_ID_MAX 0xffffffffu
#define FXT_STACKS_PATH_MAX 0xffffu /* 16-bit length fields */
#define FXT_STACKS_BUILD_ID_MAX 0xffu
#define FXT_STACKS_NAME_MAX 0xffffu
#define FXT_STACKS_FRAMES_MAX 0xffffu

enum fxt_stacks_frame_kind {
	FXT_STACKS_FRAME_USER = 1,
	FXT_STACKS_FRAME_KERNEL = 2,
};

/*
 * Frame flags. INLINED: a user frame of a function the compiler inlined
 * at addr (from DWARF); it carries its own name, the frames after it in
 * a stack being the functions it is inlined into, the last of them the
 * function holding addr (named by "fxtrace:symbols"). Such a frame has
 * the same mapping and addr as that function's frame: a reader that
 * knows nothing of the flag shows the right names all the same.
 */
#define FXT_STACKS_FRAME_INLINED 0x1u

/* Entry word 0 fields. */
#define FXT_STACKS_ID_SHIFT 0
#define FXT_STACKS_ID_WIDTH 32
#define FXT_STACKS_MAP_PATH_LEN_SHIFT 32
#define FXT_STACKS_MAP_PATH_LEN_WIDTH 16
#define FXT_STACKS_MAP_BUILD_ID_LEN_SHIFT 48
#define FXT_STACKS_MAP_BUILD_ID_LEN_WIDTH 8
#define FXT_STACKS_FRAME_KIND_SHIFT 32
#define FXT_STACKS_FRAME_KIND_WIDTH 8
#define FXT_STACKS_FRAME_NAME_LEN_SHIFT 40
#define FXT_STACKS_FRAME_NAME_LEN_WIDTH 16
#define FXT_STACKS_FRAME_FLAGS_SHIFT 56
#define FXT_STACKS_FRAME_FLAGS_WIDTH 8
#define FXT_STACKS_STACK_NFRAMES_SHIFT 32
#define FXT_STACKS_STACK_NFRAMES_WIDTH 16
#define FXT_STACKS_SYM_NAME_LEN_SHIFT 32
#define FXT_STACKS_SYM_NAME_LEN_WIDTH 16

/* The sample record: header, format, ts, pid, tid, cpu, stack (2),
 * weight (2), blob size. */
#define FXT_STACKS_SAMPLE_WORDS 11u
#define FXT_STACKS_SAMPLE_NARGS 3u

struct fxt_stacks_sample {
	uint16_t category_ref, name_ref; /* as written (indexed) */
	uint16_t cpu_ref, stack_ref, weight_ref;
	uint64_t ts;
	uint64_t pid, tid;
	uint32_t cpu;
	uint64_t stack_id;
	uint64_t weight_ns; /* period_ns or blocked_ns */
};

struct fxt_stacks_mapping {
	uint32_t id;
	uint16_t path_len;
	uint8_t build_id_len;
	const char *path; /* into the decoded words, not NUL-ended */
	const uint8_t *build_id;
};

struct fxt_stacks_frame {
	uint32_t id;
	uint8_t kind;
	uint8_t flags; /* FXT_STACKS_FRAME_INLINED */
	uint16_t name_len;
	uint32_t mapping_id;
	uint64_t addr; /* user: ELF vaddr (or raw PC if unknown); kernel: offset */
	const char *name;
};

struct fxt_stacks_stack {
	uint32_t id;
	uint16_t nframes;
	const uint64_t *frame_words; /* fxt_stacks_stack_frame() reads them */
};

struct fxt_stacks_symbol {
	uint32_t frame_id;
	uint16_t name_len;
	const char *name;
};

static inline size_t fxt_stacks_mapping_words(size_t path_len,
					      size_t build_id_len)
{
	return 1 + fxt_words((__u32)path_len) + fxt_words((__u32)build_id_len);
}

static inline size_t fxt_stacks_frame_words(size_t name_len)
{
	return 3 + fxt_words((__u32)name_len);
}

static inline size_t fxt_stacks_stack_words(size_t nframes)
{
	return 1 + (nframes + 1) / 2;
}

static inline size_t fxt_stacks_symbol_words(size_t name_len)
{
	return 1 + fxt_words((__u32)name_len);
}

/* Bytes padded with zeros to whole words; returns the next word. */
static inline uint64_t *fxt_stacks_put_bytes(uint64_t *p, const void *b,
					     size_t len)
{
	size_t words = fxt_words((__u32)len);

	if (!words)
		return p;
	p[words - 1] = 0;
	memcpy(p, b, len);
	return p + words;
}

/* Encoders: p has room for the _words() of the entry; return the end.
 * Lengths beyond the field widths are the caller's bug (clamp first). */
static inline uint64_t *
fxt_stacks_put_mapping(uint64_t *p, const struct fxt_stacks_mapping *m)
{
	*p++ = FXT_SET(m->id, FXT_STACKS_ID) |
	       FXT_SET(m->path_len, FXT_STACKS_MAP_PATH_LEN) |
	       FXT_SET(m->build_id_len, FXT_STACKS_MAP_BUILD_ID_LEN);
	p = fxt_stacks_put_bytes(p, m->path, m->path_len);
	return fxt_stacks_put_bytes(p, m->build_id, m->build_id_len);
}

static inline uint64_t *fxt_stacks_put_frame(uint64_t *p,
					     const struct fxt_stacks_frame *f)
{
	*p++ = FXT_SET(f->id, FXT_STACKS_ID) |
	       FXT_SET(f->kind, FXT_STACKS_FRAME_KIND) |
	       FXT_SET(f->name_len, FXT_STACKS_FRAME_NAME_LEN) |
	       FXT_SET(f->flags, FXT_STACKS_FRAME_FLAGS);
	*p++ = f->mapping_id;
	*p++ = f->addr;
	return fxt_stacks_put_bytes(p, f->name, f->name_len);
}

/* frame_ids: nframes ids, leaf first (kernel frames, then user frames). */
static inline uint64_t *fxt_stacks_put_stack(uint64_t *p, uint32_t id,
					     const uint32_t *frame_ids,
					     uint16_t nframes)
{
	uint16_t i;

	*p++ = FXT_SET(id, FXT_STACKS_ID) |
	       FXT_SET(nframes, FXT_STACKS_STACK_NFRAMES);
	for (i = 0; i < nframes; i += 2) {
		uint64_t hi = i + 1 < nframes ? frame_ids[i + 1] : 0;

		*p++ = (uint64_t)frame_ids[i] | hi << 32;
	}
	return p;
}

static inline uint64_t *fxt_stacks_put_symbol(uint64_t *p,
					      const struct fxt_stacks_symbol *s)
{
	*p++ = FXT_SET(s->frame_id, FXT_STACKS_ID) |
	       FXT_SET(s->name_len, FXT_STACKS_SYM_NAME_LEN);
	return fxt_stacks_put_bytes(p, s->name, s->name_len);
}

/* Decoders: from avail words at p; the words used, 0 if it does not fit. */
static inline size_t fxt_stacks_get_mapping(const uint64_t *p, size_t avail,
					    struct fxt_stacks_mapping *m)
{
	size_t words;

	if (!avail)
		return 0;
	m->id = (uint32_t)FXT_GET(p[0], FXT_STACKS_ID);
	m->path_len = (uint16_t)FXT_GET(p[0], FXT_STACKS_MAP_PATH_LEN);
	m->build_id_len = (uint8_t)FXT_GET(p[0], FXT_STACKS_MAP_BUILD_ID_LEN);
	words = fxt_stacks_mapping_words(m->path_len, m->build_id_len);
	if (words > avail)
		return 0;
	m->path = (const char *)(p + 1);
	m->build_id = (const uint8_t *)(p + 1 + fxt_words(m->path_len));
	return words;
}

static inline size_t fxt_stacks_get_frame(const uint64_t *p, size_t avail,
					  struct fxt_stacks_frame *f)
{
	size_t words;

	if (avail < 3)
		return 0;
	f->id = (uint32_t)FXT_GET(p[0], FXT_STACKS_ID);
	f->kind = (uint8_t)FXT_GET(p[0], FXT_STACKS_FRAME_KIND);
	f->name_len = (uint16_t)FXT_GET(p[0], FXT_STACKS_FRAME_NAME_LEN);
	f->flags = (uint8_t)FXT_GET(p[0], FXT_STACKS_FRAME_FLAGS);
	words = fxt_stacks_frame_words(f->name_len);
	if (words > avail || p[1] > FXT_STACKS_ID_MAX)
		return 0;
	f->mapping_id = (uint32_t)p[1];
	f->addr = p[2];
	f->name = (const char *)(p + 3);
	return words;
}

static inline size_t fxt_stacks_get_stack(const uint64_t *p, size_t avail,
					  struct fxt_stacks_stack *s)
{
	size_t words;

	if (!avail)
		return 0;
	s->id = (uint32_t)FXT_GET(p[0], FXT_STACKS_ID);
	s->nframes = (uint16_t)FXT_GET(p[0], FXT_STACKS_STACK_NFRAMES);
	words = fxt_stacks_stack_words(s->nframes);
	if (words > avail)
		return 0;
	s->frame_words = p + 1;
	return words;
}

/* Frame i (< nframes, leaf first) of a decoded stack. */
static inline uint32_t fxt_stacks_stack_frame(const struct fxt_stacks_stack *s,
					      uint16_t i)
{
	return (uint32_t)(s->frame_words[i / 2] >> (i % 2 ? 32 : 0));
}

static inline size_t fxt_stacks_get_symbol(const uint64_t *p, size_t avail,
					   struct fxt_stacks_symbol *s)
{
	size_t words;

	if (!avail)
		return 0;
	s->frame_id = (uint32_t)FXT_GET(p[0], FXT_STACKS_ID);
	s->name_len = (uint16_t)FXT_GET(p[0], FXT_STACKS_SYM_NAME_LEN);
	words = fxt_stacks_symbol_words(s->name_len);
	if (words > avail)
		return 0;
	s->name = (const char *)(p + 1);
	return words;
}

/* The sample record, FXT_STACKS_SAMPLE_WORDS words (all refs indexed). */
static inline void fxt_stacks_put_sample(uint64_t *p,
					 const struct fxt_stacks_sample *s)
{
	p[0] = fxt_large_blob_header(FXT_STACKS_SAMPLE_WORDS,
				     FXT_LARGE_BLOB_WITH_METADATA);
	p[1] = fxt_large_blob_format_word(s->category_ref, s->name_ref,
					  FXT_STACKS_SAMPLE_NARGS,
					  FXT_THREAD_REF_INLINE);
	p[2] = s->ts;
	p[3] = s->pid;
	p[4] = s->tid;
	p[5] = fxt_arg_header(FXT_ARG_UINT32, 1, s->cpu_ref, s->cpu);
	p[6] = fxt_arg_header(FXT_ARG_UINT64, 2, s->stack_ref, 0);
	p[7] = s->stack_id;
	p[8] = fxt_arg_header(FXT_ARG_UINT64, 2, s->weight_ref, 0);
	p[9] = s->weight_ns;
	p[10] = 0; /* blob size: no payload */
}

/*
 * Reads a sample record written by fxt_stacks_put_sample(); 0 on
 * success, -1 if the words are not of that exact form.
 */
static inline int fxt_stacks_get_sample(const uint64_t *p, size_t avail,
					struct fxt_stacks_sample *s)
{
	if (avail < FXT_STACKS_SAMPLE_WORDS ||
	    p[0] != fxt_large_blob_header(FXT_STACKS_SAMPLE_WORDS,
					  FXT_LARGE_BLOB_WITH_METADATA) ||
	    FXT_GET(p[1], FXT_LBLOB_NARGS) != FXT_STACKS_SAMPLE_NARGS ||
	    FXT_GET(p[1], FXT_LBLOB_THREAD) != FXT_THREAD_REF_INLINE ||
	    p[1] >> 44 || p[10] != 0)
		return -1;
	if (FXT_GET(p[5], FXT_ARG_TYPE) != FXT_ARG_UINT32 ||
	    FXT_GET(p[5], FXT_ARG_SIZE) != 1 ||
	    FXT_GET(p[6], FXT_ARG_TYPE) != FXT_ARG_UINT64 ||
	    FXT_GET(p[6], FXT_ARG_SIZE) != 2 ||
	    FXT_GET(p[8], FXT_ARG_TYPE) != FXT_ARG_UINT64 ||
	    FXT_GET(p[8], FXT_ARG_SIZE) != 2)
		return -1;
	s->category_ref = (uint16_t)FXT_GET(p[1], FXT_LBLOB_CATEGORY);
	s->name_ref = (uint16_t)FXT_GET(p[1], FXT_LBLOB_NAME);
	s->ts = p[2];
	s->pid = p[3];
	s->tid = p[4];
	s->cpu_ref = (uint16_t)FXT_GET(p[5], FXT_ARG_NAME);
	s->cpu = (uint32_t)FXT_GET(p[5], FXT_ARG_VALUE32);
	s->stack_ref = (uint16_t)FXT_GET(p[6], FXT_ARG_NAME);
	s->stack_id = p[7];
	s->weight_ref = (uint16_t)FXT_GET(p[8], FXT_ARG_NAME);
	s->weight_ns = p[9];
	return 0;
}

#endif /* FXT_STACKS_H */
