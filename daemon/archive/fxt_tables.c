// SPDX-License-Identifier: GPL-2.0-only
/* Providers' string and thread tables in one budget: see fxt_tables.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_tables.h"

#define THREAD_SLOTS (FXT_THREAD_INDEX_MAX + 1)

/*
 * What malloc takes for n bytes, its header and rounding included: a
 * table of one-byte strings must not cost 32 times what it is charged.
 */
static uint64_t heap_bytes(uint64_t n)
{
	uint64_t chunk = (n + 8 + 15) & ~15ull;

	return chunk < 32 ? 32 : chunk;
}

static bool charge(struct fxt_table_budget *b, uint64_t bytes)
{
	if (bytes > b->max - b->used)
		return false;
	b->used += bytes;
	return true;
}

static void refund(struct fxt_table_budget *b, uint64_t bytes)
{
	b->used -= bytes < b->used ? bytes : b->used;
}

static struct fxt_string_slot *string_slot(const struct fxt_tables *t,
					   uint16_t index)
{
	struct fxt_string_slot *page = t->strings[index / FXT_STRING_PAGE_SLOTS];

	return page ? &page[index % FXT_STRING_PAGE_SLOTS] : NULL;
}

/* The slot for index, its page allocated if need be; NULL past the budget. */
static struct fxt_string_slot *string_slot_new(struct fxt_tables *t,
					       struct fxt_table_budget *b,
					       uint16_t index, int *err)
{
	struct fxt_string_slot **page = &t->strings[index / FXT_STRING_PAGE_SLOTS];
	uint64_t bytes = heap_bytes(FXT_STRING_PAGE_SLOTS * sizeof(**page));

	if (*page)
		return &(*page)[index % FXT_STRING_PAGE_SLOTS];
	if (!charge(b, bytes))
		return NULL;
	*page = calloc(FXT_STRING_PAGE_SLOTS, sizeof(**page));
	if (!*page) {
		refund(b, bytes);
		*err = -ENOMEM;
		return NULL;
	}
	return &(*page)[index % FXT_STRING_PAGE_SLOTS];
}

static void slot_release(struct fxt_string_slot *slot,
			 struct fxt_table_budget *b)
{
	if (slot->cap)
		refund(b, heap_bytes(slot->cap));
	free(slot->data);
	memset(slot, 0, sizeof(*slot));
}

int fxt_tables_set_string(struct fxt_tables *t, struct fxt_table_budget *b,
			  uint16_t index, const char *data, uint32_t len)
{
	struct fxt_string_slot *slot;
	int err = 0;
	char *copy;

	slot = string_slot_new(t, b, index, &err);
	if (!slot)
		return err ? err : 1;
	if (slot->cap < len) {
		/* the old copy goes first: its bytes count toward the new */
		slot_release(slot, b);
		if (!charge(b, heap_bytes(len)))
			return 1;
		copy = malloc(len);
		if (!copy) {
			refund(b, heap_bytes(len));
			return -ENOMEM;
		}
		slot->data = copy;
		slot->cap = len;
	}
	if (len)
		memcpy(slot->data, data, len);
	slot->len = len;
	slot->set = true;
	return 0;
}

int fxt_tables_set_thread(struct fxt_tables *t, struct fxt_table_budget *b,
			  uint8_t index, struct fxt_thread_id id)
{
	uint64_t bytes = heap_bytes(THREAD_SLOTS * sizeof(*t->threads));

	if (!t->threads) {
		if (!charge(b, bytes))
			return 1;
		t->threads = calloc(THREAD_SLOTS, sizeof(*t->threads));
		if (!t->threads) {
			refund(b, bytes);
			return -ENOMEM;
		}
	}
	t->threads[index].id = id;
	t->threads[index].set = true;
	return 0;
}

const struct fxt_string_slot *fxt_tables_string(const struct fxt_tables *t,
						uint16_t index)
{
	const struct fxt_string_slot *slot = string_slot(t, index);

	return slot && slot->set ? slot : NULL;
}

const struct fxt_thread_id *fxt_tables_thread(const struct fxt_tables *t,
					      uint8_t index)
{
	return t->threads && t->threads[index].set ? &t->threads[index].id :
						     NULL;
}

void fxt_tables_reset(struct fxt_tables *t)
{
	size_t i, k;

	for (i = 0; i < FXT_STRING_PAGES; i++)
		if (t->strings[i])
			for (k = 0; k < FXT_STRING_PAGE_SLOTS; k++)
				t->strings[i][k].set = false;
	if (t->threads)
		memset(t->threads, 0, THREAD_SLOTS * sizeof(*t->threads));
}

void fxt_tables_free(struct fxt_tables *t, struct fxt_table_budget *b)
{
	size_t i, k;

	for (i = 0; i < FXT_STRING_PAGES; i++) {
		if (!t->strings[i])
			continue;
		for (k = 0; k < FXT_STRING_PAGE_SLOTS; k++)
			slot_release(&t->strings[i][k], b);
		free(t->strings[i]);
		refund(b, heap_bytes(FXT_STRING_PAGE_SLOTS * sizeof(**t->strings)));
	}
	if (t->threads)
		refund(b, heap_bytes(THREAD_SLOTS * sizeof(*t->threads)));
	free(t->threads);
	memset(t, 0, sizeof(*t));
}
