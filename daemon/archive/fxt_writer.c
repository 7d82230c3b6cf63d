// SPDX-License-Identifier: GPL-2.0-only
/*
 * FXT record encoder. Each record is sized first (validating every field),
 * then space for it is reserved and filled: a failed write leaves nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include <fxt/encode.h>

#include "fxt_writer.h"

#define FXT_WRITER_DEFAULT_FLUSH (1u << 20)

void fxt_writer_init(struct fxt_writer *w)
{
	memset(w, 0, sizeof(*w));
}

void fxt_writer_init_flush(struct fxt_writer *w, size_t buffer_bytes,
			   fxt_writer_flush_fn fn, void *ctx)
{
	fxt_writer_init(w);
	w->flush = fn;
	w->flush_ctx = ctx;
	w->flush_at = buffer_bytes ? buffer_bytes : FXT_WRITER_DEFAULT_FLUSH;
}

static int write_fd(void *ctx, const void *data, size_t len)
{
	int fd = (int)(intptr_t)ctx;
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void fxt_writer_init_fd(struct fxt_writer *w, int fd)
{
	fxt_writer_init_flush(w, 0, write_fd, (void *)(intptr_t)fd);
}

void fxt_writer_release(struct fxt_writer *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = 0;
	w->cap = 0;
}

void *fxt_writer_take(struct fxt_writer *w, size_t *len)
{
	void *buf = w->buf;

	*len = w->len;
	fxt_writer_init(w);
	return buf;
}

static int fail(struct fxt_writer *w, int err)
{
	if (!w->err)
		w->err = err;
	return err;
}

static int break_output(struct fxt_writer *w, int err)
{
	w->broken = true;
	w->err = err;
	return err;
}

int fxt_writer_flush(struct fxt_writer *w)
{
	int err;

	if (w->broken)
		return w->err;
	if (!w->flush || !w->len)
		return 0;
	err = w->flush(w->flush_ctx, w->buf, w->len);
	if (err < 0)
		return break_output(w, err);
	w->bytes_flushed += w->len;
	w->len = 0;
	return 0;
}

static int grow(struct fxt_writer *w, size_t need)
{
	size_t cap = w->cap ? w->cap : 4096;
	void *buf;

	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	buf = realloc(w->buf, cap);
	if (!buf)
		return -ENOMEM;
	w->buf = buf;
	w->cap = cap;
	return 0;
}

/* Space for a record of words words, or NULL with the error kept. */
static uint64_t *reserve(struct fxt_writer *w, uint64_t words)
{
	size_t bytes;
	uint64_t *p;
	int err;

	if (w->broken)
		return NULL;
	if (words > SIZE_MAX / FXT_WORD_BYTES - w->len / FXT_WORD_BYTES) {
		fail(w, -E2BIG);
		return NULL;
	}
	bytes = (size_t)words * FXT_WORD_BYTES;
	if (w->flush && w->len && w->len + bytes > w->flush_at &&
	    fxt_writer_flush(w) < 0)
		return NULL;
	if (w->len + bytes > w->cap) {
		err = grow(w, w->len + bytes);
		if (err < 0) {
			break_output(w, err);
			return NULL;
		}
	}
	p = w->buf + w->len / FXT_WORD_BYTES;
	w->len += bytes;
	w->records++;
	return p;
}

/* Keeps buffered output bounded: flush once a record crosses the mark. */
static int commit(struct fxt_writer *w)
{
	if (w->flush && w->len >= w->flush_at)
		return fxt_writer_flush(w);
	return 0;
}

/* The string ref of s; -EINVAL for an index past the table. */
static int str_ref(const struct fxt_writer_str *s, uint16_t *ref)
{
	if (s->index) {
		if (s->index > FXT_STRING_INDEX_MAX)
			return -EINVAL;
		*ref = s->index;
		return 0;
	}
	if (s->len > FXT_STRING_INDEX_MAX)
		return -E2BIG;
	if (s->len && !s->data)
		return -EINVAL;
	*ref = s->len ? fxt_string_ref_inline((uint16_t)s->len) : 0;
	return 0;
}

static void put_str(uint64_t **p, const struct fxt_writer_str *s)
{
	if (!s->index)
		*p = fxt_encode_stream(*p, s->data, s->len);
}

static uint32_t thread_words(const struct fxt_writer_thread *t)
{
	return t->index == FXT_THREAD_REF_INLINE ? 2 : 0;
}

