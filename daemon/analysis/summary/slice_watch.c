// SPDX-License-Identifier: GPL-2.0-only
/* The slowest slices of one name: slice_watch.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "slice_watch.h"

int slice_watch_init(struct slice_watch *w, const char *name,
		     const char *category, size_t top)
{
	memset(w, 0, sizeof(*w));
	if (!name && !category)
		return 0;
	w->max = !top ? SLICE_WATCH_DEFAULT :
		 top > SLICE_WATCH_MAX ? SLICE_WATCH_MAX : top;
	w->slices = calloc(w->max, sizeof(*w->slices));
	if (!w->slices)
		return -ENOMEM;
	w->name = name;
	w->name_len = name ? strlen(name) : 0;
	w->category = category;
	w->category_len = category ? strlen(category) : 0;
	return 0;
}

void slice_watch_free(struct slice_watch *w)
{
	free(w->slices);
	memset(w, 0, sizeof(*w));
}

static uint64_t dur(const struct watched_slice *s)
{
	return s->end_ns - s->start_ns;
}

static bool is(const char *want, size_t want_len, const char *s, size_t len)
{
	return !want || (len == want_len && !memcmp(s, want, len));
}

void slice_watch_offer(struct slice_watch *w, const char *category,
		       size_t category_len, const char *name, size_t len,
		       uint64_t tid, uint64_t pid, uint64_t start_ns,
		       uint64_t end_ns)
{
	struct watched_slice s = { tid, pid, start_ns, end_ns, name };
	size_t i;

	if ((!w->name && !w->category) || end_ns < start_ns ||
	    !is(w->name, w->name_len, name, len) ||
	    !is(w->category, w->category_len, category, category_len))
		return;
	w->seen++;
	if (w->n == w->max) {
		if (dur(&w->slices[w->n - 1]) >= dur(&s))
			return;
		w->n--;		/* the fastest kept makes room */
	}
	/* insertion, slowest first: the list is short */
	for (i = w->n; i > 0 && dur(&w->slices[i - 1]) < dur(&s); i--)
		w->slices[i] = w->slices[i - 1];
	w->slices[i] = s;
	w->n++;
}
