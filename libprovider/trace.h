/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One trace as the writers under its session see it: the record writer
 * (record.c) and the string table (intern.c). The session (session.h)
 * owns it, hands it down to them, and answers what only it knows through
 * the owner's callbacks: the writers never call up into the session.
 */
#ifndef FXT_PROVIDER_TRACE_H
#define FXT_PROVIDER_TRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct fxt_buffer;
struct fxt_intern_dynamic;
struct fxt_trace;

/* The session's answers, the same for every trace (session.c). */
struct fxt_trace_owner {
	/* Is tr the running trace (only it takes string indices)? */
	bool (*running)(const struct fxt_trace *tr);
	bool (*category_enabled)(const struct fxt_trace *tr,
				 const char *category);
	/* The process's name in tr's records. */
	void (*process_name)(const struct fxt_trace *tr, char *out,
			     size_t size);
};

struct fxt_trace {
	struct fxt_buffer *buf;
	const struct fxt_trace_owner *owner;
	_Atomic unsigned int next_thread_index;	/* 1..255 */
	atomic_bool process_named;
	/* Strings interned by content (intern.c); NULL until the first. */
	_Atomic(struct fxt_intern_dynamic *) dynamic;
};

#endif /* FXT_PROVIDER_TRACE_H */
