/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The summary's open async spans (async begin to async end of one id,
 * on any thread: coroutines, tasks, requests), by a key of the process,
 * the id and the slice, in bounded memory: past ASYNC_SPANS_MAX open at
 * once, a begin is counted lost and its end finds nothing.
 */
#ifndef FXT_ASYNC_SPANS_H
#define FXT_ASYNC_SPANS_H

#include <stdbool.h>
#include <stdint.h>

#define ASYNC_SPANS_MAX 16384u

struct async_span {
	uint64_t key; /* 0: a free slot */
	uint64_t start_ns;
};

struct async_spans {
	struct async_span *slot; /* 2 * ASYNC_SPANS_MAX, or NULL */
	uint32_t used;
	uint64_t lost; /* begins not kept: too many open */
};

/* The key of a span: never 0. */
uint64_t async_spans_key(uint64_t pid, uint64_t id, uint32_t slice);
/* A span began at ns (again: its new start). 0 or -ENOMEM. */
int async_spans_begin(struct async_spans *a, uint64_t key, uint64_t ns);
/* A span ended: true and its start when it was open (it is no more). */
bool async_spans_end(struct async_spans *a, uint64_t key, uint64_t *start);
void async_spans_free(struct async_spans *a);

#endif /* FXT_ASYNC_SPANS_H */
