/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Strings (intern.c): the string table of the running trace, and the
 * inline form of strings in records. Literals are interned by address,
 * strings chosen at run time (TRACE_DYN) by content.
 */
#ifndef FXT_PROVIDER_INTERN_H
#define FXT_PROVIDER_INTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "macro.h"
#include "thread.h"
#include "trace.h"

/* Length kept for an inline string (capped at FXT_STRING_LEN_MAX). */
uint32_t fxt_string_len(const char *s);

uint16_t fxt_intern_slow(struct fxt_trace *tr, const char *str);
void fxt_intern_lock(void);
void fxt_intern_unlock(void);
void fxt_intern_after_fork_child(void);

/* At most this many strings of a trace are interned by content. */
#define FXT_INTERN_DYNAMIC_MAX 1024u

/*
 * The ref of a string chosen at run time, by its content: an index once
 * its string record is written; inline (0x8000 | len) once the trace's
 * table is full; 0 if "". enabled: is it an enabled category of tr? A
 * category (category) that is not enabled is not interned.
 */
uint16_t fxt_intern_dynamic(struct fxt_trace *tr, const char *str,
			    bool category, bool *enabled);
/* The trace's table only, without a lock: an index, or 0 (not there). */
uint16_t fxt_intern_dynamic_find(struct fxt_trace *tr, const char *str);

/*
 * A string ref for str: an index, or inline (0x8000 | len), or 0 if "".
 * This thread's cache first, then the trace's table.
 */
static inline uint16_t fxt_intern_cached(struct fxt_thread *t,
					 struct fxt_trace *tr,
					 const char *str)
{
	uintptr_t h = (uintptr_t)str;
	struct fxt_string_slot *slot;

	h = (h ^ (h >> 8)) % FXT_STRING_CACHE_SLOTS;
	slot = &t->strings[h];
	if (likely(slot->ptr == str))
		return slot->ref;
	slot->ptr = str;
	slot->ref = fxt_intern_slow(tr, str);
	return slot->ref;
}

#endif /* FXT_PROVIDER_INTERN_H */