static void put_thread(uint64_t **p, const struct fxt_writer_thread *t)
{
	if (t->index == FXT_THREAD_REF_INLINE) {
		*(*p)++ = t->pid;
		*(*p)++ = t->tid;
	}
}

/* An argument's ref (fxt_warg_ref()), whose bytes are at bytes. */
static int arg_ref_check(uint16_t ref, const char *bytes)
{
	if (ref == FXT_WARG_REF_INVALID)
		return bytes ? -E2BIG : -EINVAL;
	if (fxt_string_ref_is_inline(ref) && !bytes)
		return -EINVAL;
	return 0;
}

static int size_arg(const struct fxt_arg_in *a, uint32_t *words)
{
	uint16_t value_ref = 0;
	int err;

	if (a->type > FXT_ARG_TYPE_MAX)
		return -EINVAL;
	err = arg_ref_check(a->name_ref, a->name);
	if (err)
		return err;
	if (a->type == FXT_ARG_STRING) {
		value_ref = a->value_ref;
		err = arg_ref_check(value_ref, a->v.str);
		if (err)
			return err;
	}
	*words = fxt_arg_words(a->type, a->name_ref, value_ref);
	if (*words > FXT_RECORD_MAX_WORDS)
		return -E2BIG;
	return 0;
}

static int size_args(const struct fxt_arg_in *args, unsigned int nargs,
		     uint64_t *words)
{
	uint32_t arg_words;
	unsigned int i;
	int err;

	if (nargs > FXT_MAX_ARGS || (nargs && !args))
		return -EINVAL;
	for (i = 0; i < nargs; i++) {
		err = size_arg(&args[i], &arg_words);
		if (err)
			return err;
		*words += arg_words;
	}
	return 0;
}

static void put_args(uint64_t **p, const struct fxt_arg_in *args,
		     unsigned int nargs)
{
	uint32_t words;
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		/* Validated by size_args(): cannot fail here. */
		(void)size_arg(&args[i], &words);
		*p = fxt_encode_arg(*p, &args[i], words);
	}
}

/* Reserves a normal record (size field of 12 bits). */
static uint64_t *reserve_record(struct fxt_writer *w, uint64_t words)
{
	if (words > FXT_RECORD_MAX_WORDS) {
		fail(w, -E2BIG);
		return NULL;
	}
	return reserve(w, words);
}

/* Ends a record: reserve() failing has already kept the error. */
static int done(struct fxt_writer *w, uint64_t *p)
{
	if (!p)
		return w->broken ? w->err : -E2BIG;
	return commit(w);
}

/*
 * Sizes args onto *words and reserves the record: its first word, or
 * NULL with *err what the call returns.
 */
static uint64_t *reserve_with_args(struct fxt_writer *w, uint64_t *words,
				   const struct fxt_arg_in *args,
				   unsigned int nargs, int *err)
{
	uint64_t *p;

	*err = size_args(args, nargs, words);
	if (*err) {
		fail(w, *err);
		return NULL;
	}
	p = reserve_record(w, *words);
	if (!p)
		*err = done(w, p);
	return p;
}

int fxt_write_raw(struct fxt_writer *w, const void *records, size_t bytes)
{
	uint64_t *p;

	if (bytes % FXT_WORD_BYTES)
		return fail(w, -EINVAL);
	if (!bytes)
		return 0;
	p = reserve(w, bytes / FXT_WORD_BYTES);
	if (!p)
		return w->err;
	memcpy(p, records, bytes);
	w->records--;	/* counted by the caller's records, not as one */
	return commit(w);
}

static int write_words(struct fxt_writer *w, const uint64_t *words,
		       unsigned int n)
{
	uint64_t *p = reserve(w, n);

	if (!p)
		return w->err;
	memcpy(p, words, n * sizeof(*words));
	return commit(w);
}

/* A record of one header word and a byte stream after it. */
static int write_header_stream(struct fxt_writer *w, uint64_t header,
			       const void *data, uint32_t len)
{
	uint64_t *p = reserve(w, 1 + fxt_words(len));

	if (!p)
		return w->err;
	*p++ = header;
	fxt_encode_stream(p, data, len);
	return commit(w);
}

int fxt_write_magic(struct fxt_writer *w)
{
	uint64_t word = fxt_magic_record();

	return write_words(w, &word, 1);
}

