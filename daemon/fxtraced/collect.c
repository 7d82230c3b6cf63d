// SPDX-License-Identifier: GPL-2.0-only
/*
 * A provider's buffer into the archive: its section header, a buffer
 * overflow event if it dropped records, then its records, durable area
 * first, then the rolling halves oldest first. The buffer is untrusted:
 * each area is copied, then walked record by record (record_walk.c), and
 * the bytes move in runs of whole records, not one by one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "collect.h"
#include "provider.h"

/* Kept bytes handed to the writer at a time while the stop collects. */
#define COLLECT_HAND_OVER_BYTES (8u * 1024u * 1024u)

/*
 * A visit is whole or absent: a write that fails cuts the archive back to
 * where the visit began and forgets what it counted, so the counts are
 * what the archive holds and a later visit writes it all again. (The
 * stop's visits: from their last hand-over on, see struct kept.)
 */
struct visit_undo {
	uint64_t mark;
	bool visited;
	uint64_t durable_saved, drops_reported;
	bool recovered_reported;
	struct record_walk_stats walk;
};

static struct visit_undo visit_undo_save(const struct provider *p,
					 const struct archive *a)
{
	return (struct visit_undo){
		.mark = archive_bytes(a),
		.visited = p->visited,
		.durable_saved = p->durable_saved,
		.drops_reported = p->drops_reported,
		.recovered_reported = p->recovered_reported,
		.walk = p->walk,
	};
}

/*
 * The runs a walk keeps, gathered in place: the area was copied into the
 * archive's open chunk, and the runs move down over what was left out.
 * They come in order, each at or after the end of the last, so the moves
 * never overwrite what is still to be read; the walk itself is done by
 * then (runs are handed on once the next record is decoded).
 */
struct kept {
	unsigned char *room;
	size_t len;
	/*
	 * Once the stop collects every buffer (no later visit follows), the
	 * kept bytes go to the writer every COLLECT_HAND_OVER_BYTES, so that
	 * the disk is written while the rest is validated; the visit's undo
	 * then starts at what was handed over. NULL: the visit is one chunk
	 * (a save's half is written once, whole).
	 */
	struct visit_undo *undo;
	struct provider *p;
	struct archive *a;
	size_t handed;
};

static int hand_over(struct kept *k)
{
	int r;

	archive_wrote(k->a, k->len - k->handed);
	k->handed = k->len;
	r = archive_hand_over(k->a, k->p->id,
			      k->p->walk.records - k->undo->walk.records);
	if (r < 0)
		return r;
	*k->undo = visit_undo_save(k->p, k->a);
	return 0;
}

static int keep_run(void *ctx, const void *data, size_t len)
{
	struct kept *k = ctx;

	if ((const unsigned char *)data != k->room + k->len)
		memmove(k->room + k->len, data, len);
	k->len += len;
	if (k->undo && k->len - k->handed >= COLLECT_HAND_OVER_BYTES)
		return hand_over(k);
	return 0;
}

/*
 * One area into the archive: copied once, straight into the chunk the
 * writer will write, validated there (the copy is private: the provider
 * cannot change it after the walk), and the kept runs closed up.
 */
static int walk_area(struct provider *p, struct archive *a,
		     enum provider_area area, bool up_to_end, size_t from,
		     size_t *end, struct visit_undo *u)
{
	struct provider_area_view v;
	struct kept k = {
		.undo = archive_is_unbound(a) ? u : NULL,
		.p = p,
		.a = a,
	};
	size_t len, walked = 0;
	void *room;
	int r;

	if (end)
		*end = from;
	r = provider_buffer_view(&p->buffer, area, up_to_end, from, &v);
	if (r < 0 || !v.size)
		return r;
	r = archive_reserve(a, v.size, &room);
	if (r < 0)
		return r;
	k.room = room;
	len = provider_area_copy(&v, room);
	/* A rolling half is walked whole: chunks never resume mid-way. */
	r = record_walk_chunks(room, len, area == PROVIDER_AREA_DURABLE ?
						  0 : p->buffer.chunk_size,
			       &p->walk, &walked, keep_run, &k);
	if (r < 0)
		return r;
	archive_wrote(a, k.len - k.handed);
	if (end)
		*end = from + walked;
	return 0;
}

