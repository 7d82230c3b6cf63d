// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "hash_index.h"
#include "mmap_store.h"

#define FOREVER UINT64_MAX

struct mfile {
	char *path;
	uint8_t build_id[MMAP_STORE_BUILD_ID_MAX];
	uint8_t build_id_len;
	struct mmap_open_memo memo;
};

struct mentry {
	uint64_t start, end, pgoff;
	uint64_t from, until;
	uint32_t file; /* index in files */
	int32_t opened; /* mmap_hit's: the file as its owner opened it */
};

/* A process's mappings, sorted by start address, history included. */
struct mproc {
	uint32_t pid;
	uint32_t nmaps, cap;
	uint32_t last_hit;
	uint64_t max_len; /* of its mappings: how far back a lookup looks */
	uint64_t exited; /* 0: not seen exiting */
	struct mentry *maps;
};

struct mmap_store {
	struct mmap_store_limits limits;
	struct mfile *files;
	size_t nfiles, files_cap, path_bytes;
	struct hash_index file_index;
	struct mproc *procs;
	size_t nprocs, procs_cap;
	struct hash_index proc_index;
	size_t mappings;
	uint64_t dropped;
};

DEFINE_TRIVIAL_CLEANUP_FUNC(struct mmap_store *, mmap_store_free);

static uint64_t hash_pid(uint32_t pid)
{
	return hash_bytes(HASH_SEED, &pid, sizeof(pid));
}

static uint64_t hash_file(const char *path, size_t len, const uint8_t *id,
			  size_t id_len)
{
	return hash_bytes(hash_bytes(HASH_SEED, path, len), id, id_len);
}

static uint64_t rehash_file(const void *ctx, uint32_t i)
{
	const struct mfile *f = &((const struct mmap_store *)ctx)->files[i];

	return hash_file(f->path, strlen(f->path), f->build_id, f->build_id_len);
}

static uint64_t rehash_proc(const void *ctx, uint32_t i)
{
	return hash_pid(((const struct mmap_store *)ctx)->procs[i].pid);
}

/*
 * After the count-th element: t keeps a free slot more than count, so
 * that a lookup always ends (1024 slots from the start). -E2BIG, -ENOMEM.
 */
static int table_fit(struct mmap_store *s, struct hash_index *t, size_t count,
		     hash_index_hash_fn rehash)
{
	return hash_index_reserve(t, (uint64_t)count + 1, 1024, rehash, s);
}

int mmap_store_new(const struct mmap_store_limits *limits,
		   struct mmap_store **ret)
{
	_cleanup_(mmap_store_freep) struct mmap_store *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->limits = *limits;
	if (table_fit(s, &s->file_index, 0, rehash_file) < 0 ||
	    table_fit(s, &s->proc_index, 0, rehash_proc) < 0)
		return -ENOMEM;
	*ret = TAKE_PTR(s);
	return 0;
}

void mmap_store_free(struct mmap_store *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	for (i = 0; i < s->nprocs; i++)
		free(s->procs[i].maps);
	free(s->files);
	free(s->procs);
	hash_index_free(&s->file_index);
	hash_index_free(&s->proc_index);
	free(s);
}

/* The index of (path, build id), interned when new. */
static int file_intern(struct mmap_store *s, const char *path, size_t len,
		       const uint8_t *id, size_t id_len, uint32_t *ret)
{
	struct hash_index *t = &s->file_index;
	uint32_t h = hash_index_first(t, hash_file(path, len, id, id_len));
	struct mfile *f;

	for (; t->slots[h]; h = hash_index_next(t, h)) {
		f = &s->files[t->slots[h] - 1];
		if (f->build_id_len == id_len &&
		    (!id_len || !memcmp(f->build_id, id, id_len)) &&
		    !strncmp(f->path, path, len) && !f->path[len]) {
			*ret = t->slots[h] - 1;
			return 0;
		}
	}
	if (s->nfiles >= s->limits.files || s->path_bytes + len > s->limits.path_bytes)
		return -ENOSPC;
	if (s->nfiles == s->files_cap) {
		size_t cap = s->files_cap ? s->files_cap * 2 : 256;
		struct mfile *files = reallocarray(s->files, cap, sizeof(*files));

		if (!files)
			return -ENOMEM;
		s->files = files;
		s->files_cap = cap;
	}
	f = &s->files[s->nfiles];
	*f = (struct mfile){ .path = strndup(path, len), .build_id_len = (uint8_t)id_len };
	if (!f->path)
		return -ENOMEM;
	if (id_len)
		memcpy(f->build_id, id, id_len);
	s->path_bytes += len;
	s->nfiles++;
	t->slots[h] = (uint32_t)s->nfiles;
	*ret = (uint32_t)(s->nfiles - 1);
	return table_fit(s, t, s->nfiles, rehash_file);
}