int fxt_write_provider_info(struct fxt_writer *w, uint32_t provider_id,
			    const char *name, size_t name_len)
{
	uint32_t len = (uint32_t)name_len;

	if (name_len > 0xff || (name_len && !name))
		return fail(w, -EINVAL);
	return write_header_stream(w,
				   fxt_provider_info_header(provider_id, len),
				   name, len);
}

int fxt_write_provider_section(struct fxt_writer *w, uint32_t provider_id)
{
	uint64_t word = fxt_provider_section_header(provider_id);

	return write_words(w, &word, 1);
}

int fxt_write_provider_event(struct fxt_writer *w, uint32_t provider_id,
			     unsigned int event_id)
{
	uint64_t word;

	if (event_id > 0xf)
		return fail(w, -EINVAL);
	word = fxt_provider_event_header(provider_id, event_id);
	return write_words(w, &word, 1);
}

int fxt_write_init(struct fxt_writer *w, uint64_t ticks_per_second)
{
	uint64_t words[2] = { fxt_init_header(), ticks_per_second };

	return write_words(w, words, 2);
}

int fxt_write_string(struct fxt_writer *w, uint16_t index, const char *s,
		     size_t len)
{
	if (!index || index > FXT_STRING_INDEX_MAX || (len && !s))
		return fail(w, -EINVAL);
	if (len > FXT_STRING_INDEX_MAX)
		return fail(w, -E2BIG);
	return write_header_stream(w, fxt_string_header(index, (uint16_t)len),
				   s, (uint32_t)len);
}

int fxt_write_thread_ref(struct fxt_writer *w, uint8_t index, uint64_t pid,
			 uint64_t tid)
{
	uint64_t words[3] = { fxt_thread_header(index), pid, tid };

	if (!index)
		return fail(w, -EINVAL);
	return write_words(w, words, 3);
}

static bool event_has_extra(enum fxt_event_type type)
{
	switch (type) {
	case FXT_EVENT_INSTANT:
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		return false;
	default:
		return true;
	}
}

/*
 * The category and name refs of an event, and the words of them, of its
 * thread and of its arguments added to words.
 */
static int size_event(const struct fxt_writer_event *ev, uint16_t *cat,
		      uint16_t *name, uint64_t *words)
{
	int err = str_ref(&ev->category, cat);

	if (!err)
		err = str_ref(&ev->name, name);
	if (!err)
		err = size_args(ev->args, ev->nargs, words);
	if (err)
		return err;
	*words += thread_words(&ev->thread) + fxt_string_ref_words(*cat) +
		  fxt_string_ref_words(*name);
	return 0;
}

