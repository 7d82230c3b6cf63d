// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each CPU's stream is already in timestamp order, so the merge only
 * compares the heads: the CPU count is small, a linear scan of the heads
 * costs less than keeping a heap up to date.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/fxt.h>

#include "kernel_clock.h"
#include "kernel_merge.h"

struct cpu_stream {
	uint64_t *chunk;
	size_t words;		/* valid words in chunk */
	size_t pos;		/* word index of the head record */
	uint64_t budget;	/* bytes this drain may still read */
	bool empty;		/* read_cpu had nothing more */
	size_t lead;		/* words of untimed records ahead of head */
	size_t head;		/* words of the timed head record, 0: none */
};

struct kernel_merge {
	unsigned int ncpus;
	size_t chunk_bytes;
	uint64_t malformed;
	struct cpu_stream cpu[];
};

struct merge_run {
	struct kernel_merge *m;
	uint64_t horizon;
	kernel_read_cpu_fn read_cpu;
	void *read_ctx;
	kernel_emit_fn emit;
	void *emit_ctx;
};

struct kernel_merge *kernel_merge_new(unsigned int ncpus, size_t chunk_bytes)
{
	struct kernel_merge *m;
	unsigned int i;

	m = calloc(1, sizeof(*m) + ncpus * sizeof(m->cpu[0]));
	if (!m)
		return NULL;
	m->ncpus = ncpus;
	m->chunk_bytes = chunk_bytes & ~(size_t)(FXT_WORD_BYTES - 1);
	for (i = 0; i < ncpus; i++) {
		m->cpu[i].chunk = malloc(m->chunk_bytes);
		if (!m->cpu[i].chunk) {
			kernel_merge_free(m);
			return NULL;
		}
	}
	return m;
}

void kernel_merge_free(struct kernel_merge *m)
{
	unsigned int i;

	if (!m)
		return;
	for (i = 0; i < m->ncpus; i++)
		free(m->cpu[i].chunk);
	free(m);
}

uint64_t kernel_merge_malformed(const struct kernel_merge *m)
{
	return m->malformed;
}

/* The timestamp of the record of words words at rec; false: none. */
static bool record_ts(const uint64_t *rec, size_t words, uint64_t *ts)
{
	size_t at = kernel_record_ts_word(rec, words);

	if (!at)
		return false;
	*ts = rec[at];
	return true;
}

/*
 * Words of the record off words past the head, 0 if the stream has none
 * yet. A refill keeps the words from the head on, so untimed records
 * looked past stay in the chunk.
 */
static ssize_t record_at(struct merge_run *r, unsigned int cpu, size_t off)
{
	struct cpu_stream *s = &r->m->cpu[cpu];
	const uint64_t *rec;
	size_t size, cap;
	ssize_t n;

	while (s->pos + off == s->words) {
		if (s->empty || !s->budget)
			return 0;
		memmove(s->chunk, s->chunk + s->pos, off * FXT_WORD_BYTES);
		s->pos = 0;
		s->words = off;
		cap = r->m->chunk_bytes - off * FXT_WORD_BYTES;
		if (cap > s->budget)
			cap = (size_t)s->budget;
		n = r->read_cpu(r->read_ctx, cpu, s->chunk + off, cap);
		if (n < 0)
			return n;
		s->budget -= (uint64_t)n < s->budget ? (uint64_t)n : s->budget;
		s->empty = n == 0;
		s->words += (size_t)n / FXT_WORD_BYTES;
	}
	rec = s->chunk + s->pos + off;
	size = fxt_record_words(*rec);
	if (!size || size > s->words - s->pos - off ||
	    (size < 2 && kernel_record_ts_word(rec, size))) {
		/* Not a record boundary: nothing after it can be trusted. */
		r->m->malformed++;
		s->words = s->pos + off;
		return record_at(r, cpu, off);
	}
	return (ssize_t)size;
}

/* Emits the untimed records ahead of a CPU's head; 0 or -errno. */
static int emit_lead(struct merge_run *r, struct cpu_stream *s)
{
	const uint64_t *rec;
	size_t words;
	int err;

	while (s->lead) {
		rec = s->chunk + s->pos;
		words = fxt_record_words(*rec);
		err = r->emit(r->emit_ctx, rec, words);
		if (err)
			return err;
		s->pos += words;
		s->lead -= words;
	}
	return 0;
}

