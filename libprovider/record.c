// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The record writer: FXT words for events, arguments, blobs, logs, object
 * and thread records (layout: include/fxt/fxt.h). Every function here runs
 * inside a write (fxt_write_enter()), with refs already interned; it
 * reserves the whole record, fills it, and commits the header word last.
 */
#include <sys/prctl.h>

#include <fxt/encode.h>

#include "buffer.h"
#include "clock.h"
#include "intern.h"
#include "macro.h"
#include "record.h"
#include "thread.h"

static bool arg_type_known(unsigned int type)
{
	return type <= FXT_ARG_TYPE_MAX;
}

/* Refs of each argument's name and (string) value. */
static inline uint32_t prepare_args(struct fxt_thread *t,
				    struct fxt_trace *tr,
				    const struct fxt_arg_in *args,
				    unsigned int nargs,
				    struct fxt_arg_refs *refs)
{
	uint32_t words = 0;
	bool category;
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		const struct fxt_arg_in *a = &args[i];
		struct fxt_arg_refs *r = &refs[i];

		r->type = arg_type_known(a->type) ? a->type : FXT_ARG_NULL;
		if (a->flags & FXT_ARG_IN_DYN_NAME)
			r->name = fxt_intern_dynamic(tr, a->name, false,
						     &category);
		else
			r->name = fxt_intern_cached(t, tr, a->name);
		r->value = 0;
		if (r->type == FXT_ARG_STRING) {
			if (a->flags & FXT_ARG_IN_LITERAL)
				r->value = fxt_intern_cached(t, tr, a->v.str);
			else
				r->value = fxt_string_ref_inline(
					(uint16_t)fxt_string_len(a->v.str));
			if (r->value == fxt_string_ref_inline(0))
				r->value = FXT_STRING_REF_EMPTY;
		}
		r->words = fxt_arg_words(r->type, r->name, r->value);
		words += r->words;
	}
	return words;
}

static inline uint64_t *put_args(uint64_t *q, const struct fxt_arg_in *args,
				 unsigned int nargs,
				 const struct fxt_arg_refs *refs)
{
	unsigned int i;

	for (i = 0; i < nargs; i++) {
		struct fxt_arg_in resolved = args[i];

		resolved.type = refs[i].type;
		resolved.name_ref = refs[i].name;
		resolved.value_ref = refs[i].value;
		q = fxt_encode_arg(q, &resolved, refs[i].words);
	}
	return q;
}

static bool event_has_extra_word(unsigned int type)
{
	return type != FXT_EVENT_INSTANT && type != FXT_EVENT_DURATION_BEGIN &&
	       type != FXT_EVENT_DURATION_END;
}

static uint32_t thread_words(const struct fxt_thread *t)
{
	return t->thread_ref == FXT_THREAD_REF_INLINE ? 2 : 0;
}

static uint64_t *put_thread(uint64_t *q, const struct fxt_thread *t)
{
	if (t->thread_ref != FXT_THREAD_REF_INLINE)
		return q;
	*q++ = t->pid;
	*q++ = t->tid;
	return q;
}

void fxt_write_event(struct fxt_thread *t, struct fxt_trace *tr,
		     const struct fxt_event_desc *e)
{
	struct fxt_arg_refs refs[FXT_MAX_ARGS];
	unsigned int nargs = e->nargs > FXT_MAX_ARGS ? FXT_MAX_ARGS : e->nargs;
	bool extra = event_has_extra_word(e->type);
	uint32_t words = 2 + thread_words(t) +
			 fxt_string_ref_words(e->cat_ref) +
			 fxt_string_ref_words(e->name_ref) + extra;
	uint64_t ts, *p, *q;

	words += prepare_args(t, tr, e->args, nargs, refs);
	if (unlikely(words > FXT_RECORD_MAX_WORDS)) {
		fxt_buffer_count_drop(tr->buf, words * 8);
		return;
	}
	ts = e->ts ? e->ts : fxt_clock_ns();
	p = fxt_reserve_event(t, tr->buf, words * 8);
	if (unlikely(!p))
		return;
	p[1] = ts;
	q = put_thread(p + 2, t);
	q = fxt_encode_ref_stream(q, e->cat_ref, e->cat);
	q = fxt_encode_ref_stream(q, e->name_ref, e->name);
	q = put_args(q, e->args, nargs, refs);
	if (extra)
		*q = e->extra;
	fxt_commit(p, fxt_event_header(words, e->type, nargs, t->thread_ref,
				       e->cat_ref, e->name_ref));
}

void fxt_write_blob(struct fxt_thread *t, struct fxt_trace *tr,
		    const char *name, uint16_t name_ref,
		    unsigned int blob_type, const void *data, size_t len)
{
	uint32_t words;
	uint64_t *p, *q;

	if (len > FXT_BLOB_MAX) {
		fxt_buffer_count_drop(tr->buf, (uint32_t)len);
		return;
	}
	words = 1 + fxt_string_ref_words(name_ref) + fxt_words((uint32_t)len);
	p = fxt_reserve_event(t, tr->buf, words * 8);
	if (!p)
		return;
	q = fxt_encode_ref_stream(p + 1, name_ref, name);
	fxt_encode_stream(q, data, (uint32_t)len);
	fxt_commit(p, fxt_blob_header(words, name_ref, (uint16_t)len,
				      blob_type));
}

