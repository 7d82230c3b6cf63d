/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A JIT's names for its code in perf's jitdump format (jit-PID.dump,
 * tools/perf/Documentation/jitdump-specification.txt in Linux), written
 * by Node.js (--perf-prof), Python 3.12 (-X perf_jit), .NET and Java
 * agents: a header, then records that each say their size. A load names
 * code_addr..code_addr + code_size; a move takes a loaded range (by its
 * code_index) elsewhere; debug, unwinding and close records, and kinds
 * not known yet, are skipped by their size. The ranges go into a perf
 * map (perf_map.h), bounded, escaped and looked up as its lines are.
 *
 * The file is another user's: a record shorter than its prefix or its
 * fields, larger than JITDUMP_RECORD_MAX, a load whose name has no NUL
 * inside the record, a move of no code loaded is counted as malformed;
 * one that cannot be stepped over (its size under its prefix, or too
 * large) ends the reading. A last record past the end is the JIT writing
 * it (its writes are buffered): the whole ones before it are kept, the
 * tail counted, and the file read again once it has grown.
 */
#ifndef FXT_SYMBOLS_JITDUMP_H
#define FXT_SYMBOLS_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

#include "perf_map.h"

#define JITDUMP_MAGIC 0x4a695444u /* "JiTD" in the writer's byte order */
#define JITDUMP_VERSION 1u
#define JITDUMP_HEADER_SIZE 40u
#define JITDUMP_PREFIX_SIZE 16u
/* Records of one file read at most (the perf map's entries have theirs). */
#define JITDUMP_RECORDS_MAX (4u << 20)
/*
 * A larger record (its code bytes included) is malformed, not a tail
 * still being written: a JIT's functions are far smaller.
 */
#define JITDUMP_RECORD_MAX (16u << 20)

struct jitdump_stats {
	uint64_t records; /* read whole, of every kind */
	uint64_t malformed; /* records, as said above */
	uint64_t truncated; /* reads that ended in a record being written */
	uint64_t refused; /* files: magic, byte order, version, header size */
	uint64_t over_records; /* files cut at JITDUMP_RECORDS_MAX */
};

/*
 * The records of buf (len bytes, from the file's start) added to m,
 * counted into *st (added to). -EBADMSG: not a jitdump (its magic, its
 * header's size under JITDUMP_HEADER_SIZE or past len); -EPROTO: one of
 * the other byte order; -EPROTONOSUPPORT: a later version; each counted
 * as refused, nothing added. Under a header's bytes: 0, the tail
 * counted. Call perf_map_finish() after it, before a lookup.
 */
int jitdump_parse(struct perf_map *m, const void *buf, size_t len,
		  struct jitdump_stats *st);

/*
 * The file open at fd read from its start (PERF_MAP_BYTES_MAX at most,
 * perf_map_read_file()), parsed and finished: a file refused is counted
 * and leaves m empty (0). -errno of the read, -ENOMEM.
 */
int jitdump_read_fd(struct perf_map *m, int fd, struct jitdump_stats *st);

#endif /* FXT_SYMBOLS_JITDUMP_H */
