/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Hash-consing of byte keys into dense ids 1, 2, 3, ...: the frames and
 * stacks of stack samples, and the files they are in. Memory is bounded
 * by the caller's budget: past it, nothing new is interned (-ENOSPC) and
 * the caller counts the loss.
 */
#ifndef FXT_PROFILE_INTERN_H
#define FXT_PROFILE_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "hash_index.h"

struct profile_intern {
	struct hash_index index; /* of ids: key index + 1 */
	struct profile_intern_key {
		uint64_t hash;
		uint32_t len;
		const void *bytes; /* owned: a copy of the key */
	} * keys; /* keys[id - 1] */
	uint32_t count;
	size_t bytes; /* memory held */
	size_t budget; /* bytes held at most */
	uint32_t max_count; /* ids 1..max_count */
};

void profile_intern_init(struct profile_intern *t, size_t budget,
			 uint32_t max_count);
void profile_intern_free(struct profile_intern *t);

/*
 * The id of key (len bytes): *added tells whether it is new. -ENOSPC
 * past the budget or the id range, -ENOMEM.
 */
int profile_intern_get(struct profile_intern *t, const void *key, uint32_t len,
		       uint32_t *id, int *added);

static inline const void *profile_intern_key(const struct profile_intern *t,
					     uint32_t id, uint32_t *len)
{
	*len = t->keys[id - 1].len;
	return t->keys[id - 1].bytes;
}

#endif /* FXT_PROFILE_INTERN_H */
