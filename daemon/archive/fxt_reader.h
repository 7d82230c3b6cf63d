/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Streaming FXT reader: decodes any FXT stream (archive, provider buffer,
 * kernel ring) record by record in bounded memory, keeping per-provider
 * state (tick rate, string table, thread table) as the spec requires; the
 * tables of all providers share one budget (max_table_bytes).
 *
 * Input is never trusted. Problems are reported through the diagnostic
 * callback with the byte offset; a malformed record is skipped where its
 * size is usable, a truncated tail ends reading at the last whole record.
 *
 * Beside it: the verdict on a provider's record without decoding it
 * (fxt_verdict.h), the UTF-8 checks the decoder applies (utf8.h).
 */
#ifndef FXT_READER_H
#define FXT_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>

#include <fxt/fxt.h>

struct fxt_reader;

/* A string as found in the input: not NUL-terminated, may be bad UTF-8. */
struct fxt_str {
	const char *data;
	uint32_t len;
};

/* Does s hold exactly the C string want? */
static inline bool fxt_str_is(struct fxt_str s, const char *want)
{
	return s.len == strlen(want) && !memcmp(s.data, want, s.len);
}

struct fxt_arg {
	enum fxt_arg_type type;
	struct fxt_str name;
	union {
		int32_t i32;
		uint32_t u32;
		int64_t i64;
		uint64_t u64;
		double f64;
		struct fxt_str str;
		uint64_t pointer;
		uint64_t koid;
		bool b;
	} value;
};

struct fxt_thread_id {
	uint64_t pid;
	uint64_t tid;
};

struct fxt_provider {
	uint32_t id;
	struct fxt_str name;	/* empty before any provider info record */
	uint64_t ticks_per_second; /* 1e9 until an initialization record */
};

/* The decoded record; every pointer is valid until the next call. */
struct fxt_record {
	uint64_t offset;	/* byte offset of the header in the input */
	uint64_t size_words;	/* including the header word */
	const uint64_t *words;	/* the raw record */
	enum fxt_record_type type;
	const struct fxt_provider *provider; /* the current provider section */
	unsigned int nargs;
	struct fxt_arg args[FXT_MAX_ARGS];

	union {
		struct {
			enum fxt_metadata_type type;
			uint32_t provider_id;
			struct fxt_str provider_name;	/* provider info */
			unsigned int event_id;		/* provider event */
			unsigned int trace_info_type;	/* trace info */
			uint32_t magic;			/* magic number */
		} metadata;
		struct {
			uint64_t ticks_per_second;
		} init;
		struct {
			uint16_t index;
			struct fxt_str value;
		} string;
		struct {
			uint8_t index;
			struct fxt_thread_id thread;
		} thread;
		struct {
			enum fxt_event_type type;
			uint64_t ts;
			struct fxt_thread_id thread;
			struct fxt_str category;
			struct fxt_str name;
			/*
			 * counter id, end ts (complete), async or flow
			 * correlation id; 0 for the other types
			 */
			uint64_t extra;
			/* instant events: the optional scope word */
			enum fxt_instant_scope scope;
		} event;
		struct {
			struct fxt_str name;
			unsigned int blob_type;
			const void *payload;
			uint32_t payload_len;
		} blob;
		struct {
			uint64_t pointer;
			uint64_t pid;
			struct fxt_str name;
		} userspace_object;
		struct {
			unsigned int obj_type;
			uint64_t koid;
			struct fxt_str name;
		} kernel_object;
		struct {
			enum fxt_sched_type type;
			unsigned int cpu;
			uint64_t ts;
			unsigned int out_state;		/* context switches */
			struct fxt_thread_id out_thread; /* pid 0 if unknown */
			struct fxt_thread_id in_thread;
			unsigned int out_prio, in_prio;	/* legacy only */
			struct fxt_thread_id woken;	/* thread wakeup */
		} sched;
		struct {
			uint64_t ts;
			struct fxt_thread_id thread;
			struct fxt_str message;
		} log;
		struct {
			unsigned int large_type;
			unsigned int format;
			struct fxt_str category;
			struct fxt_str name;
			bool has_metadata;
			uint64_t ts;
			struct fxt_thread_id thread;
			const void *payload;
			uint64_t payload_len;
		} large_blob;
	};
};