int fxt_write_event(struct fxt_writer *w, enum fxt_event_type type,
		    const struct fxt_writer_event *ev, uint64_t extra)
{
	uint16_t cat, name;
	uint64_t words = 2;
	bool has_extra;
	uint64_t *p;
	int err;

	if ((unsigned int)type > FXT_EVENT_TYPE_MAX)
		return fail(w, -EINVAL);
	err = size_event(ev, &cat, &name, &words);
	if (err)
		return fail(w, err);
	has_extra = event_has_extra(type);
	words += has_extra;
	p = reserve_record(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_event_header((uint32_t)words, type, ev->nargs,
				ev->thread.index, cat, name);
	*p++ = ev->ts;
	put_thread(&p, &ev->thread);
	put_str(&p, &ev->category);
	put_str(&p, &ev->name);
	put_args(&p, ev->args, ev->nargs);
	if (has_extra)
		*p++ = extra;
	return commit(w);
}

int fxt_write_instant(struct fxt_writer *w, const struct fxt_writer_event *ev,
		      enum fxt_instant_scope scope)
{
	static const char *const scope_names[] = {
		[FXT_SCOPE_PROCESS] = "process",
		[FXT_SCOPE_GLOBAL] = "global",
	};
	struct fxt_arg_in args[FXT_MAX_ARGS];
	struct fxt_writer_event scoped = *ev;

	if ((unsigned int)scope > FXT_SCOPE_GLOBAL)
		return fail(w, -EINVAL);
	if (scope == FXT_SCOPE_THREAD)
		return fxt_write_event(w, FXT_EVENT_INSTANT, ev, 0);
	if (ev->nargs >= FXT_MAX_ARGS)
		return fail(w, -EINVAL);
	if (ev->nargs)
		memcpy(args, ev->args, ev->nargs * sizeof(*args));
	args[ev->nargs] = fxt_warg_string(fxt_wstr("scope"),
					  fxt_wstr(scope_names[scope]));
	scoped.args = args;
	scoped.nargs = ev->nargs + 1;
	return fxt_write_event(w, FXT_EVENT_INSTANT, &scoped, 0);
}

int fxt_write_blob(struct fxt_writer *w, struct fxt_writer_str name,
		   unsigned int blob_type, const void *payload, size_t len)
{
	uint64_t words = 1;
	uint16_t name_ref;
	uint64_t *p;
	int err;

	err = str_ref(&name, &name_ref);
	if (err)
		return fail(w, err);
	if (blob_type > 0xff || (len && !payload))
		return fail(w, -EINVAL);
	if (len > FXT_STRING_INDEX_MAX)
		return fail(w, -E2BIG);
	words += fxt_string_ref_words(name_ref) + fxt_words((uint32_t)len);
	p = reserve_record(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_blob_header((uint32_t)words, name_ref, (uint16_t)len,
			       blob_type);
	put_str(&p, &name);
	p = fxt_encode_stream(p, payload, (uint32_t)len);
	return commit(w);
}

/* Both object records; pid: the process of a userspace object, inline. */
static int write_object(struct fxt_writer *w, unsigned int record,
			uint64_t id, unsigned int process_or_type,
			const uint64_t *pid, struct fxt_writer_str name,
			const struct fxt_arg_in *args, unsigned int nargs)
{
	uint64_t words = 2 + (pid != NULL);
	uint16_t name_ref;
	uint64_t *p;
	int err;

	err = str_ref(&name, &name_ref);
	if (!err)
		err = size_args(args, nargs, &words);
	if (err)
		return fail(w, err);
	words += fxt_string_ref_words(name_ref);
	p = reserve_record(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_object_header(record, (uint32_t)words, process_or_type,
				 name_ref, nargs);
	*p++ = id;
	if (pid)
		*p++ = *pid;
	put_str(&p, &name);
	put_args(&p, args, nargs);
	return commit(w);
}

int fxt_write_userspace_object(struct fxt_writer *w, uint64_t pointer,
			       struct fxt_writer_thread process,
			       struct fxt_writer_str name,
			       const struct fxt_arg_in *args,
			       unsigned int nargs)
{
	bool inline_process = process.index == FXT_THREAD_REF_INLINE;

	return write_object(w, FXT_RECORD_USERSPACE_OBJECT, pointer,
			    process.index, inline_process ? &process.pid : NULL,
			    name, args, nargs);
}

int fxt_write_kernel_object(struct fxt_writer *w, unsigned int obj_type,
			    uint64_t koid, struct fxt_writer_str name,
			    const struct fxt_arg_in *args,
			    unsigned int nargs)
{
	if (obj_type > 0xff)
		return fail(w, -EINVAL);
	return write_object(w, FXT_RECORD_KERNEL_OBJECT, koid, obj_type, NULL,
			    name, args, nargs);
}

int fxt_write_context_switch(struct fxt_writer *w, uint64_t ts,
			     unsigned int cpu, unsigned int out_state,
			     uint64_t out_tid, uint64_t in_tid,
			     const struct fxt_arg_in *args,
			     unsigned int nargs)
{
	uint64_t words = 4;
	uint64_t *p;
	int err;

	if (cpu > 0xffff || out_state > 0xf)
		return fail(w, -EINVAL);
	p = reserve_with_args(w, &words, args, nargs, &err);
	if (!p)
		return err;
	*p++ = fxt_context_switch_header((uint32_t)words, nargs, cpu,
					 out_state);
	*p++ = ts;
	*p++ = out_tid;
	*p++ = in_tid;
	put_args(&p, args, nargs);
	return commit(w);
}

int fxt_write_thread_wakeup(struct fxt_writer *w, uint64_t ts,
			    unsigned int cpu, uint64_t tid,
			    const struct fxt_arg_in *args,
			    unsigned int nargs)
{
	uint64_t words = 3;
	uint64_t *p;
	int err;

	if (cpu > 0xffff)
		return fail(w, -EINVAL);
	p = reserve_with_args(w, &words, args, nargs, &err);
	if (!p)
		return err;
	*p++ = fxt_thread_wakeup_header((uint32_t)words, nargs, cpu);
	*p++ = ts;
	*p++ = tid;
	put_args(&p, args, nargs);
	return commit(w);
}

int fxt_write_legacy_context_switch(struct fxt_writer *w, uint64_t ts,
				    unsigned int cpu, unsigned int out_state,
				    struct fxt_writer_thread out_thread,
				    struct fxt_writer_thread in_thread,
				    uint8_t out_prio, uint8_t in_prio)
{
	uint32_t words;
	uint64_t *p;

	if (cpu > 0xff || out_state > 0xf)
		return fail(w, -EINVAL);
	words = 2 + thread_words(&out_thread) + thread_words(&in_thread);
	p = reserve_record(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_legacy_context_switch_header(words, cpu, out_state,
						out_thread.index,
						in_thread.index, out_prio,
						in_prio);
	*p++ = ts;
	put_thread(&p, &out_thread);
	put_thread(&p, &in_thread);
	return commit(w);
}

int fxt_write_log(struct fxt_writer *w, uint64_t ts,
		  struct fxt_writer_thread thread, const char *msg,
		  size_t len)
{
	uint64_t words;
	uint64_t *p;

	if (len && !msg)
		return fail(w, -EINVAL);
	if (len > FXT_STRING_INDEX_MAX)
		return fail(w, -E2BIG);
	words = 2 + thread_words(&thread) + fxt_words((uint32_t)len);
	p = reserve_record(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_log_header((uint32_t)words, (uint16_t)len, thread.index);
	*p++ = ts;
	put_thread(&p, &thread);
	p = fxt_encode_stream(p, msg, (uint32_t)len);
	return commit(w);
}

static uint64_t *reserve_large(struct fxt_writer *w, uint64_t words)
{
	if (words > FXT_LARGE_RECORD_MAX_WORDS) {
		fail(w, -E2BIG);
		return NULL;
	}
	return reserve(w, words);
}

static void put_payload(uint64_t **p, const void *payload, uint64_t len)
{
	uint64_t words = (len + FXT_WORD_BYTES - 1) / FXT_WORD_BYTES;

	**p = len;
	(*p)++;
	if (!words)
		return;
	(*p)[words - 1] = 0;
	memcpy(*p, payload, len);
	*p += words;
}

static uint64_t payload_words(uint64_t len)
{
	return 1 + (len + FXT_WORD_BYTES - 1) / FXT_WORD_BYTES;
}

int fxt_write_large_blob_with_metadata(struct fxt_writer *w,
				       const struct fxt_writer_event *ev,
				       const void *payload, uint64_t len)
{
	uint64_t words = 3;
	uint16_t cat, name;
	uint64_t *p;
	int err;

	if ((len && !payload) || len > (FXT_LARGE_RECORD_MAX_WORDS << 3))
		return fail(w, -EINVAL);
	err = size_event(ev, &cat, &name, &words);
	if (err)
		return fail(w, err);
	words += payload_words(len);
	p = reserve_large(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_large_blob_header(words, FXT_LARGE_BLOB_WITH_METADATA);
	*p++ = fxt_large_blob_format_word(cat, name, ev->nargs,
					  ev->thread.index);
	put_str(&p, &ev->category);
	put_str(&p, &ev->name);
	*p++ = ev->ts;
	put_thread(&p, &ev->thread);
	put_args(&p, ev->args, ev->nargs);
	put_payload(&p, payload, len);
	return commit(w);
}

int fxt_write_large_blob(struct fxt_writer *w, struct fxt_writer_str category,
			 struct fxt_writer_str name, const void *payload,
			 uint64_t len)
{
	uint64_t words = 2;
	uint16_t cat, name_ref;
	uint64_t *p;
	int err;

	if ((len && !payload) || len > (FXT_LARGE_RECORD_MAX_WORDS << 3))
		return fail(w, -EINVAL);
	err = str_ref(&category, &cat);
	if (!err)
		err = str_ref(&name, &name_ref);
	if (err)
		return fail(w, err);
	words += fxt_string_ref_words(cat) + fxt_string_ref_words(name_ref) +
		 payload_words(len);
	p = reserve_large(w, words);
	if (!p)
		return done(w, p);
	*p++ = fxt_large_blob_header(words, FXT_LARGE_BLOB_NO_METADATA);
	*p++ = fxt_large_blob_format_word(cat, name_ref, 0, 0);
	put_str(&p, &category);
	put_str(&p, &name);
	put_payload(&p, payload, len);
	return commit(w);
}
