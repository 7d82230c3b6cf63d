// SPDX-License-Identifier: GPL-2.0-only
/* Bounded process/thread name table: see name_cache.h. */
#include <stdlib.h>
#include <string.h>

#include "name_cache.h"

/* 16384 sets x 4 ways x 88 bytes: 5.5 MiB, ample for 65536 threads. */
#define NAME_CACHE_SET_BITS 14
#define NAME_CACHE_SETS (1u << NAME_CACHE_SET_BITS)
#define NAME_CACHE_WAYS 4u

struct name_set {
	struct name_entry way[NAME_CACHE_WAYS];
};

struct name_cache {
	struct name_set *sets;
	uint8_t *next_victim;	/* per set, round robin */
};

struct name_cache *name_cache_new(void)
{
	struct name_cache *nc = calloc(1, sizeof(*nc));

	if (!nc)
		return NULL;
	nc->sets = calloc(NAME_CACHE_SETS, sizeof(*nc->sets));
	nc->next_victim = calloc(NAME_CACHE_SETS, 1);
	if (!nc->sets || !nc->next_victim) {
		name_cache_free(nc);
		return NULL;
	}
	return nc;
}

void name_cache_free(struct name_cache *nc)
{
	if (!nc)
		return;
	free(nc->sets);
	free(nc->next_victim);
	free(nc);
}

size_t name_cache_bytes(const struct name_cache *nc)
{
	return NAME_CACHE_SETS * (sizeof(struct name_set) + 1);
}

static uint32_t set_of(enum name_kind kind, uint64_t koid)
{
	uint64_t h = (koid ^ ((uint64_t)kind << 62)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> (64 - NAME_CACHE_SET_BITS));
}

static uint64_t hash_name(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h ^ len;
}

static struct name_entry *lookup(const struct name_cache *nc,
				 enum name_kind kind, uint64_t koid)
{
	struct name_set *set = &nc->sets[set_of(kind, koid)];
	unsigned int i;

	for (i = 0; i < NAME_CACHE_WAYS; i++)
		if (set->way[i].kind == kind && set->way[i].koid == koid)
			return &set->way[i];
	return NULL;
}

const struct name_entry *name_cache_find(const struct name_cache *nc,
					 enum name_kind kind, uint64_t koid)
{
	return lookup(nc, kind, koid);
}

static struct name_entry *claim(struct name_cache *nc, enum name_kind kind,
				uint64_t koid)
{
	uint32_t s = set_of(kind, koid);
	struct name_set *set = &nc->sets[s];
	struct name_entry *e = NULL;
	unsigned int i;

	for (i = 0; i < NAME_CACHE_WAYS && !e; i++)
		if (!set->way[i].kind)
			e = &set->way[i];
	if (!e) {
		e = &set->way[nc->next_victim[s]];
		nc->next_victim[s] = (nc->next_victim[s] + 1) % NAME_CACHE_WAYS;
	}
	memset(e, 0, sizeof(*e));
	e->kind = (uint8_t)kind;
	e->koid = koid;
	return e;
}

/* Cut at NAME_CACHE_NAME_MAX bytes without splitting a UTF-8 sequence. */
static size_t cut_name(const char *s, size_t len)
{
	if (len <= NAME_CACHE_NAME_MAX)
		return len;
	len = NAME_CACHE_NAME_MAX;
	while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

const struct name_entry *name_cache_set(struct name_cache *nc,
					enum name_kind kind, uint64_t koid,
					uint64_t pid, const char *name,
					size_t len)
{
	struct name_entry *e = lookup(nc, kind, koid);
	uint64_t h = hash_name(name, len);

	if (e && e->name_hash == h && (!pid || e->pid == pid))
		return NULL;
	if (!e)
		e = claim(nc, kind, koid);
	if (pid)
		e->pid = pid;
	e->name_hash = h;
	e->name_len = (uint8_t)cut_name(name, len);
	memcpy(e->name, name, e->name_len);
	return e;
}

const struct name_entry *name_cache_set_pid(struct name_cache *nc,
					    uint64_t tid, uint64_t pid)
{
	struct name_entry *e = lookup(nc, NAME_THREAD, tid);

	if (!e || !pid || e->pid == pid)
		return NULL;
	e->pid = pid;
	return e;
}

uint64_t name_cache_thread_object_pid(const struct fxt_record *rec)
{
	const struct fxt_arg *a = fxt_record_arg(rec, "process", 7);

	if (!a)
		return 0;
	switch (a->type) {
	case FXT_ARG_KOID:
		return a->value.koid;
	case FXT_ARG_UINT64:
		return a->value.u64;
	case FXT_ARG_INT64:
		return (uint64_t)a->value.i64;
	case FXT_ARG_UINT32:
		return a->value.u32;
	default:
		return 0;
	}
}
