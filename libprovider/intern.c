// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The string table of the running trace: string address -> string ref.
 *
 * Threads look strings up in their own cache first (fxt_intern_cached());
 * a miss comes here, under intern_lock: the first thread to use a string
 * in a trace takes the next index (1..32767) and writes its string record
 * to the durable area before any event can refer to it. A full table or
 * a full durable area makes the string inline from then on.
 */
#include <stdlib.h>
#include <string.h>

#include "buffer.h"
#include "intern.h"
#include "record.h"
#include "session.h"

#define TABLE_SLOTS (1u << 16)	/* twice the indices: short probes */
#define TABLE_FILL_MAX (TABLE_SLOTS / 4 * 3)

struct intern_slot {
	const char *ptr;
	uint16_t ref;
};

/* Rules: everything below under intern_lock. */
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static struct intern_slot *table;
static const struct fxt_session *table_session;
static uint32_t table_fill;
static uint32_t next_index;

static uint32_t slot_hash(const char *ptr)
{
	uint64_t h = (uint64_t)(uintptr_t)ptr * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 48);
}

static bool table_ready_for(const struct fxt_session *s)
{
	if (table_session == s)
		return table != NULL;
	if (!table)
		table = calloc(TABLE_SLOTS, sizeof(*table));
	else
		memset(table, 0, TABLE_SLOTS * sizeof(*table));
	table_session = s;
	table_fill = 0;
	next_index = 1;
	return table != NULL;
}

/* Write the string record; false if there is no durable room for it. */
static bool write_string_record(struct fxt_session *s, uint16_t index,
				const char *str, uint32_t len)
{
	uint32_t words = 1 + fxt_words(len);
	uint64_t *p = fxt_buffer_reserve_durable(s->buf, words * 8);

	if (!p)
		return false;
	fxt_put_stream(p + 1, str, len);
	fxt_commit(p, fxt_string_header(index, (uint16_t)len));
	return true;
}

static uint16_t new_ref(struct fxt_session *s, const char *str, uint32_t len)
{
	if (next_index > FXT_STRING_INDEX_MAX ||
	    !write_string_record(s, (uint16_t)next_index, str, len))
		return fxt_string_ref_inline((uint16_t)len);
	return (uint16_t)next_index++;
}

uint16_t fxt_intern_slow(struct fxt_session *s, const char *str)
{
	uint32_t len = fxt_string_len(str);
	uint32_t i;
	uint16_t ref;

	if (!len)
		return FXT_STRING_REF_EMPTY;
	pthread_mutex_lock(&intern_lock);
	/* A stopped trace must not take the table from the running one. */
	if (s != atomic_load(&fxt_current) || !table_ready_for(s)) {
		ref = fxt_string_ref_inline((uint16_t)len);
		goto out;
	}
	for (i = slot_hash(str);; i = (i + 1) % TABLE_SLOTS) {
		if (table[i].ptr == str) {
			ref = table[i].ref;
			goto out;
		}
		if (!table[i].ptr)
			break;
	}
	ref = new_ref(s, str, len);
	if (table_fill < TABLE_FILL_MAX) {
		table[i].ptr = str;
		table[i].ref = ref;
		table_fill++;
	}
out:
	pthread_mutex_unlock(&intern_lock);
	return ref;
}

void fxt_intern_lock(void)
{
	pthread_mutex_lock(&intern_lock);
}

void fxt_intern_unlock(void)
{
	pthread_mutex_unlock(&intern_lock);
}

void fxt_intern_after_fork_child(void)
{
	pthread_mutex_init(&intern_lock, NULL);
	table_session = NULL;
}