static struct mproc *proc_find(struct mmap_store *s, uint32_t pid)
{
	const struct hash_index *t = &s->proc_index;
	uint32_t h = hash_index_first(t, hash_pid(pid));

	for (; t->slots[h]; h = hash_index_next(t, h))
		if (s->procs[t->slots[h] - 1].pid == pid)
			return &s->procs[t->slots[h] - 1];
	return NULL;
}

/* The process pid, added when new. Its pointer is valid until the next
 * proc_get().
 */
static int proc_get(struct mmap_store *s, uint32_t pid, struct mproc **ret)
{
	struct hash_index *t = &s->proc_index;
	uint32_t h;
	int r;

	*ret = proc_find(s, pid);
	if (*ret)
		return 0;
	/* A process costs little; each of its mappings counts. */
	if (s->nprocs >= s->limits.mappings)
		return -E2BIG;
	if (s->nprocs == s->procs_cap) {
		size_t cap = s->procs_cap ? s->procs_cap * 2 : 256;
		struct mproc *procs = reallocarray(s->procs, cap, sizeof(*procs));

		if (!procs)
			return -ENOMEM;
		s->procs = procs;
		s->procs_cap = cap;
	}
	h = hash_index_free_slot(t, hash_pid(pid));
	s->procs[s->nprocs] = (struct mproc){ .pid = pid };
	s->nprocs++;
	t->slots[h] = (uint32_t)s->nprocs;
	r = table_fit(s, t, s->nprocs, rehash_proc);
	if (r < 0)
		return r;
	*ret = &s->procs[s->nprocs - 1];
	return 0;
}

/* Of n and an entry overlapping it in address, the earlier ends when the
 * later starts.
 */
static void order_overlap(struct mentry *n, struct mentry *e)
{
	if (n->start >= e->end || e->start >= n->end)
		return;
	if (e->from <= n->from) {
		if (e->until > n->from)
			e->until = n->from;
	} else if (n->until > e->from) {
		n->until = e->from;
	}
}