void fxt_write_log(struct fxt_thread *t, struct fxt_trace *tr,
		   const char *message, size_t len)
{
	uint32_t n = len > FXT_STRING_LEN_MAX ? FXT_STRING_LEN_MAX
					       : (uint32_t)len;
	uint32_t words = 2 + thread_words(t) + fxt_words(n);
	uint64_t ts = fxt_clock_ns(), *p, *q;

	p = fxt_reserve_event(t, tr->buf, words * 8);
	if (!p)
		return;
	p[1] = ts;
	q = put_thread(p + 2, t);
	fxt_encode_stream(q, message, n);
	fxt_commit(p, fxt_log_header(words, (uint16_t)n, t->thread_ref));
}

/* Names outlive wrapping: durable area first, else with the events. */
static uint64_t *reserve_name_record(struct fxt_thread *t,
				     struct fxt_trace *tr, uint32_t words)
{
	uint64_t *p = fxt_buffer_reserve_durable(tr->buf, words * 8);

	if (p)
		return p;
	return fxt_reserve_event(t, tr->buf, words * 8);
}

void fxt_write_object(struct fxt_thread *t, struct fxt_trace *tr,
		      const struct fxt_object_desc *o)
{
	struct fxt_arg_refs refs[FXT_MAX_ARGS];
	unsigned int nargs = o->nargs > FXT_MAX_ARGS ? FXT_MAX_ARGS : o->nargs;
	bool userspace = o->record == FXT_RECORD_USERSPACE_OBJECT;
	bool inline_process = userspace &&
			      t->thread_ref == FXT_THREAD_REF_INLINE;
	uint16_t name_ref = fxt_string_ref_inline(
		(uint16_t)fxt_string_len(o->name));
	uint32_t words;
	uint64_t *p, *q;

	if (name_ref == fxt_string_ref_inline(0))
		name_ref = FXT_STRING_REF_EMPTY;
	words = 2 + inline_process + fxt_string_ref_words(name_ref) +
		prepare_args(t, tr, o->args, nargs, refs);
	if (words > FXT_RECORD_MAX_WORDS) {
		fxt_buffer_count_drop(tr->buf, words * 8);
		return;
	}
	p = reserve_name_record(t, tr, words);
	if (!p)
		return;
	p[1] = o->id;
	q = p + 2;
	if (inline_process)
		*q++ = t->pid;
	q = fxt_encode_ref_stream(q, name_ref, o->name);
	put_args(q, o->args, nargs, refs);
	fxt_commit(p, fxt_object_header(o->record, words,
					userspace ? t->thread_ref : o->obj_type,
					name_ref, nargs));
}

static void write_thread_record(struct fxt_thread *t, struct fxt_trace *tr)
{
	unsigned int index = atomic_fetch_add(&tr->next_thread_index, 1);
	uint64_t *p;

	if (index > FXT_THREAD_INDEX_MAX)
		return;		/* table full: this thread stays inline */
	p = fxt_buffer_reserve_durable(tr->buf, 3 * 8);
	if (!p)
		return;
	p[1] = t->pid;
	p[2] = t->tid;
	fxt_commit(p, fxt_thread_header((uint8_t)index));
	t->thread_ref = (uint8_t)index;
}

/* The thread's kernel object record: its set name, or comm. */
void fxt_write_thread_name(struct fxt_thread *t, struct fxt_trace *tr)
{
	char comm[17] = "";
	struct fxt_arg_in process = {
		.name = "process", .type = FXT_ARG_KOID, .v.u64 = t->pid,
	};
	struct fxt_object_desc o = {
		.record = FXT_RECORD_KERNEL_OBJECT, .id = t->tid,
		.obj_type = FXT_ZX_OBJ_THREAD, .args = &process, .nargs = 1,
	};

	if (!t->name[0] && prctl(PR_GET_NAME, comm) < 0)
		comm[0] = 0;
	o.name = t->name[0] ? t->name : comm;
	fxt_write_object(t, tr, &o);
}

void fxt_write_process_name(struct fxt_thread *t, struct fxt_trace *tr)
{
	char name[FXT_PROVIDER_NAME_MAX];
	struct fxt_object_desc o = {
		.record = FXT_RECORD_KERNEL_OBJECT, .id = t->pid,
		.obj_type = FXT_ZX_OBJ_PROCESS, .name = name,
	};

	tr->owner->process_name(tr, name, sizeof(name));
	fxt_write_object(t, tr, &o);
}

/* A thread's first event in a trace: its thread record and names. */
void fxt_write_thread_records(struct fxt_thread *t, struct fxt_trace *tr)
{
	write_thread_record(t, tr);
	fxt_write_thread_name(t, tr);
	if (!atomic_exchange(&tr->process_named, true))
		fxt_write_process_name(t, tr);
}
