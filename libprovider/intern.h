/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Strings (intern.c): the string table of the running trace, and the
 * inline form of strings in records.
 */
#ifndef FXT_PROVIDER_INTERN_H
#define FXT_PROVIDER_INTERN_H

#include <stdint.h>

#include "macro.h"
#include "thread.h"

struct fxt_session;

uint16_t fxt_intern_slow(struct fxt_session *s, const char *str);
void fxt_intern_lock(void);
void fxt_intern_unlock(void);
void fxt_intern_after_fork_child(void);

/*
 * A string ref for str: an index, or inline (0x8000 | len), or 0 if "".
 * This thread's cache first, then the trace's table.
 */
static inline uint16_t fxt_intern_cached(struct fxt_thread *t,
					 struct fxt_session *s,
					 const char *str)
{
	uintptr_t h = (uintptr_t)str;
	struct fxt_string_slot *slot;

	h = (h ^ (h >> 8)) % FXT_STRING_CACHE_SLOTS;
	slot = &t->strings[h];
	if (likely(slot->ptr == str))
		return slot->ref;
	slot->ptr = str;
	slot->ref = fxt_intern_slow(s, str);
	return slot->ref;
}

#endif /* FXT_PROVIDER_INTERN_H */