/* The index of the first mapping of p starting after addr. */
static uint32_t first_after(const struct mproc *p, uint64_t addr)
{
	uint32_t lo = 0, hi = p->nmaps;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int proc_insert(struct mmap_store *s, struct mproc *p, struct mentry n)
{
	uint32_t i;

	if (s->mappings >= s->limits.mappings)
		return -E2BIG;
	if (p->nmaps == p->cap) {
		uint32_t cap = p->cap ? p->cap * 2 : 16;
		struct mentry *maps = reallocarray(p->maps, cap, sizeof(*maps));

		if (!maps)
			return -ENOMEM;
		p->maps = maps;
		p->cap = cap;
	}
	for (i = 0; i < p->nmaps; i++)
		order_overlap(&n, &p->maps[i]);
	i = first_after(p, n.start);
	memmove(&p->maps[i + 1], &p->maps[i], (p->nmaps - i) * sizeof(*p->maps));
	p->maps[i] = n;
	p->nmaps++;
	if (n.end - n.start > p->max_len)
		p->max_len = n.end - n.start;
	s->mappings++;
	return 0;
}

static int count_drop(struct mmap_store *s, int r)
{
	s->dropped++;
	return r;
}

int mmap_store_add(struct mmap_store *s, uint32_t pid, uint64_t ts,
		   uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *path, size_t path_len,
		   const uint8_t *build_id, size_t build_id_len)
{
	struct mentry n = { .start = start, .end = start + len, .pgoff = pgoff,
			    .from = ts, .until = FOREVER };
	struct mproc *p;
	int r;

	if (!len || n.end < start || !path_len || path_len > MMAP_STORE_PATH_MAX ||
	    memchr(path, '\0', path_len) || build_id_len > MMAP_STORE_BUILD_ID_MAX)
		return count_drop(s, -EINVAL);
	if (s->mappings >= s->limits.mappings)
		return count_drop(s, -E2BIG);
	r = file_intern(s, path, path_len, build_id, build_id_len, &n.file);
	if (r < 0)
		return count_drop(s, r);
	r = proc_get(s, pid, &p);
	if (r < 0)
		return count_drop(s, r);
	r = proc_insert(s, p, n);
	return r < 0 ? count_drop(s, r) : 0;
}

void mmap_store_exec(struct mmap_store *s, uint32_t pid, uint64_t ts)
{
	struct mproc *p = proc_find(s, pid);
	uint32_t i;

	for (i = 0; p && i < p->nmaps; i++)
		if (p->maps[i].from < ts && p->maps[i].until > ts)
			p->maps[i].until = ts;
}

int mmap_store_fork(struct mmap_store *s, uint32_t parent, uint32_t child,
		    uint64_t ts)
{
	struct mproc *p, *c;
	uint32_t i;
	int r;

	if (parent == child)
		return 0;
	/* A reused pid: the older process's mappings end here. */
	mmap_store_exec(s, child, ts);
	r = proc_get(s, child, &c);
	if (r < 0)
		return count_drop(s, r);
	c->exited = 0;
	/* Found after proc_get(), which may move the processes. */
	p = proc_find(s, parent);
	for (i = 0; p && i < p->nmaps; i++) {
		struct mentry e = p->maps[i];

		if (e.from > ts || e.until <= ts)
			continue;
		/* The parent's later changes are not the child's. */
		e.from = ts;
		e.until = FOREVER;
		r = proc_insert(s, c, e);
		if (r < 0)
			return count_drop(s, r);
	}
	return 0;
}

void mmap_store_exit(struct mmap_store *s, uint32_t pid, uint64_t ts)
{
	struct mproc *p = proc_find(s, pid);

	if (p)
		p->exited = ts ? ts : 1;
}

static bool holds(const struct mentry *e, uint64_t pc, uint64_t ts)
{
	return pc >= e->start && pc < e->end && ts >= e->from && ts < e->until;
}

int mmap_store_find(struct mmap_store *s, uint32_t pid, uint64_t pc,
		    uint64_t ts, struct mmap_hit *hit)
{
	struct mproc *p = proc_find(s, pid);
	struct mentry *e = NULL;
	struct mfile *f;
	uint32_t i;

	if (!p)
		return -ENOENT;
	/* At most one mapping holds (pc, ts): the last one found is likely
	 * to again, the frames of a process coming in runs.
	 */
	if (p->last_hit < p->nmaps && holds(&p->maps[p->last_hit], pc, ts))
		e = &p->maps[p->last_hit];
	/* Else back from the last mapping starting at or below pc, as far
	 * as the longest mapping reaches.
	 */
	for (i = first_after(p, pc); !e && i > 0 && pc - p->maps[i - 1].start < p->max_len;
	     i--)
		if (holds(&p->maps[i - 1], pc, ts)) {
			e = &p->maps[i - 1];
			p->last_hit = i - 1;
		}
	if (!e)
		return -ENOENT;
	f = &s->files[e->file];
	*hit = (struct mmap_hit){
		.path = f->path,
		.build_id = f->build_id_len ? f->build_id : NULL,
		.build_id_len = f->build_id_len,
		.file_offset = pc - e->start + e->pgoff,
		.start = e->start, .end = e->end, .pgoff = e->pgoff,
		.file_id = e->file + 1,
		.opened = &e->opened,
		.memo = &f->memo,
	};
	return 0;
}

void mmap_store_count_drop(struct mmap_store *s)
{
	s->dropped++;
}

void mmap_store_stats(const struct mmap_store *s,
		      struct mmap_tracker_stats *stats)
{
	stats->mappings = s->mappings;
	stats->dropped = s->dropped;
}
