// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event, log, blob and object records as Trace Event Format events.
 *
 * FXT event type -> phase: instant i, counter C, duration begin/end B/E,
 * complete X, async begin/instant/end b/n/e, flow begin/step/end s/t/f.
 */
#include "json_emit.h"
#include "json_events.h"

static const char event_phase[FXT_EVENT_TYPE_MAX + 1] = {
	[FXT_EVENT_INSTANT] = 'i',
	[FXT_EVENT_COUNTER] = 'C',
	[FXT_EVENT_DURATION_BEGIN] = 'B',
	[FXT_EVENT_DURATION_END] = 'E',
	[FXT_EVENT_DURATION_COMPLETE] = 'X',
	[FXT_EVENT_ASYNC_BEGIN] = 'b',
	[FXT_EVENT_ASYNC_INSTANT] = 'n',
	[FXT_EVENT_ASYNC_END] = 'e',
	[FXT_EVENT_FLOW_BEGIN] = 's',
	[FXT_EVENT_FLOW_STEP] = 't',
	[FXT_EVENT_FLOW_END] = 'f',
};

static void put_name(struct text_out *w, const struct fxt_str *name)
{
	text_put_lit(w, ",\"name\":");
	text_put_json_string(w, name->data, name->len);
}

static void put_cat(struct text_out *w, const struct fxt_str *cat)
{
	text_put_lit(w, ",\"cat\":");
	text_put_json_string(w, cat->data, cat->len);
}

static void put_ts(struct converter *c, const struct fxt_record *rec,
		   uint64_t ticks)
{
	conv_put_key(&c->w, "ts");
	text_put_thousandths(&c->w, conv_ns(rec->provider, ticks));
}

/*
 * The spec's instant has no scope: Fuchsia's trace-engine appends a scope
 * word for process and global ones; else an argument "scope" (t/p/g or
 * thread/process/global) gives it; else it is thread scoped.
 */
static char instant_scope(const struct fxt_record *rec)
{
	const struct fxt_arg *a;
	const struct fxt_str *s;

	if (rec->event.scope == FXT_SCOPE_GLOBAL)
		return 'g';
	if (rec->event.scope == FXT_SCOPE_PROCESS)
		return 'p';
	a = fxt_record_arg(rec, "scope", 5);
	if (!a || a->type != FXT_ARG_STRING)
		return 't';
	s = &a->value.str;
	if (STR_IS(s, "g") || STR_IS(s, "global"))
		return 'g';
	if (STR_IS(s, "p") || STR_IS(s, "process"))
		return 'p';
	return 't';
}

static bool arg_is_number(const struct fxt_arg *a)
{
	switch (a->type) {
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
	case FXT_ARG_INT64:
	case FXT_ARG_UINT64:
	case FXT_ARG_DOUBLE:
		return true;
	default:
		return false;
	}
}

/* Each numeric argument is one series; others cannot be drawn. */
static void put_counter_args(struct converter *c, const struct fxt_record *rec)
{
	bool first = true;
	unsigned int i;

	text_put_lit(&c->w, ",\"args\":{");
	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS; i++) {
		const struct fxt_arg *a = &rec->args[i];

		if (!arg_is_number(a))
			continue;
		conv_put_arg(c, a, first);
		first = false;
	}
	text_put_char(&c->w, '}');
}

static void put_event_specific(struct converter *c,
			       const struct fxt_record *rec)
{
	struct text_out *w = &c->w;
	char scope[] = ",\"s\":\"t\"";
	uint64_t start, end;

	switch (rec->event.type) {
	case FXT_EVENT_INSTANT:
		scope[6] = instant_scope(rec);
		text_put_mem(w, scope, sizeof(scope) - 1);
		break;
	case FXT_EVENT_COUNTER:
		if (rec->event.extra) {
			conv_put_key(w, "id");
			text_put_json_hex(w, rec->event.extra);
		}
		break;
	case FXT_EVENT_DURATION_COMPLETE:
		start = conv_ns(rec->provider, rec->event.ts);
		end = conv_ns(rec->provider, rec->event.extra);
		conv_put_key(w, "dur");
		text_put_thousandths(w, end > start ? end - start : 0);
		break;
	case FXT_EVENT_ASYNC_BEGIN:
	case FXT_EVENT_ASYNC_INSTANT:
	case FXT_EVENT_ASYNC_END:
	case FXT_EVENT_FLOW_BEGIN:
	case FXT_EVENT_FLOW_STEP:
		conv_put_key(w, "id");
		text_put_json_hex(w, rec->event.extra);
		break;
	case FXT_EVENT_FLOW_END:
		conv_put_key(w, "id");
		text_put_json_hex(w, rec->event.extra);
		/* FXT binds a flow end to its enclosing slice, not the next. */
		text_put_lit(w, ",\"bp\":\"e\"");
		break;
	default:
		break;
	}
}

void conv_event(struct converter *c, const struct fxt_record *rec)
{
	struct text_out *w = &c->w;

	if ((unsigned int)rec->event.type > FXT_EVENT_TYPE_MAX) {
		c->stats->unconverted++;
		return;
	}
	conv_begin_event(c, event_phase[rec->event.type]);
	put_name(w, &rec->event.name);
	put_cat(w, &rec->event.category);
	put_ts(c, rec, rec->event.ts);
	conv_put_thread(c, rec->event.thread.pid, rec->event.thread.tid);
	put_event_specific(c, rec);
	if (rec->event.type == FXT_EVENT_COUNTER) {
		put_counter_args(c, rec);
	} else if (rec->nargs) {
		text_put_lit(w, ",\"args\":{");
		conv_put_args(c, rec, true);
		text_put_char(w, '}');
	}
	text_put_char(w, '}');
}

