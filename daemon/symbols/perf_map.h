/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A JIT's names for its code: the perf convention's /tmp/perf-PID.map,
 * one "START SIZE name" line per function (START and SIZE in hex, an
 * optional 0x; the name to the end of the line), written by Node.js
 * (--perf-basic-prof), Python 3.12 (-X perf), .NET, LuaJIT and Java
 * agents. The file is another user's: what is read is bounded (bytes,
 * line length, entries), a malformed line is skipped and counted, and a
 * name keeps printable ASCII only, every other byte written as \xNN (the
 * archive's strings are then valid UTF-8 whatever the file holds).
 * A JIT's jitdump (jitdump.h) gives its entries through perf_map_add()
 * and perf_map_move(): bounded and escaped the same way, looked up the
 * same way.
 */
#ifndef FXT_SYMBOLS_PERF_MAP_H
#define FXT_SYMBOLS_PERF_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Bytes read of one file at most; past them, the rest is not read. */
#define PERF_MAP_BYTES_MAX (64u << 20)
/* Entries kept of one file at most; past them, lines are counted. */
#define PERF_MAP_ENTRIES_MAX (1u << 20)
/* A longer line (its newline included) is skipped whole. */
#define PERF_MAP_LINE_MAX 4096u

struct perf_map_stats {
	uint64_t entries; /* kept */
	uint64_t malformed; /* bad hex, size 0, past 2^64, no name, a NUL */
	uint64_t too_long; /* over PERF_MAP_LINE_MAX (a line, or a name) */
	uint64_t overlaps; /* entries dropped for a later one's range */
	uint64_t over_entries; /* past PERF_MAP_ENTRIES_MAX */
	uint64_t over_bytes; /* files cut at PERF_MAP_BYTES_MAX */
	uint64_t memory; /* bytes the entries kept hold, names included */
};

struct perf_map;

int perf_map_new(struct perf_map **ret);

/*
 * The lines of buf (len bytes) added. A last line without its newline
 * is left out (the JIT may be writing it). Call perf_map_finish() after
 * the last buffer, before a lookup.
 */
int perf_map_parse(struct perf_map *m, const char *buf, size_t len);

/*
 * One entry of start..start + size named name (len bytes, escaped), as a
 * line gives it, before perf_map_finish(). Its index (for
 * perf_map_move()); counted and refused: -EINVAL size 0 or past 2^64,
 * -E2BIG a name of PERF_MAP_LINE_MAX bytes or more, -ENOSPC past
 * PERF_MAP_ENTRIES_MAX; -ENOMEM.
 */
int perf_map_add(struct perf_map *m, uint64_t start, uint64_t size,
		 const char *name, size_t len);

/*
 * Entry idx, still at from, now at to..to + size (a JIT moved the code),
 * as if added last: before perf_map_finish(). -ENOENT: it is not at from;
 * -EINVAL: size 0 or past 2^64. Not counted: the caller knows why.
 */
int perf_map_move(struct perf_map *m, size_t idx, uint64_t from, uint64_t to,
		  uint64_t size);

/*
 * The file open at fd from its start, PERF_MAP_BYTES_MAX at most, into
 * *buf (the caller frees it), *len bytes: 1 when more was there (counted
 * as over_bytes), 0, or -errno. For perf_map_read_fd() and jitdumps.
 */
int perf_map_read_file(struct perf_map *m, int fd, char **buf, size_t *len);

/*
 * The file open at fd read from its start, PERF_MAP_BYTES_MAX at most,
 * parsed and finished. -errno.
 */
int perf_map_read_fd(struct perf_map *m, int fd);

/*
 * Sorted by address; where ranges overlap, the later line's entry stays
 * (a JIT reuses freed code memory for new code, and appends its name).
 */
int perf_map_finish(struct perf_map *m);

/* The name of the entry holding addr (valid until perf_map_free()); -ENOENT. */
int perf_map_lookup(const struct perf_map *m, uint64_t addr, const char **name);

void perf_map_stats(const struct perf_map *m, struct perf_map_stats *st);

void perf_map_free(struct perf_map *m);

#endif /* FXT_SYMBOLS_PERF_MAP_H */
