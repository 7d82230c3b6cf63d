// SPDX-License-Identifier: GPL-2.0-only
/* The pieces of JSON every writer of the converter puts out: json_emit.h. */
#include <string.h>

#include "json_emit.h"

void conv_begin_event(struct converter *c, char phase)
{
	struct text_out *w = &c->w;

	text_reserve(w, 16);
	if (c->stats->events++)
		w->buf[w->len++] = ',';
	memcpy(w->buf + w->len, "\n{\"ph\":\"", 8);
	w->len += 8;
	w->buf[w->len++] = phase;
	w->buf[w->len++] = '"';
}

void conv_put_thread(struct converter *c, uint64_t pid, uint64_t tid)
{
	struct thread_text *t;
	char *p;

	t = &c->thread_text[(tid ^ pid * 31) % THREAD_TEXT_SLOTS];
	if (!t->len || t->pid != pid || t->tid != tid) {
		p = t->text;
		memcpy(p, ",\"pid\":", 7);
		p += 7;
		p += text_format_u64(p, pid);
		memcpy(p, ",\"tid\":", 7);
		p += 7;
		p += text_format_u64(p, tid);
		t->len = (uint8_t)(p - t->text);
		t->pid = pid;
		t->tid = tid;
	}
	text_reserve(&c->w, sizeof(t->text));
	memcpy(c->w.buf + c->w.len, t->text, sizeof(t->text));
	c->w.len += t->len;
}

static void put_arg_value(struct text_out *w, const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:
		text_put_i64(w, a->value.i32);
		break;
	case FXT_ARG_UINT32:
		text_put_u64(w, a->value.u32);
		break;
	case FXT_ARG_INT64:
		text_put_i64(w, a->value.i64);
		break;
	case FXT_ARG_UINT64:
		text_put_u64(w, a->value.u64);
		break;
	case FXT_ARG_DOUBLE:
		text_put_json_double(w, a->value.f64);
		break;
	case FXT_ARG_STRING:
		text_put_json_string(w, a->value.str.data, a->value.str.len);
		break;
	case FXT_ARG_POINTER:
		text_put_json_hex(w, a->value.pointer);
		break;
	case FXT_ARG_KOID:
		text_put_u64(w, a->value.koid);
		break;
	case FXT_ARG_BOOL:
		if (a->value.b)
			text_put_lit(w, "true");
		else
			text_put_lit(w, "false");
		break;
	case FXT_ARG_NULL:
	default:
		text_put_lit(w, "null");
		break;
	}
}

void conv_put_arg(struct converter *c, const struct fxt_arg *a, bool first)
{
	if (!first)
		text_put_char(&c->w, ',');
	text_put_json_string(&c->w, a->name.data, a->name.len);
	text_put_char(&c->w, ':');
	put_arg_value(&c->w, a);
}

void conv_put_args(struct converter *c, const struct fxt_record *rec,
		   bool first)
{
	unsigned int i;

	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS; i++, first = false)
		conv_put_arg(c, &rec->args[i], first);
}

/* A metadata event with a name of its own; the caller adds args. */
void conv_begin_metadata(struct converter *c, const char *name, size_t len,
			 uint64_t pid, uint64_t tid)
{
	conv_begin_event(c, 'M');
	text_put_lit(&c->w, ",\"name\":");
	text_put_json_string(&c->w, name, len);
	conv_put_thread(c, pid, tid);
	text_put_lit(&c->w, ",\"args\":{");
}

void conv_thread_name(struct converter *c, uint64_t pid, uint64_t tid,
		      const char *name, size_t len)
{
	conv_begin_metadata_lit(c, "thread_name", pid, tid);
	text_put_lit(&c->w, "\"name\":");
	text_put_json_string(&c->w, name, len);
	text_put_lit(&c->w, "}}");
}

void conv_process_name(struct converter *c, uint64_t pid, const char *name,
		       size_t len)
{
	conv_begin_metadata_lit(c, "process_name", pid, 0);
	text_put_lit(&c->w, "\"name\":");
	text_put_json_string(&c->w, name, len);
	text_put_lit(&c->w, "}}");
}