/* Section header, drops, and the durable records not written yet. */
static int begin_visit(struct provider *p, struct archive *a)
{
	struct provider_buffer_state st;
	size_t end = p->durable_saved;
	int r;

	r = archive_begin_section(a, p->id, p->name, &p->visited, true);
	if (r < 0)
		return r;
	provider_buffer_state(&p->buffer, &st);
	(void)provider_check_drops(p, &st);
	if (st.records_dropped > p->drops_reported) {
		r = archive_write_provider_event(a, p->id,
						 FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
		if (r < 0)
			return r;
		p->drops_reported = st.records_dropped;
	}
	if (p->recovered && !p->recovered_reported) {
		r = archive_write_provider_event(a, p->id,
						 FXT_PROVIDER_EVENT_RECOVERED);
		if (r < 0)
			return r;
		p->recovered_reported = true;
	}
	/*
	 * The durable area only grows during a trace and its end mark is
	 * published at stop: read it by committed headers, resuming where
	 * the last visit ended.
	 */
	r = walk_area(p, a, PROVIDER_AREA_DURABLE, false, p->durable_saved,
		      &end, NULL);
	p->durable_saved = end;
	return r;
}

static bool half_saved(const struct provider *p,
		       const struct provider_buffer_state *st, unsigned int h)
{
	return p->saved_generation[h] == st->rolling_generation[h] + 1;
}

static int visit_undo(struct provider *p, struct archive *a,
		      const struct visit_undo *u, int error)
{
	(void)archive_cut_back(a, u->mark);
	p->visited = u->visited;
	p->durable_saved = u->durable_saved;
	p->drops_reported = u->drops_reported;
	p->recovered_reported = u->recovered_reported;
	p->walk = u->walk;
	return error;
}

static int collect_visit(struct provider *p, struct archive *a,
			 struct visit_undo *u)
{
	struct provider_buffer_state st;
	bool up_to_end = p->fd >= 0 && p->stopped;
	unsigned int first = 0, i;
	int r;

	r = begin_visit(p, a);
	if (r < 0)
		return r;
	provider_buffer_state(&p->buffer, &st);
	if (p->buffer.mode == FXT_BUFFERING_ONESHOT)
		return walk_area(p, a, PROVIDER_AREA_ROLLING0, up_to_end, 0,
				 NULL, u);
	if (st.rolling_generation[1] < st.rolling_generation[0])
		first = 1;
	for (i = 0; i < 2; i++) {
		unsigned int h = (first + i) % 2;

		if (half_saved(p, &st, h))
			continue;
		r = walk_area(p, a, PROVIDER_AREA_ROLLING0 + h, up_to_end, 0,
			      NULL, u);
		if (r < 0)
			return r;
	}
	return 0;
}

/* A whole visit goes to the writer as one chunk. */
static int visit_commit(struct provider *p, struct archive *a,
			const struct visit_undo *u)
{
	return archive_commit(a, p->id, p->walk.records - u->walk.records);
}

int collect_provider(struct provider *p, struct archive *a)
{
	struct visit_undo u = visit_undo_save(p, a);
	int r = collect_visit(p, a, &u);

	return r < 0 ? visit_undo(p, a, &u, r) : visit_commit(p, a, &u);
}

int collect_save(struct provider *p, struct archive *a, unsigned int half)
{
	struct provider_buffer_state st;
	struct visit_undo u = visit_undo_save(p, a);
	int r;

	if (half > 1)
		return -EBADMSG;
	provider_buffer_state(&p->buffer, &st);
	/* A repeated SAVE of the same fill must not duplicate records. */
	if (half_saved(p, &st, half))
		return 0;
	r = begin_visit(p, a);
	if (r >= 0) {
		provider_buffer_state(&p->buffer, &st);
		r = walk_area(p, a, PROVIDER_AREA_ROLLING0 + half, true, 0,
			      NULL, NULL);
	}
	if (r < 0)
		return visit_undo(p, a, &u, r);
	p->saved_generation[half] = st.rolling_generation[half] + 1;
	return visit_commit(p, a, &u);
}
