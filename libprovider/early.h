/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Call-site events before the process's first connection attempt
 * settled (early.c): a trace may be running that it has not joined yet.
 * Those events cannot be written (no buffer exists) and, without a start
 * wait, are not waited for: they are counted by category, and the first
 * trace joined adds those of its categories to its dropped records. A
 * manager that is not tracing (FXT_MSG_IDLE), or none, forgets them;
 * counting ends a second after it began whatever happens.
 */
#ifndef FXT_PROVIDER_EARLY_H
#define FXT_PROVIDER_EARLY_H

#include <stdbool.h>

struct fxt_session;

/*
 * An event of category cat found no session: true when it was counted
 * (the first attempt has not settled: do not cache the site as
 * disabled), false when counting is over.
 */
bool fxt_early_missed(const char *cat);
/*
 * The first attempt settled: into s's dropped records (s joined; NULL:
 * none) go the events of its categories; no more are counted.
 */
void fxt_early_settled(struct fxt_session *s);
/* Whether events were counted and the first attempt has not settled. */
bool fxt_early_pending(void);
/* In a fork child: its own first attempt is ahead, counting again. */
void fxt_early_after_fork_child(void);

#endif /* FXT_PROVIDER_EARLY_H */