void conv_log(struct converter *c, const struct fxt_record *rec)
{
	struct text_out *w = &c->w;

	conv_begin_event(c, 'i');
	text_put_lit(w, ",\"name\":\"log\",\"cat\":\"log\",\"s\":\"t\"");
	put_ts(c, rec, rec->log.ts);
	conv_put_thread(c, rec->log.thread.pid, rec->log.thread.tid);
	text_put_lit(w, ",\"args\":{\"message\":");
	text_put_json_string(w, rec->log.message.data, rec->log.message.len);
	text_put_lit(w, "}}");
}

/* Blobs are noted (name, size, type), never dumped. */
void conv_blob(struct converter *c, const struct fxt_record *rec)
{
	struct text_out *w = &c->w;
	const char *type = fxt_blob_type_name(rec->blob.blob_type);

	conv_begin_metadata_lit(c, "blob", 0, 0);
	text_put_lit(w, "\"name\":");
	text_put_json_string(w, rec->blob.name.data, rec->blob.name.len);
	text_put_lit(w, ",\"size\":");
	text_put_u64(w, rec->blob.payload_len);
	text_put_lit(w, ",\"type\":");
	text_put_u64(w, rec->blob.blob_type);
	text_put_lit(w, ",\"type_name\":");
	text_put_json_string(w, type, strlen(type));
	text_put_lit(w, "}}");
}

/*
 * A large blob with metadata has a time and a thread: an instant there.
 * Without, it is noted like a small blob.
 */
void conv_large_blob(struct converter *c, const struct fxt_record *rec)
{
	struct text_out *w = &c->w;

	if (!rec->large_blob.has_metadata) {
		conv_begin_metadata_lit(c, "blob", 0, 0);
		text_put_lit(w, "\"name\":");
		text_put_json_string(w, rec->large_blob.name.data,
				     rec->large_blob.name.len);
		text_put_lit(w, ",\"category\":");
		text_put_json_string(w, rec->large_blob.category.data,
				     rec->large_blob.category.len);
		text_put_lit(w, ",\"size\":");
		text_put_u64(w, rec->large_blob.payload_len);
		text_put_lit(w, "}}");
		return;
	}
	conv_begin_event(c, 'i');
	put_name(w, &rec->large_blob.name);
	put_cat(w, &rec->large_blob.category);
	text_put_lit(w, ",\"s\":\"t\"");
	put_ts(c, rec, rec->large_blob.ts);
	conv_put_thread(c, rec->large_blob.thread.pid,
			rec->large_blob.thread.tid);
	text_put_lit(w, ",\"args\":{\"blob_size\":");
	text_put_u64(w, rec->large_blob.payload_len);
	conv_put_args(c, rec, false);
	text_put_lit(w, "}}");
}

static void put_object_args(struct converter *c, const struct fxt_record *rec,
			    const struct fxt_str *name)
{
	text_put_lit(&c->w, ",\"name\":");
	text_put_json_string(&c->w, name->data, name->len);
	conv_put_args(c, rec, false);
	text_put_lit(&c->w, "}}");
}

/*
 * Process (type 1) and thread (type 2, "process" koid argument) objects
 * name tracks; written once, and again when renamed. Other kernel objects
 * become "kernel_object" metadata with their arguments.
 */
void conv_kernel_object(struct converter *c, const struct fxt_record *rec)
{
	const struct fxt_str *name = &rec->kernel_object.name;
	uint64_t koid = rec->kernel_object.koid;
	const struct name_entry *e;

	switch (rec->kernel_object.obj_type) {
	case FXT_ZX_OBJ_PROCESS:
		if (!name->len)
			return;
		if (name_cache_set(c->names, NAME_PROCESS, koid, 0, name->data,
				   name->len))
			conv_process_name(c, koid, name->data, name->len);
		return;
	case FXT_ZX_OBJ_THREAD:
		if (!name->len)
			return;
		e = name_cache_set(c->names, NAME_THREAD, koid,
				   name_cache_thread_object_pid(rec), name->data,
				   name->len);
		/*
		 * Without a process yet: written when a thread record says.
		 * A "process" of koid 0 is one (each CPU's idle thread's).
		 */
		if (e && (e->pid || fxt_record_arg(rec, "process", 7)))
			conv_thread_name(c, e->pid, koid, name->data,
					 name->len);
		return;
	default:
		conv_begin_metadata_lit(c, "kernel_object", 0, 0);
		text_put_lit(&c->w, "\"koid\":");
		text_put_u64(&c->w, koid);
		text_put_lit(&c->w, ",\"type\":");
		text_put_u64(&c->w, rec->kernel_object.obj_type);
		put_object_args(c, rec, name);
		return;
	}
}

void conv_userspace_object(struct converter *c, const struct fxt_record *rec)
{
	conv_begin_metadata_lit(c, "userspace_object", rec->userspace_object.pid, 0);
	text_put_lit(&c->w, "\"pointer\":");
	text_put_json_hex(&c->w, rec->userspace_object.pointer);
	put_object_args(c, rec, &rec->userspace_object.name);
}

/* A thread record can tell the process of a thread named earlier. */
void conv_thread_record(struct converter *c, const struct fxt_record *rec)
{
	const struct fxt_thread_id *t = &rec->thread.thread;
	const struct name_entry *e = name_cache_set_pid(c->names, t->tid,
							 t->pid);

	if (e)
		conv_thread_name(c, e->pid, t->tid, e->name, e->name_len);
}