enum fxt_diag_kind {
	/* The record cannot be decoded; it was skipped (or reading ended). */
	FXT_DIAG_MALFORMED,
	/* Decodable, but the spec forbids it (reserved bits, bad UTF-8...). */
	FXT_DIAG_NONCONFORMING,
	/*
	 * A record, metadata, event, large record or argument type this
	 * reader does not know: skipped by its size, as the spec allows for
	 * types added later.
	 */
	FXT_DIAG_UNKNOWN,
	/*
	 * A limit that bounds the reader's memory was reached: what the
	 * record defines (a string or thread table entry) was dropped and
	 * counted; the record itself is handed out.
	 */
	FXT_DIAG_LIMIT,
};

typedef void (*fxt_diag_fn)(void *ctx, enum fxt_diag_kind kind,
			    uint64_t offset, const char *reason);

struct fxt_reader_stats {
	uint64_t records;		/* decoded and returned */
	uint64_t by_type[16];
	uint64_t malformed;		/* skipped or ending the read */
	uint64_t nonconforming;
	uint64_t unknown_skipped;	/* unknown record types skipped */
	uint64_t bytes;			/* consumed */
	bool truncated;			/* input ended inside a record */
	bool magic_seen;
	uint64_t large_skipped;		/* large records over the limit */
	/* string and thread table entries dropped past max_table_bytes */
	uint64_t table_entries_dropped;
};

struct fxt_reader_options {
	/* Expect the magic number record first; report if missing. */
	bool expect_magic;
	/*
	 * Input that lacks the magic number record is read only if its
	 * first records decode without a problem; else reading ends before
	 * the first record and fxt_reader_not_fxt() says why.
	 */
	bool refuse_not_fxt;
	/*
	 * Input is one provider's own buffer: metadata records are garbage
	 * there (spec) and are reported and skipped.
	 */
	bool provider_buffer;
	fxt_diag_fn diag;
	void *diag_ctx;
	/*
	 * Large records (type 15) bigger than this are reported and skipped
	 * by their size instead of being read into memory; 0 means
	 * FXT_READER_LARGE_RECORD_MAX.
	 */
	uint64_t max_large_record_bytes;
	/*
	 * The string and thread tables of all providers together hold at
	 * most this many heap bytes; entries past it are dropped, counted
	 * and reported once (FXT_DIAG_LIMIT). 0 means
	 * FXT_READER_TABLE_BYTES_MAX.
	 */
	uint64_t max_table_bytes;
};

#define FXT_READER_LARGE_RECORD_MAX (64ull << 20)
#define FXT_READER_TABLE_BYTES_MAX (64ull << 20)

/* The reader reads fd or f from where it stands and never closes it. */
struct fxt_reader *fxt_reader_open_fd(int fd,
				      const struct fxt_reader_options *opt);
struct fxt_reader *fxt_reader_open_file(FILE *f,
					const struct fxt_reader_options *opt);
/* The memory must outlive the reader; it is not copied. */
struct fxt_reader *fxt_reader_open_mem(const void *data, size_t len,
				       const struct fxt_reader_options *opt);
void fxt_reader_close(struct fxt_reader *r);

/* 1: a record was decoded into *rec; 0: end of input; <0: -errno (I/O). */
int fxt_reader_next(struct fxt_reader *r, struct fxt_record *rec);

const struct fxt_reader_stats *fxt_reader_stats(const struct fxt_reader *r);
/* Why refuse_not_fxt refused the input; NULL when it did not. */
const char *fxt_reader_not_fxt(const struct fxt_reader *r);

/* Providers seen so far, in order of first appearance. */
size_t fxt_reader_provider_count(const struct fxt_reader *r);
const struct fxt_provider *fxt_reader_provider(const struct fxt_reader *r,
					       size_t i);

/* Ticks of the record's provider in nanoseconds; UINT64_MAX past it. */
uint64_t fxt_ticks_to_ns(const struct fxt_provider *p, uint64_t ticks);

/* The record's first argument called name, or NULL. */
const struct fxt_arg *fxt_record_arg(const struct fxt_record *rec,
				     const char *name, size_t len);

const char *fxt_record_type_name(enum fxt_record_type type);
const char *fxt_event_type_name(enum fxt_event_type type);
const char *fxt_arg_type_name(enum fxt_arg_type type);
const char *fxt_thread_state_name(unsigned int state);
/* "data", "last_branch", "perfetto", or "unknown". */
const char *fxt_blob_type_name(unsigned int type);
const char *fxt_diag_kind_name(enum fxt_diag_kind kind);

#endif /* FXT_READER_H */
