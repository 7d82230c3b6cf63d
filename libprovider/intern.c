// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The string table of the running trace: string address -> string ref.
 *
 * Threads look strings up in their own cache first (fxt_intern_cached());
 * a miss comes here, under intern_lock: the first thread to use a string
 * in a trace takes the next index (1..32767) and writes its string record
 * to the durable area before any event can refer to it. A full table or
 * a full durable area makes the string inline from then on.
 *
 * Strings chosen at run time (TRACE_DYN) may change behind one address:
 * they are interned by content, in a table of the trace that takes the
 * same indices. Its entries are immutable once published and live as
 * long as the trace (never freed), so writers look them up without the
 * lock; only a string not there yet takes it. At FXT_INTERN_DYNAMIC_MAX
 * strings the table is full and further new strings are written inline.
 */
#include <stdlib.h>
#include <string.h>

#include <fxt/encode.h>

#include "buffer.h"
#include "intern.h"

#define TABLE_SLOTS (1u << 16)	/* twice the indices: short probes */
#define TABLE_FILL_MAX (TABLE_SLOTS / 4 * 3)

struct intern_slot {
	const char *ptr;
	uint16_t ref;
};

/* Rules: everything below under intern_lock. */
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static struct intern_slot *table;
static const struct fxt_trace *table_trace;
static uint32_t table_fill;
static uint32_t next_index;

uint32_t fxt_string_len(const char *s)
{
	return s ? (uint32_t)strnlen(s, FXT_STRING_LEN_MAX) : 0;
}

static uint32_t slot_hash(const char *ptr)
{
	uint64_t h = (uint64_t)(uintptr_t)ptr * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 48);
}

static bool table_ready_for(const struct fxt_trace *tr)
{
	if (table_trace == tr)
		return table != NULL;
	if (!table)
		table = calloc(TABLE_SLOTS, sizeof(*table));
	else
		memset(table, 0, TABLE_SLOTS * sizeof(*table));
	table_trace = tr;
	table_fill = 0;
	next_index = 1;
	return table != NULL;
}

/* Write the string record; false if there is no durable room for it. */
static bool write_string_record(struct fxt_trace *tr, uint16_t index,
				const char *str, uint32_t len)
{
	uint32_t words = 1 + fxt_words(len);
	uint64_t *p = fxt_buffer_reserve_durable(tr->buf, words * 8);

	if (!p)
		return false;
	fxt_encode_stream(p + 1, str, len);
	fxt_commit(p, fxt_string_header(index, (uint16_t)len));
	return true;
}

static uint16_t new_ref(struct fxt_trace *tr, const char *str, uint32_t len)
{
	if (next_index > FXT_STRING_INDEX_MAX ||
	    !write_string_record(tr, (uint16_t)next_index, str, len))
		return fxt_string_ref_inline((uint16_t)len);
	return (uint16_t)next_index++;
}

static uint16_t intern_locked(struct fxt_trace *tr, const char *str,
			      uint32_t len)
{
	uint32_t i;
	uint16_t ref;

	for (i = slot_hash(str);; i = (i + 1) % TABLE_SLOTS) {
		if (table[i].ptr == str)
			return table[i].ref;
		if (!table[i].ptr)
			break;
	}
	ref = new_ref(tr, str, len);
	if (table_fill < TABLE_FILL_MAX) {
		table[i].ptr = str;
		table[i].ref = ref;
		table_fill++;
	}
	return ref;
}

uint16_t fxt_intern_slow(struct fxt_trace *tr, const char *str)
{
	uint32_t len = fxt_string_len(str);
	uint16_t ref;

	if (!len)
		return FXT_STRING_REF_EMPTY;
	pthread_mutex_lock(&intern_lock);
	/* A stopped trace must not take the table from the running one. */
	if (!tr->owner->running(tr) || !table_ready_for(tr))
		ref = fxt_string_ref_inline((uint16_t)len);
	else
		ref = intern_locked(tr, str, len);
	pthread_mutex_unlock(&intern_lock);
	return ref;
}

/* Twice the entries: a free slot ends every probe. */
#define DYNAMIC_SLOTS (2 * FXT_INTERN_DYNAMIC_MAX)

struct dynamic_entry {
	uint64_t hash;
	uint16_t ref;
	bool category_enabled;	/* in the trace of the table */
	uint32_t len;
	char str[];
};

/* A trace's strings by content; rules: published entries immutable. */
struct fxt_intern_dynamic {
	_Atomic(struct dynamic_entry *) slots[DYNAMIC_SLOTS];
	uint32_t fill;		/* under intern_lock */
};

