/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * FXT record encoder for userspace: appends whole records to a growable
 * memory buffer, or to a bounded buffer handed to a flush callback.
 *
 * One function per record kind, built on the header builders of
 * <fxt/fxt.h>. Every function writes one complete record or nothing and
 * returns 0 or a negative errno:
 *   -EINVAL  a field out of range (bad index, too many args, bad type)
 *   -E2BIG   the record would exceed its size field
 *   -ENOMEM  the buffer could not grow
 *   other    what the flush callback returned
 * The first error is also kept (fxt_writer_error()) so a caller may write
 * many records and check once. After an -ENOMEM or a flush error every
 * later write fails with that error: the output would have a hole.
 *
 *	struct fxt_writer w;
 *	struct fxt_arg_in args[] = {
 *		fxt_warg_int32(fxt_wstr("fd"), 3),
 *		fxt_warg_string(fxt_wstr_index(2), fxt_wstr("eth0")),
 *	};
 *	struct fxt_writer_event ev = {
 *		.ts = now, .thread = fxt_wthread_index(1),
 *		.category = fxt_wstr_index(1), .name = fxt_wstr("send"),
 *		.args = args, .nargs = 2,
 *	};
 *
 *	fxt_writer_init_fd(&w, fd);
 *	fxt_write_magic(&w);
 *	fxt_write_provider_info(&w, 1, "app", 3);
 *	fxt_write_init(&w, 1000000000);
 *	fxt_write_string(&w, 1, "net", 3);
 *	fxt_write_string(&w, 2, "iface", 5);
 *	fxt_write_thread_ref(&w, 1, pid, tid);
 *	fxt_write_event(&w, FXT_EVENT_DURATION_COMPLETE, &ev, end);
 *	err = fxt_writer_flush(&w) ?: fxt_writer_error(&w);
 *	fxt_writer_release(&w);
 */
#ifndef FXT_WRITER_H
#define FXT_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <fxt/fxt.h>
#include <fxt/provider_args.h>

/*
 * A string as a record refers to it: an index of the provider's string
 * table (1..0x7fff, registered with fxt_write_string()), or inline bytes.
 * index 0 and len 0 is the empty string.
 */
struct fxt_writer_str {
	uint16_t index;
	const char *data;
	uint32_t len;
};

/* A thread: an index of the thread table (1..255), or inline koids. */
struct fxt_writer_thread {
	uint8_t index;
	uint64_t pid;
	uint64_t tid;
};

/* The part every event record shares. */
struct fxt_writer_event {
	uint64_t ts;
	struct fxt_writer_thread thread;
	struct fxt_writer_str category;
	struct fxt_writer_str name;
	const struct fxt_arg_in *args;	/* fxt_warg_*() */
	unsigned int nargs;
};

/* Returns 0 or a negative errno; data is len bytes of whole records. */
typedef int (*fxt_writer_flush_fn)(void *ctx, const void *data, size_t len);

struct fxt_writer {
	uint64_t *buf;
	size_t len;		/* bytes written, a multiple of 8 */
	size_t cap;		/* bytes allocated */
	fxt_writer_flush_fn flush;
	void *flush_ctx;
	size_t flush_at;	/* flush mode: hand over when this full */
	int err;		/* first error, 0 if none */
	bool broken;		/* output lost data: refuse further writes */
	uint64_t records;	/* records written */
	uint64_t bytes_flushed;
};

/* Growable memory buffer; fxt_writer_data() / fxt_writer_size() read it. */
void fxt_writer_init(struct fxt_writer *w);
/*
 * Buffered output: records are collected up to about buffer_bytes (0 for
 * a default of 1 MiB) and handed to fn whole; a record larger than that is
 * buffered alone.
 */
void fxt_writer_init_flush(struct fxt_writer *w, size_t buffer_bytes,
			   fxt_writer_flush_fn fn, void *ctx);
/* Buffered output to a file descriptor (write(2), retrying on EINTR). */
void fxt_writer_init_fd(struct fxt_writer *w, int fd);
/* Hands buffered records to the flush callback (no-op in memory mode). */
int fxt_writer_flush(struct fxt_writer *w);
/* Frees the buffer; does not flush. */
void fxt_writer_release(struct fxt_writer *w);
/* Memory mode: the buffer is the caller's, to free(); the writer is reset. */
void *fxt_writer_take(struct fxt_writer *w, size_t *len);

