// SPDX-License-Identifier: LGPL-2.1-or-later
/* Call-site events before the first join: see early.h. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "buffer.h"
#include "early.h"
#include "session.h"

/*
 * A manager that says neither START nor IDLE (older ones) leaves the
 * first attempt unsettled: counting ends this long after it began.
 */
#define EARLY_WINDOW_NS 1000000000ull

/* Categories counted apart; more, and longer names, count whatever. */
#define EARLY_CATEGORIES 16
#define EARLY_CATEGORY_MAX 64

/* Rules: under early_lock (a slow path of the first milliseconds only). */
static pthread_mutex_t early_lock = PTHREAD_MUTEX_INITIALIZER;
static bool early_over;
static struct {
	char category[EARLY_CATEGORY_MAX];
	uint64_t events;
} early[EARLY_CATEGORIES];
static unsigned int early_count;
static uint64_t early_other;	/* of categories not counted apart */
static uint64_t early_since;	/* CLOCK_MONOTONIC_COARSE of the first */

/* Under early_lock: whether the window is still open. */
static bool counting(void)
{
	struct timespec ts;
	uint64_t now;

	if (early_over)
		return false;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!early_since)
		early_since = now;
	else if (now - early_since > EARLY_WINDOW_NS)
		early_over = true;
	return !early_over;
}

/* Under early_lock: the entry of cat, or NULL when there is no room. */
static uint64_t *events_of(const char *cat)
{
	size_t len = cat ? strlen(cat) : 0;
	unsigned int i;

	if (len >= EARLY_CATEGORY_MAX)
		return NULL;
	for (i = 0; i < early_count; i++)
		if (!strcmp(early[i].category, cat ? cat : ""))
			return &early[i].events;
	if (early_count == EARLY_CATEGORIES)
		return NULL;
	memcpy(early[early_count].category, cat ? cat : "", len + 1);
	return &early[early_count++].events;
}

bool fxt_early_missed(const char *cat)
{
	uint64_t *n;
	bool counted;

	pthread_mutex_lock(&early_lock);
	counted = counting();
	if (counted) {
		n = events_of(cat);
		(*(n ? n : &early_other))++;
	}
	pthread_mutex_unlock(&early_lock);
	return counted;
}

void fxt_early_settled(struct fxt_session *s)
{
	uint64_t dropped = 0;
	unsigned int i;

	pthread_mutex_lock(&early_lock);
	if (!early_over && s) {
		dropped = early_other;
		for (i = 0; i < early_count; i++)
			if (fxt_session_category_enabled(s, early[i].category))
				dropped += early[i].events;
	}
	early_over = true;
	pthread_mutex_unlock(&early_lock);
	if (dropped)
		fxt_buffer_count_missed(s->trace.buf, dropped);
}

bool fxt_early_pending(void)
{
	bool pending;

	pthread_mutex_lock(&early_lock);
	pending = !early_over && (early_count || early_other);
	pthread_mutex_unlock(&early_lock);
	return pending;
}

void fxt_early_after_fork_child(void)
{
	pthread_mutex_init(&early_lock, NULL);
	early_over = false;
	early_count = 0;
	early_other = 0;
	early_since = 0;
}