/*
 * Finds a CPU's next timed record, looking past the untimed ones ahead
 * of it (kernel objects: a thread's new name), which go out with it: a
 * name written after a record of another CPU then never precedes it.
 * Returns the timed record's words, 0 if there is none by the horizon,
 * or -errno. Untimed records filling half the chunk go out at once.
 */
static ssize_t settle_head(struct merge_run *r, unsigned int cpu)
{
	struct cpu_stream *s = &r->m->cpu[cpu];
	ssize_t words;
	uint64_t ts;
	int err;

	s->lead = 0;
	for (;;) {
		words = record_at(r, cpu, s->lead);
		if (words <= 0)
			return words;
		/* Later than the horizon: kept at the head for the next run. */
		if (record_ts(s->chunk + s->pos + s->lead, (size_t)words, &ts))
			return ts <= r->horizon ? words : 0;
		s->lead += (size_t)words;
		if (s->lead * FXT_WORD_BYTES > r->m->chunk_bytes / 2) {
			err = emit_lead(r, s);
			if (err)
				return err;
		}
	}
}

/* The CPU whose head record is oldest, or ncpus when all are drained. */
static unsigned int oldest_head(const struct kernel_merge *m)
{
	const struct cpu_stream *s;
	unsigned int i, best = m->ncpus;
	uint64_t ts, best_ts = 0;

	for (i = 0; i < m->ncpus; i++) {
		s = &m->cpu[i];
		if (!s->head ||
		    !record_ts(s->chunk + s->pos + s->lead, s->head, &ts))
			continue;
		if (best == m->ncpus || ts < best_ts) {
			best = i;
			best_ts = ts;
		}
	}
	return best;
}

/*
 * Records kept from the last run move to the chunk's start and the rest
 * of the chunk is filled. Every run reads every CPU once at least: a
 * backend may rearm its event fd there.
 */
static int top_up(struct merge_run *r, unsigned int cpu, uint64_t budget)
{
	struct cpu_stream *s = &r->m->cpu[cpu];
	size_t kept = s->words - s->pos;
	ssize_t n;

	memmove(s->chunk, s->chunk + s->pos, kept * FXT_WORD_BYTES);
	s->words = kept;
	s->pos = 0;
	s->empty = false;
	s->budget = budget;
	if (!kept)
		return 0;
	n = r->read_cpu(r->read_ctx, cpu, s->chunk + kept,
			r->m->chunk_bytes - kept * FXT_WORD_BYTES);
	if (n < 0)
		return (int)n;
	s->words += (size_t)n / FXT_WORD_BYTES;
	return 0;
}

static int refresh_head(struct merge_run *r, unsigned int cpu)
{
	ssize_t words = settle_head(r, cpu);

	if (words < 0)
		return (int)words;
	r->m->cpu[cpu].head = (size_t)words;
	return 0;
}

/*
 * Untimed records with no timed record after them yet wait for one in
 * the next run, but not past the last: a run with no horizon emits them
 * after every timed record.
 */
static int emit_tails(struct merge_run *r)
{
	unsigned int i;
	int err;

	for (i = 0; i < r->m->ncpus; i++) {
		err = emit_lead(r, &r->m->cpu[i]);
		if (err)
			return err;
	}
	return 0;
}

int kernel_merge_run(struct kernel_merge *m, kernel_read_cpu_fn read_cpu,
		     void *read_ctx, kernel_emit_fn emit, void *emit_ctx,
		     uint64_t budget, uint64_t horizon)
{
	struct merge_run r = { m, horizon, read_cpu, read_ctx, emit,
			       emit_ctx };
	struct cpu_stream *s;
	unsigned int i;
	int err;

	for (i = 0; i < m->ncpus; i++) {
		err = top_up(&r, i, budget);
		if (!err)
			err = refresh_head(&r, i);
		if (err)
			return err;
	}
	while ((i = oldest_head(m)) < m->ncpus) {
		s = &m->cpu[i];
		err = emit_lead(&r, s);
		if (!err)
			err = emit(emit_ctx, s->chunk + s->pos, s->head);
		if (err)
			return err;
		s->pos += s->head;
		err = refresh_head(&r, i);
		if (err)
			return err;
	}
	return horizon == UINT64_MAX ? emit_tails(&r) : 0;
}
