/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The string and thread tables of a reader's providers (the spec's
 * per-provider state), all within one memory budget: an entry that does
 * not fit is dropped, its index left unset, so that references to it
 * read as unset (which the decoder reports) and no input can make the
 * tables of all providers together grow past the budget. Internal to
 * the reader.
 */
#ifndef FXT_TABLES_H
#define FXT_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include "fxt_reader.h"

/* The string table is paged: a small trace touches a page or two. */
#define FXT_STRING_PAGE_SLOTS 256u
#define FXT_STRING_PAGES ((FXT_STRING_INDEX_MAX + 1) / FXT_STRING_PAGE_SLOTS)

struct fxt_string_slot {
	char *data;
	uint32_t len;
	uint32_t cap;
	bool set;
};

struct fxt_thread_slot {
	struct fxt_thread_id id;
	bool set;
};

/* One provider's tables; pages and the thread table come on first use. */
struct fxt_tables {
	struct fxt_string_slot *strings[FXT_STRING_PAGES];
	struct fxt_thread_slot *threads;
};

/* The heap bytes all tables of one reader hold, and their ceiling. */
struct fxt_table_budget {
	uint64_t used;
	uint64_t max;
};

/*
 * Sets index to the string (copied) or the thread. 0 when stored, 1 when
 * dropped because it does not fit in the budget (index is then unset),
 * -ENOMEM.
 */
int fxt_tables_set_string(struct fxt_tables *t, struct fxt_table_budget *b,
			  uint16_t index, const char *data, uint32_t len);
int fxt_tables_set_thread(struct fxt_tables *t, struct fxt_table_budget *b,
			  uint8_t index, struct fxt_thread_id id);

/* The entry at index, NULL when it is unset. */
const struct fxt_string_slot *fxt_tables_string(const struct fxt_tables *t,
						uint16_t index);
const struct fxt_thread_id *fxt_tables_thread(const struct fxt_tables *t,
					      uint8_t index);

/* Every entry unset (a provider registered afresh); memory is kept. */
void fxt_tables_reset(struct fxt_tables *t);
/* Frees the tables and gives their bytes back to the budget. */
void fxt_tables_free(struct fxt_tables *t, struct fxt_table_budget *b);

#endif /* FXT_TABLES_H */
