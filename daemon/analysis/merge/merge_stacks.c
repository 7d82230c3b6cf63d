// SPDX-License-Identifier: GPL-2.0-only
/* Stack records in one id space: see merge_stacks.h. */
#include <string.h>

#include <fxt/stacks.h>

#include "merge_stacks.h"

void merge_stack_ids_follow(struct merge_stack_ids *m,
			    const struct merge_stack_ids *prev)
{
	unsigned int s;

	memset(m, 0, sizeof(*m));
	for (s = 0; prev && s < MERGE_STACK_SPACES; s++)
		m->base[s] = prev->max[s];
	memcpy(m->max, m->base, sizeof(m->max));
}

bool merge_stack_id(struct merge_stack_ids *m, enum merge_stack_space s,
		    uint64_t id, uint32_t *out)
{
	uint64_t to;

	if (!id) {
		*out = 0;
		return true;
	}
	/* both at most 2^32 - 1 (ids are 32-bit, bases earlier ids) */
	to = m->base[s] + (id & FXT_STACKS_ID_MAX);
	if (id > FXT_STACKS_ID_MAX || to > FXT_STACKS_ID_MAX)
		return false;
	if (to > m->max[s])
		m->max[s] = to;
	*out = (uint32_t)to;
	return true;
}

/* Word 0's id field moved: false if it does not fit. */
static bool move_id(struct merge_stack_ids *m, enum merge_stack_space s,
		    uint64_t *w)
{
	uint32_t id;

	if (!merge_stack_id(m, s, FXT_GET(*w, FXT_STACKS_ID), &id))
		return false;
	*w = (*w & ~(fxt_mask(FXT_STACKS_ID_WIDTH) << FXT_STACKS_ID_SHIFT)) |
	     FXT_SET(id, FXT_STACKS_ID);
	return true;
}

static bool move_frame(struct merge_stack_ids *m, uint64_t *w)
{
	uint32_t mapping;

	if (!merge_stack_id(m, MERGE_STACK_MAPPINGS, w[1], &mapping))
		return false;
	w[1] = mapping;
	return move_id(m, MERGE_STACK_FRAMES, w);
}

static bool move_stack(struct merge_stack_ids *m, uint64_t *w)
{
	uint16_t n = (uint16_t)FXT_GET(w[0], FXT_STACKS_STACK_NFRAMES), i;
	uint32_t id;

	for (i = 0; i < n; i++) {
		uint64_t *p = &w[1 + i / 2];
		unsigned int shift = i % 2 ? 32 : 0;

		if (!merge_stack_id(m, MERGE_STACK_FRAMES,
				    (uint32_t)(*p >> shift), &id))
			return false;
		*p = (*p & ~(0xffffffffull << shift)) | (uint64_t)id << shift;
	}
	return move_id(m, MERGE_STACK_STACKS, w);
}

enum table_kind { T_MAPPINGS, T_FRAMES, T_STACKS, T_SYMBOLS, T_NONE };

static enum table_kind table_kind(const struct fxt_record *rec)
{
	static const char *const names[] = { FXT_STACKS_NAME_MAPPINGS,
					     FXT_STACKS_NAME_FRAMES,
					     FXT_STACKS_NAME_STACKS,
					     FXT_STACKS_NAME_SYMBOLS };
	unsigned int k;

	if (rec->type != FXT_RECORD_BLOB ||
	    rec->blob.blob_type != FXT_BLOB_DATA)
		return T_NONE;
	for (k = 0; k < T_NONE; k++)
		if (fxt_str_is(rec->blob.name, names[k]))
			return (enum table_kind)k;
	return T_NONE;
}

/* The words of the entry at p (avail words); 0 if it does not fit. */
static size_t entry_words(enum table_kind k, const uint64_t *p, size_t avail)
{
	struct fxt_stacks_mapping mapping;
	struct fxt_stacks_frame frame;
	struct fxt_stacks_stack stack;
	struct fxt_stacks_symbol symbol;

	switch (k) {
	case T_MAPPINGS:
		return fxt_stacks_get_mapping(p, avail, &mapping);
	case T_FRAMES:
		return fxt_stacks_get_frame(p, avail, &frame);
	case T_STACKS:
		return fxt_stacks_get_stack(p, avail, &stack);
	default:
		return fxt_stacks_get_symbol(p, avail, &symbol);
	}
}

/* The entry's ids moved in place: false if one does not fit. */
static bool move_entry(struct merge_stack_ids *m, enum table_kind k,
		       uint64_t *w)
{
	switch (k) {
	case T_MAPPINGS:
		return move_id(m, MERGE_STACK_MAPPINGS, w);
	case T_FRAMES:
		return move_frame(m, w);
	case T_STACKS:
		return move_stack(m, w);
	default: /* a symbol names a frame */
		return move_id(m, MERGE_STACK_FRAMES, w);
	}
}

size_t merge_stack_table(struct merge_stack_ids *m,
			 const struct fxt_record *rec, uint64_t *out)
{
	enum table_kind k = table_kind(rec);
	uint64_t hdr = rec->words[0];
	uint16_t name_ref = (uint16_t)FXT_GET(hdr, FXT_BLOB_NAME);
	size_t at = 1 + fxt_string_ref_words(name_ref), to = at, len, end;
	size_t words;

	if (k == T_NONE || at > rec->size_words)
		return 0;
	len = (size_t)FXT_GET(hdr, FXT_BLOB_SIZE);
	/* whole entries in whole words; a cut word and padding follow */
	end = at + len / FXT_WORD_BYTES;
	if (end > rec->size_words)
		end = rec->size_words;
	memcpy(out, rec->words, at * FXT_WORD_BYTES);
	while (at < end) {
		words = entry_words(k, &rec->words[at], end - at);
		if (!words) /* cut by the record's end: as it is */
			break;
		memcpy(&out[to], &rec->words[at], words * FXT_WORD_BYTES);
		if (move_entry(m, k, &out[to])) {
			to += words;
		} else {
			m->lost++;
			len -= words * FXT_WORD_BYTES;
		}
		at += words;
	}
	memcpy(&out[to], &rec->words[at],
	       (rec->size_words - at) * FXT_WORD_BYTES);
	to += rec->size_words - at;
	out[0] = fxt_blob_header((uint32_t)to, name_ref, (uint16_t)len,
				 FXT_BLOB_DATA);
	return to;
}
