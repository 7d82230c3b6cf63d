// SPDX-License-Identifier: GPL-2.0-only
/*
 * py_procs.h: a ring of PY_PROCS_MAX entries under a lock, searched from
 * the newest (a few processes in practice; each name read once).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "py_procs.h"

struct py_procs {
	pthread_mutex_t lock;
	struct py_proc *e;	/* PY_PROCS_MAX */
	uint32_t n, next;
};

int py_procs_new(struct py_procs **ret)
{
	struct py_procs *ps = calloc(1, sizeof(*ps));

	if (ps)
		ps->e = calloc(PY_PROCS_MAX, sizeof(*ps->e));
	if (!ps || !ps->e) {
		free(ps);
		return -ENOMEM;
	}
	pthread_mutex_init(&ps->lock, NULL);
	*ret = ps;
	return 0;
}

/* The index of pid's entry, newest first, or -1. Under the lock. */
static int find(const struct py_procs *ps, uint32_t pid)
{
	uint32_t i, at;

	for (i = 1; i <= ps->n; i++) {
		at = (ps->next + PY_PROCS_MAX - i) % PY_PROCS_MAX;
		if (ps->e[at].pid == pid)
			return (int)at;
	}
	return -1;
}

int py_procs_set(struct py_procs *ps, const struct py_proc *p)
{
	int at;

	pthread_mutex_lock(&ps->lock);
	at = find(ps, p->pid);
	if (at >= 0 && ps->e[at].start_stack == p->start_stack) {
		ps->e[at] = *p;
	} else {
		ps->e[ps->next] = *p;
		ps->next = (ps->next + 1) % PY_PROCS_MAX;
		ps->n += ps->n < PY_PROCS_MAX;
	}
	pthread_mutex_unlock(&ps->lock);
	return 0;
}

int py_procs_get(struct py_procs *ps, uint32_t pid, struct py_proc *out)
{
	int at;

	pthread_mutex_lock(&ps->lock);
	at = find(ps, pid);
	if (at >= 0)
		*out = ps->e[at];
	pthread_mutex_unlock(&ps->lock);
	return at >= 0 ? 0 : -ENOENT;
}

void py_procs_free(struct py_procs *ps)
{
	if (!ps)
		return;
	pthread_mutex_destroy(&ps->lock);
	free(ps->e);
	free(ps);
}