static inline const void *fxt_writer_data(const struct fxt_writer *w)
{
	return w->buf;
}

static inline size_t fxt_writer_size(const struct fxt_writer *w)
{
	return w->len;
}

static inline int fxt_writer_error(const struct fxt_writer *w)
{
	return w->err;
}

/* Constructors for the argument structs above. */
static inline struct fxt_writer_str fxt_wstr_len(const char *s, size_t len)
{
	return (struct fxt_writer_str){ .data = s, .len = (uint32_t)len };
}

static inline struct fxt_writer_str fxt_wstr(const char *s)
{
	return fxt_wstr_len(s, s ? strlen(s) : 0);
}

static inline struct fxt_writer_str fxt_wstr_index(uint16_t index)
{
	return (struct fxt_writer_str){ .index = index };
}

static inline struct fxt_writer_thread fxt_wthread(uint64_t pid, uint64_t tid)
{
	return (struct fxt_writer_thread){ .pid = pid, .tid = tid };
}

static inline struct fxt_writer_thread fxt_wthread_index(uint8_t index)
{
	return (struct fxt_writer_thread){ .index = index };
}

/*
 * An argument's string ref (struct fxt_arg_in: name_ref, value_ref) for
 * s: its index, or inline with its bytes beside the ref. A string no ref
 * can hold (an index past the table, more than 0x7fff bytes) gets
 * FXT_WARG_REF_INVALID, inline and empty: no string's ref. The writer
 * refuses it: -E2BIG when it has bytes, else -EINVAL.
 */
#define FXT_WARG_REF_INVALID 0x8000u

static inline uint16_t fxt_warg_ref(struct fxt_writer_str s)
{
	if (s.index)
		return s.index <= FXT_STRING_INDEX_MAX ? s.index :
							 FXT_WARG_REF_INVALID;
	if (s.len > FXT_STRING_INDEX_MAX)
		return FXT_WARG_REF_INVALID;
	return s.len ? fxt_string_ref_inline((uint16_t)s.len) : 0;
}

/* An argument named n of type, its value not set yet. */
static inline struct fxt_arg_in fxt_warg_named(enum fxt_arg_type type,
					       struct fxt_writer_str n)
{
	struct fxt_arg_in a = { .type = (uint16_t)type };

	a.name = n.index ? NULL : n.data;
	a.name_ref = fxt_warg_ref(n);
	return a;
}

static inline struct fxt_arg_in fxt_warg_null(struct fxt_writer_str n)
{
	return fxt_warg_named(FXT_ARG_NULL, n);
}

/*
 * fxt_warg_int32(n, v) ... fxt_warg_bool(n, v): an argument named n of
 * that type and value.
 */
#define FXT_WARG_MAKER(suffix, arg_type, ctype, field)                         \
	static inline struct fxt_arg_in fxt_warg_##suffix(                     \
		struct fxt_writer_str n, ctype v)                              \
	{                                                                      \
		struct fxt_arg_in a = fxt_warg_named(arg_type, n);             \
									       \
		a.v.field = v;                                                 \
		return a;                                                      \
	}
FXT_WARG_MAKER(int32, FXT_ARG_INT32, int32_t, i64)
FXT_WARG_MAKER(uint32, FXT_ARG_UINT32, uint32_t, u64)
FXT_WARG_MAKER(int64, FXT_ARG_INT64, int64_t, i64)
FXT_WARG_MAKER(uint64, FXT_ARG_UINT64, uint64_t, u64)
FXT_WARG_MAKER(double, FXT_ARG_DOUBLE, double, f64)
FXT_WARG_MAKER(pointer, FXT_ARG_POINTER, uint64_t, u64)
FXT_WARG_MAKER(koid, FXT_ARG_KOID, uint64_t, u64)
FXT_WARG_MAKER(bool, FXT_ARG_BOOL, bool, u64)
#undef FXT_WARG_MAKER

static inline struct fxt_arg_in fxt_warg_string(struct fxt_writer_str n,
						struct fxt_writer_str v)
{
	struct fxt_arg_in a = fxt_warg_named(FXT_ARG_STRING, n);

