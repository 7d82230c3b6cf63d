// SPDX-License-Identifier: GPL-2.0-only
/*
 * A JIT's jitdump (jitdump.h): fields read at their offsets (unaligned.h:
 * the file is not aligned for us, nor trusted); each load's perf map
 * entry indexed by its code_index, so that a move finds the code it
 * moves in one probe however many loads came before.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "hash_index.h"
#include "jitdump.h"
#include "unaligned.h"

enum {
	JIT_CODE_LOAD = 0,
	JIT_CODE_MOVE = 1,
};

/* Offsets in a record, its prefix included (the specification's order). */
#define LOAD_CODE_ADDR 32
#define LOAD_CODE_SIZE 40
#define LOAD_CODE_INDEX 48
#define LOAD_NAME 56
#define MOVE_OLD_ADDR 32
#define MOVE_NEW_ADDR 40
#define MOVE_CODE_SIZE 48
#define MOVE_CODE_INDEX 56
#define MOVE_SIZE 64

struct code_ref {
	uint64_t code_index;
	uint32_t entry; /* in the perf map */
};

struct jitdump {
	struct perf_map *m;
	struct jitdump_stats *st;
	struct code_ref *code; /* one per code_index loaded */
	uint32_t ncode, cap;
	struct hash_index index; /* of code, by code_index */
};

static uint64_t code_hash(const void *ctx, uint32_t i)
{
	const struct jitdump *d = ctx;

	return hash_u64(d->code[i].code_index);
}

/* The slot of code_index's reference, or the free slot where it goes. */
static uint32_t code_slot(const struct jitdump *d, uint64_t code_index)
{
	uint32_t i, e;

	for (i = hash_index_first(&d->index, hash_u64(code_index));
	     (e = d->index.slots[i]); i = hash_index_next(&d->index, i))
		if (d->code[e - 1].code_index == code_index)
			break;
	return i;
}

/* code_index now names perf map entry `entry` (a later load's wins). */
static int code_put(struct jitdump *d, uint64_t code_index, uint32_t entry)
{
	uint32_t i;
	int r;

	if (d->ncode == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 256;
		struct code_ref *c = realloc(d->code, cap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		d->code = c;
		d->cap = cap;
	}
	r = hash_index_reserve(&d->index, d->ncode + 1, 256, code_hash, d);
	if (r < 0)
		return r;
	i = code_slot(d, code_index);
	if (d->index.slots[i]) {
		d->code[d->index.slots[i] - 1].entry = entry;
		return 0;
	}
	d->code[d->ncode] = (struct code_ref){ code_index, entry };
	d->index.slots[i] = ++d->ncode;
	return 0;
}

static int code_load(struct jitdump *d, const uint8_t *r, uint32_t size)
{
	const char *name = (const char *)r + LOAD_NAME;
	size_t len;
	int entry;

	if (size < LOAD_NAME) {
		d->st->malformed++;
		return 0;
	}
	len = strnlen(name, size - LOAD_NAME);
	if (len == size - LOAD_NAME) {
		d->st->malformed++; /* no NUL inside the record */
		return 0;
	}
	/* An empty function (allowed) has no code to name. */
	if (!u64_at(r, LOAD_CODE_SIZE))
		return 0;
	entry = perf_map_add(d->m, u64_at(r, LOAD_CODE_ADDR),
			     u64_at(r, LOAD_CODE_SIZE), name, len);
	if (entry < 0) /* counted by the perf map, but memory */
		return entry == -ENOMEM ? entry : 0;
	return code_put(d, u64_at(r, LOAD_CODE_INDEX), (uint32_t)entry);
}

static void code_move(struct jitdump *d, const uint8_t *r, uint32_t size)
{
	uint32_t e;

	if (size < MOVE_SIZE || !d->ncode) {
		d->st->malformed++;
		return;
	}
	e = d->index.slots[code_slot(d, u64_at(r, MOVE_CODE_INDEX))];
	/* No such code, or not where the move says it was. */
	if (!e ||
	    perf_map_move(d->m, d->code[e - 1].entry, u64_at(r, MOVE_OLD_ADDR),
			  u64_at(r, MOVE_NEW_ADDR),
			  u64_at(r, MOVE_CODE_SIZE)) < 0)
		d->st->malformed++;
}

/* The header's size, or -errno when the file is refused. */
static int header_check(const uint8_t *buf, size_t len)
{
	uint32_t magic = u32_at(buf, 0), size = u32_at(buf, 8);

	if (magic == bswap_32(JITDUMP_MAGIC))
		return -EPROTO;
	if (magic != JITDUMP_MAGIC)
		return -EBADMSG;
	if (u32_at(buf, 4) > JITDUMP_VERSION)
		return -EPROTONOSUPPORT;
	if (size < JITDUMP_HEADER_SIZE || size > len)
		return -EBADMSG;
	return (int)size;
}

/* The records from off on: 0 or -ENOMEM. cut: len is not the file's end. */
static int records(struct jitdump *d, const uint8_t *buf, size_t len,
		   size_t off, bool cut)
{
	uint32_t id, size;
	uint64_t n = 0;
	int r = 0;

	for (; !r && off < len; off += size) {
		if (len - off < JITDUMP_PREFIX_SIZE) {
			d->st->truncated += !cut;
			break;
		}
		id = u32_at(buf, off);
		size = u32_at(buf, off + 4);
		/* Not to be stepped over: size 0 would read it forever. */
		if (size < JITDUMP_PREFIX_SIZE || size > JITDUMP_RECORD_MAX) {
			d->st->malformed++;
			break;
		}
		if (size > len - off) {
			d->st->truncated += !cut;
			break;
		}
		if (n++ == JITDUMP_RECORDS_MAX) {
			d->st->over_records++;
			break;
		}
		d->st->records++;
		if (id == JIT_CODE_LOAD)
			r = code_load(d, buf + off, size);
		else if (id == JIT_CODE_MOVE)
			code_move(d, buf + off, size);
	}
	return r;
}

static int parse(struct perf_map *m, const uint8_t *buf, size_t len, bool cut,
		 struct jitdump_stats *st)
{
	struct jitdump d = { .m = m, .st = st };
	int r;

	if (len < JITDUMP_HEADER_SIZE) {
		st->truncated++; /* just made: its header comes */
		return 0;
	}
	r = header_check(buf, len);
	if (r < 0) {
		st->refused++;
		return r;
	}
	r = records(&d, buf, len, (size_t)r, cut);
	hash_index_free(&d.index);
	free(d.code);
	return r;
}

int jitdump_parse(struct perf_map *m, const void *buf, size_t len,
		  struct jitdump_stats *st)
{
	return parse(m, buf, len, false, st);
}

int jitdump_read_fd(struct perf_map *m, int fd, struct jitdump_stats *st)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = perf_map_read_file(m, fd, &buf, &len);

	if (r < 0)
		return r;
	r = parse(m, (const uint8_t *)buf, len, r == 1, st);
	/* A file refused (counted) names nothing, until it changes. */
	if (r == -ENOMEM)
		return r;
	return perf_map_finish(m);
}