/* FNV-1a over the bytes kept (fxt_string_len()), as the look-up below. */
static uint64_t content_hash(const char *str, uint32_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint32_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (uint8_t)str[i]) * 0x100000001b3ull;
	return h;
}

static struct dynamic_entry *dynamic_find(struct fxt_intern_dynamic *d,
					  const char *str, uint32_t len,
					  uint64_t hash)
{
	struct dynamic_entry *e;
	uint32_t i;

	for (i = hash % DYNAMIC_SLOTS;; i = (i + 1) % DYNAMIC_SLOTS) {
		e = atomic_load_explicit(&d->slots[i], memory_order_acquire);
		if (!e)
			return NULL;
		if (e->hash == hash && e->len == len &&
		    !memcmp(e->str, str, len))
			return e;
	}
}

/* The inline writer's look-up: length and hash in one pass. */
uint16_t fxt_intern_dynamic_find(struct fxt_trace *tr, const char *str)
{
	struct fxt_intern_dynamic *d = atomic_load_explicit(
		&tr->dynamic, memory_order_acquire);
	uint64_t h = 0xcbf29ce484222325ull;
	struct dynamic_entry *e;
	uint32_t len;

	if (!d || !str)
		return 0;
	for (len = 0; len < FXT_STRING_LEN_MAX && str[len]; len++)
		h = (h ^ (uint8_t)str[len]) * 0x100000001b3ull;
	if (!len)
		return 0;
	e = dynamic_find(d, str, len, h);
	return e && !fxt_string_ref_is_inline(e->ref) ? e->ref : 0;
}

/* Under intern_lock: a new entry, written before it is published. */
static struct dynamic_entry *dynamic_add(struct fxt_trace *tr,
					 struct fxt_intern_dynamic *d,
					 const char *str, uint32_t len,
					 uint64_t hash)
{
	struct dynamic_entry *e;
	uint32_t i;

	if (d->fill >= FXT_INTERN_DYNAMIC_MAX)
		return NULL;
	e = malloc(sizeof(*e) + len);
	if (!e)
		return NULL;
	e->hash = hash;
	e->len = len;
	memcpy(e->str, str, len);
	e->category_enabled = tr->owner->category_enabled(tr, str);
	e->ref = new_ref(tr, str, len);
	for (i = hash % DYNAMIC_SLOTS; atomic_load(&d->slots[i]);
	     i = (i + 1) % DYNAMIC_SLOTS)
		;
	atomic_store_explicit(&d->slots[i], e, memory_order_release);
	d->fill++;
	return e;
}

static struct fxt_intern_dynamic *dynamic_table(struct fxt_trace *tr)
{
	struct fxt_intern_dynamic *d = atomic_load(&tr->dynamic);

	if (!d) {
		d = calloc(1, sizeof(*d));
		atomic_store_explicit(&tr->dynamic, d, memory_order_release);
	}
	return d;
}

uint16_t fxt_intern_dynamic(struct fxt_trace *tr, const char *str,
			    bool category, bool *enabled)
{
	struct fxt_intern_dynamic *d = atomic_load_explicit(
		&tr->dynamic, memory_order_acquire);
	uint32_t len = fxt_string_len(str);
	uint64_t hash = content_hash(str, len);
	struct dynamic_entry *e = NULL;

	if (d)
		e = dynamic_find(d, str, len, hash);
	/* A category left out takes no index: no string record for it. */
	if (!e && category && !tr->owner->category_enabled(tr, str)) {
		*enabled = false;
		return fxt_string_ref_inline((uint16_t)len);
	}
	if (!e && len) {
		pthread_mutex_lock(&intern_lock);
		/* As fxt_intern_slow(): the running trace's indices only. */
		if (tr->owner->running(tr) && table_ready_for(tr) &&
		    (d = dynamic_table(tr)) != NULL) {
			e = dynamic_find(d, str, len, hash);
			if (!e)
				e = dynamic_add(tr, d, str, len, hash);
		}
		pthread_mutex_unlock(&intern_lock);
	}
	if (e) {
		*enabled = e->category_enabled;
		return e->ref;
	}
	/* Full, or not the running trace: inline, never dropped. */
	*enabled = str && tr->owner->category_enabled(tr, str);
	return len ? fxt_string_ref_inline((uint16_t)len) :
		     FXT_STRING_REF_EMPTY;
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
	table_trace = NULL;
}