	a.v.str = v.index ? NULL : v.data;
	a.value_ref = fxt_warg_ref(v);
	return a;
}

/* Already encoded records (e.g. a provider's buffer), copied as they are. */
int fxt_write_raw(struct fxt_writer *w, const void *records, size_t bytes);

/* Metadata, written by the manager only. */
int fxt_write_magic(struct fxt_writer *w);
int fxt_write_provider_info(struct fxt_writer *w, uint32_t provider_id,
			    const char *name, size_t name_len);
int fxt_write_provider_section(struct fxt_writer *w, uint32_t provider_id);
int fxt_write_provider_event(struct fxt_writer *w, uint32_t provider_id,
			     unsigned int event_id);

int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second);
/* Registers (or replaces) string index 1..0x7fff. */
int fxt_write_string(struct fxt_writer *w, uint16_t index, const char *s,
		     size_t len);
/* The thread record: registers (or replaces) thread ref 1..255. */
int fxt_write_thread_ref(struct fxt_writer *w, uint8_t index, uint64_t pid,
			 uint64_t tid);

/*
 * Any event type; extra is the word the type carries (counter id, end
 * time, async or flow correlation id); instant and duration begin/end
 * events carry none and ignore it.
 */
int fxt_write_event(struct fxt_writer *w, enum fxt_event_type type,
		    const struct fxt_writer_event *ev, uint64_t extra);
/*
 * The spec's instant event has no scope field: process and global scope
 * are written as a string argument "scope" ("process" or "global"), as
 * libprovider writes them. Thread scope adds nothing.
 */
int fxt_write_instant(struct fxt_writer *w, const struct fxt_writer_event *ev,
		      enum fxt_instant_scope scope);

/* Blob record; payload up to 0x7fff bytes. */
int fxt_write_blob(struct fxt_writer *w, struct fxt_writer_str name,
		   unsigned int blob_type, const void *payload, size_t len);
/* process: an indexed thread (its pid is used) or inline (pid only). */
int fxt_write_userspace_object(struct fxt_writer *w, uint64_t pointer,
			       struct fxt_writer_thread process,
			       struct fxt_writer_str name,
			       const struct fxt_arg_in *args,
			       unsigned int nargs);
int fxt_write_kernel_object(struct fxt_writer *w, unsigned int obj_type,
			    uint64_t koid, struct fxt_writer_str name,
			    const struct fxt_arg_in *args,
			    unsigned int nargs);

/* Scheduling record type 1. */
int fxt_write_context_switch(struct fxt_writer *w, uint64_t ts,
			     unsigned int cpu, unsigned int out_state,
			     uint64_t out_tid, uint64_t in_tid,
			     const struct fxt_arg_in *args,
			     unsigned int nargs);
/* Scheduling record type 2. */
int fxt_write_thread_wakeup(struct fxt_writer *w, uint64_t ts,
			    unsigned int cpu, uint64_t tid,
			    const struct fxt_arg_in *args,
			    unsigned int nargs);
/*
 * Scheduling record type 0 (2018/2021 revisions). Priorities 0 give the
 * oldest layout, where bits 44..63 were reserved.
 */
int fxt_write_legacy_context_switch(struct fxt_writer *w, uint64_t ts,
				    unsigned int cpu, unsigned int out_state,
				    struct fxt_writer_thread out_thread,
				    struct fxt_writer_thread in_thread,
				    uint8_t out_prio, uint8_t in_prio);

/* Log record; message up to 0x7fff bytes. */
int fxt_write_log(struct fxt_writer *w, uint64_t ts,
		  struct fxt_writer_thread thread, const char *msg,
		  size_t len);

/* Large blob record, format 0 (with metadata). */
int fxt_write_large_blob_with_metadata(struct fxt_writer *w,
				       const struct fxt_writer_event *ev,
				       const void *payload, uint64_t len);
/* Large blob record, format 1 (category and name only). */
int fxt_write_large_blob(struct fxt_writer *w, struct fxt_writer_str category,
			 struct fxt_writer_str name, const void *payload,
			 uint64_t len);

#endif /* FXT_WRITER_H */
