// SPDX-License-Identifier: GPL-2.0-only
/*
 * The second pass of a merge, one record at a time: see merge_records.h.
 *
 * Positions in a record follow the spec's layouts (and fxt_decode.c);
 * the reader has checked the sizes already, but every position is checked
 * again against the record's size, so that nothing here writes past it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_saturate.h"
#include "merge_records.h"
#include "stack_tables.h"

#define NS_PER_SECOND 1000000000ull
/* A prefixed process name stays short: the rest of its record fits. */
#define MERGE_PROCESS_NAME_MAX 1024u

/*
 * A record position: an index into w[0..n), 0 once it ran past; leave_out
 * when the record has no place in the output (a stack id past 32 bits).
 */
struct cursor {
	uint64_t *w;
	uint64_t n;
	uint64_t i;
	bool leave_out;
};

static bool cursor_ok(const struct cursor *c, uint64_t words)
{
	return c->i && words <= c->n && c->i <= c->n - words;
}

static void skip(struct cursor *c, uint64_t words)
{
	c->i = cursor_ok(c, words) ? c->i + words : 0;
}

static void skip_string(struct cursor *c, uint64_t ref)
{
	skip(c, fxt_string_ref_words((__u16)ref));
}

static void map_time(struct cursor *c, const struct merge_host *h,
		     const struct fxt_record *rec)
{
	if (cursor_ok(c, 1))
		c->w[c->i] = merge_time(h, rec->provider, c->w[c->i]);
	skip(c, 1);
}

static void map_koid(struct cursor *c, struct merge_host *h)
{
	if (cursor_ok(c, 1))
		c->w[c->i] = merge_koid(h, c->w[c->i]);
	skip(c, 1);
}

/* A thread ref's inline koids, when it has them (ref 0). */
static void map_thread(struct cursor *c, struct merge_host *h, uint64_t ref)
{
	if (ref != FXT_THREAD_REF_INLINE)
		return;
	map_koid(c, h);
	map_koid(c, h);
}

/* nargs arguments: koid values namespaced, the rest as they are. */
static void map_args(struct cursor *c, struct merge_host *h,
		     unsigned int nargs)
{
	unsigned int i;

	for (i = 0; i < nargs && cursor_ok(c, 1); i++) {
		uint64_t a = c->w[c->i];
		uint64_t size = FXT_GET(a, FXT_ARG_SIZE);
		struct cursor v = *c;

		if (!size || !cursor_ok(c, size)) {
			c->i = 0;
			return;
		}
		if (FXT_GET(a, FXT_ARG_TYPE) == FXT_ARG_KOID) {
			v.n = c->i + size;
			skip(&v, 1);
			skip_string(&v, FXT_GET(a, FXT_ARG_NAME));
			map_koid(&v, h);
			if (!v.i) {
				c->i = 0;
				return;
			}
		}
		skip(c, size);
	}
}

static void map_event(struct cursor *c, struct merge_host *h,
		      const struct fxt_record *rec)
{
	uint64_t hdr = c->w[0];

	map_time(c, h, rec);
	map_thread(c, h, FXT_GET(hdr, FXT_EVENT_THREAD));
	skip_string(c, FXT_GET(hdr, FXT_EVENT_CATEGORY));
	skip_string(c, FXT_GET(hdr, FXT_EVENT_NAME));
	map_args(c, h, (unsigned int)FXT_GET(hdr, FXT_EVENT_NARGS));
	if (rec->event.type == FXT_EVENT_DURATION_COMPLETE)
		map_time(c, h, rec);
}

/* The header's CPU field renumbered: 0, or -E2BIG past the field. */
static int set_cpu(struct cursor *c, struct merge_host *h, unsigned int shift,
		   unsigned int width)
{
	uint64_t cpu = merge_cpu(h, (unsigned int)fxt_get(c->w[0], shift, width));

	if (cpu > fxt_mask(width))
		return width == FXT_SCHED_CPU_WIDTH ? -E2BIG : -ERANGE;
	c->w[0] = (c->w[0] & ~(fxt_mask(width) << shift)) |
		  fxt_field(cpu, shift, width);
	return 0;
}

static int map_sched(struct cursor *c, struct merge_host *h,
		     const struct fxt_record *rec)
{
	uint64_t hdr = c->w[0];
	unsigned int nargs = (unsigned int)FXT_GET(hdr, FXT_SCHED_NARGS);

	int ret;

	switch (rec->sched.type) {
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		ret = set_cpu(c, h, FXT_LEGACY_CS_CPU_SHIFT,
			      FXT_LEGACY_CS_CPU_WIDTH);
		map_time(c, h, rec);
		map_thread(c, h, FXT_GET(hdr, FXT_LEGACY_CS_OUT_THREAD));
		map_thread(c, h, FXT_GET(hdr, FXT_LEGACY_CS_IN_THREAD));
		return ret;
	case FXT_SCHED_CONTEXT_SWITCH:
		ret = set_cpu(c, h, FXT_SCHED_CPU_SHIFT, FXT_SCHED_CPU_WIDTH);
		map_time(c, h, rec);
		map_koid(c, h);
		map_koid(c, h);
		map_args(c, h, nargs);
		return ret;
	default:	/* the reader hands out no other */
		ret = set_cpu(c, h, FXT_SCHED_CPU_SHIFT, FXT_SCHED_CPU_WIDTH);
		map_time(c, h, rec);
		map_koid(c, h);
		map_args(c, h, nargs);
		return ret;
	}
}

/*
 * A sample's "stack" argument (args at c: checked by map_args already)
 * into the output's id space; the sample is left out when it has none.
 */
static void map_stack_arg(struct cursor *c, struct merge_host *h,
			  const struct fxt_record *rec)
{
	unsigned int i;
	uint32_t id;

	for (i = 0; i < rec->nargs && i < FXT_MAX_ARGS && c->i; i++) {
		uint64_t a = c->w[c->i], size = FXT_GET(a, FXT_ARG_SIZE);

		if (fxt_str_is(rec->args[i].name, "stack") &&
		    FXT_GET(a, FXT_ARG_TYPE) == FXT_ARG_UINT64 &&
		    cursor_ok(c, size) && size >= 2) {
			if (merge_stack_id(&h->stack_ids, MERGE_STACK_STACKS,
					   c->w[c->i + size - 1], &id))
				c->w[c->i + size - 1] = id;
			else
				c->leave_out = true;
			return;
		}
		skip(c, size);
	}
}

static void map_large_blob(struct cursor *c, struct merge_host *h,
			   const struct fxt_record *rec)
{
	struct cursor args;
	bool offcpu;
	uint64_t f;

	if (!rec->large_blob.has_metadata || !cursor_ok(c, 1))
		return;
	f = c->w[c->i];
	skip(c, 1);
	skip_string(c, FXT_GET(f, FXT_LBLOB_CATEGORY));
	skip_string(c, FXT_GET(f, FXT_LBLOB_NAME));
	map_time(c, h, rec);
	map_thread(c, h, FXT_GET(f, FXT_LBLOB_THREAD));
	args = *c;
	map_args(c, h, (unsigned int)FXT_GET(f, FXT_LBLOB_NARGS));
	if (c->i && stack_tables_is_sample(rec, &offcpu))
		map_stack_arg(&args, h, rec);
}

static void map_userspace_object(struct cursor *c, struct merge_host *h)
{
	uint64_t hdr = c->w[0];

	skip(c, 1);	/* the pointer */
	if (FXT_GET(hdr, FXT_UOBJ_PROCESS) == FXT_THREAD_REF_INLINE)
		map_koid(c, h);
	skip_string(c, FXT_GET(hdr, FXT_UOBJ_NAME));
	map_args(c, h, (unsigned int)FXT_GET(hdr, FXT_UOBJ_NARGS));
}

static void map_kernel_object(struct cursor *c, struct merge_host *h)
{
	uint64_t hdr = c->w[0];

	map_koid(c, h);
	skip_string(c, FXT_GET(hdr, FXT_KOBJ_NAME));
	map_args(c, h, (unsigned int)FXT_GET(hdr, FXT_KOBJ_NARGS));
}

/* The words of the record rewritten in place: 0, or -errno. */
static int map_words(struct cursor *c, struct merge_host *h,
		     const struct fxt_record *rec)
{
	int ret;

	switch (rec->type) {
	case FXT_RECORD_THREAD:
		map_koid(c, h);
		map_koid(c, h);
		break;
	case FXT_RECORD_EVENT:
		map_event(c, h, rec);
		break;
	case FXT_RECORD_USERSPACE_OBJECT:
		map_userspace_object(c, h);
		break;
	case FXT_RECORD_KERNEL_OBJECT:
		map_kernel_object(c, h);
		break;
	case FXT_RECORD_SCHEDULING:
		ret = map_sched(c, h, rec);
		if (ret)
			return ret;
		break;
	case FXT_RECORD_LOG:
		map_time(c, h, rec);
		map_thread(c, h, FXT_GET(c->w[0], FXT_LOG_THREAD));
		break;
	case FXT_RECORD_LARGE:
		map_large_blob(c, h, rec);
		break;
	default:	/* strings, blobs: nothing to map */
		break;
	}
	return c->i ? 0 : -EBADMSG;
}

/* Room for words in o->scratch: 0 or -ENOMEM. */
static int scratch_room(struct merge_out *o, uint64_t words)
{
	uint64_t *s;

	if (words <= o->scratch_words)
		return 0;
	s = realloc(o->scratch, words * FXT_WORD_BYTES);
	if (!s)
		return -ENOMEM;
	o->scratch = s;
	o->scratch_words = words;
	return 0;
}

static int copy_mapped(struct merge_out *o, struct merge_host *h,
		       const struct fxt_record *rec)
{
	struct cursor c = { .n = rec->size_words, .i = 1 };
	size_t bytes = rec->size_words * FXT_WORD_BYTES;
	int ret = scratch_room(o, rec->size_words);

	if (ret)
		return ret;
	c.w = o->scratch;
	memcpy(c.w, rec->words, bytes);
	ret = map_words(&c, h, rec);
	if (!ret && c.leave_out) {
		h->stack_ids.lost++;
		return 0;
	}
	return ret ? ret : fxt_write_raw(&o->w, c.w, bytes);
}

/*
 * "host/name" in buf, at most max bytes (>= 255), cut before a UTF-8
 * sequence it would split: its length.
 */
static size_t prefixed(char *buf, size_t max, const char *host,
		       struct fxt_str name)
{
	size_t hl = strlen(host), keep = name.len;

	memcpy(buf, host, hl);
	buf[hl++] = '/';
	if (keep > max - hl) {
		keep = max - hl;
		while (keep && ((unsigned char)name.data[keep] & 0xc0) == 0x80)
			keep--;
	}
	memcpy(buf + hl, name.data, keep);
	return hl + keep;
}

/*
 * Every input's providers are renamed, the manager's too: the merged
 * archive's host and clock records are its own (merge_mark.h).
 */
static int write_provider_info(struct merge_out *o, const struct merge_host *h,
			       const struct fxt_record *rec, uint32_t id)
{
	struct fxt_str n = rec->metadata.provider_name;
	char name[0xff];
	size_t len;

	len = prefixed(name, sizeof(name), h->name, n);
	return fxt_write_provider_info(&o->w, id, name, len);
}

static int write_metadata(struct merge_out *o, struct merge_host *h,
			  const struct fxt_record *rec)
{
	uint32_t id = 0;
	int ret;

	if (rec->metadata.type != FXT_METADATA_TRACE_INFO) {
		ret = merge_provider_id(h, rec->metadata.provider_id,
					&o->next_provider, &id);
		if (ret)
			return ret == -E2BIG ? -ENOSPC : ret;
	}
	switch (rec->metadata.type) {
	case FXT_METADATA_PROVIDER_INFO:
		return write_provider_info(o, h, rec, id);
	case FXT_METADATA_PROVIDER_SECTION:
		return fxt_write_provider_section(&o->w, id);
	case FXT_METADATA_PROVIDER_EVENT:
		if (rec->metadata.event_id == FXT_PROVIDER_EVENT_BUFFER_OVERFLOW)
			h->stats.buffer_overflows++;
		return fxt_write_provider_event(&o->w, id,
						rec->metadata.event_id);
	case FXT_METADATA_TRACE_INFO:
		/* the output starts with its own magic number record */
		if (rec->metadata.trace_info_type == FXT_TRACE_INFO_MAGIC_NUMBER)
			return 0;
		return fxt_write_raw(&o->w, rec->words,
				     rec->size_words * FXT_WORD_BYTES);
	default:
		return -EBADMSG;
	}
}

/* A process: its name prefixed, inline; the arguments as they were. */
static int write_process(struct merge_out *o, struct merge_host *h,
			 const struct fxt_record *rec)
{
	uint64_t hdr = rec->words[0];
	uint64_t args_at = 2 + fxt_string_ref_words(FXT_GET(hdr, FXT_KOBJ_NAME));
	uint64_t args_words, words;
	char name[MERGE_PROCESS_NAME_MAX];
	struct cursor c = { .i = 2 };
	size_t len, max;

	if (args_at > rec->size_words)
		return -EBADMSG;
	args_words = rec->size_words - args_at;
	max = (FXT_RECORD_MAX_WORDS - 2 - args_words) * FXT_WORD_BYTES;
	if (max < 0xff)	/* arguments fill the record: the name stays */
		return copy_mapped(o, h, rec);
	len = prefixed(name, max < sizeof(name) ? max : sizeof(name), h->name,
		       rec->kernel_object.name);
	words = 2 + fxt_words((uint32_t)len);
	c.n = words + args_words;
	if (scratch_room(o, c.n))
		return -ENOMEM;
	c.w = o->scratch;
	c.w[0] = fxt_object_header(FXT_RECORD_KERNEL_OBJECT, (uint32_t)c.n,
				   FXT_ZX_OBJ_PROCESS,
				   fxt_string_ref_inline((uint16_t)len),
				   (unsigned int)FXT_GET(hdr, FXT_KOBJ_NARGS));
	c.w[1] = merge_koid(h, rec->kernel_object.koid);
	c.w[words - 1] = 0;	/* the name's padding */
	memcpy(&c.w[2], name, len);
	memcpy(&c.w[words], &rec->words[args_at], args_words * FXT_WORD_BYTES);
	c.i = words;
	map_args(&c, h, (unsigned int)FXT_GET(hdr, FXT_KOBJ_NARGS));
	if (!c.i)
		return -EBADMSG;
	return fxt_write_raw(&o->w, c.w, c.n * FXT_WORD_BYTES);
}

/* A stack table's ids moved (merge_stacks.h); other blobs as they are. */
static int write_blob(struct merge_out *o, struct merge_host *h,
		      const struct fxt_record *rec)
{
	size_t words;

	if (scratch_room(o, rec->size_words))
		return -ENOMEM;
	words = merge_stack_table(&h->stack_ids, rec, o->scratch);
	if (!words)
		return fxt_write_raw(&o->w, rec->words,
				     rec->size_words * FXT_WORD_BYTES);
	return fxt_write_raw(&o->w, o->scratch, words * FXT_WORD_BYTES);
}

int merge_out_begin_host(struct merge_out *o, struct merge_host *h)
{
	uint32_t id;
	int ret = merge_provider_id(h, 0, &o->next_provider, &id);

	if (ret)
		return ret;
	merge_perfetto_begin(&o->perfetto, h);
	return fxt_write_provider_info(&o->w, id, h->name, strlen(h->name)) ?:
	       fxt_write_provider_section(&o->w, id) ?:
	       fxt_write_init(&o->w, NS_PER_SECOND);
}

int merge_out_record(struct merge_out *o, struct merge_host *h,
		     const struct fxt_record *rec)
{
	size_t bytes = rec->size_words * FXT_WORD_BYTES;

	h->stats.records++;
	h->stats.bytes = fxt_sat_add(h->stats.bytes, bytes);
	switch (rec->type) {
	case FXT_RECORD_METADATA:
		return write_metadata(o, h, rec);
	case FXT_RECORD_INITIALIZATION:
		/* times are written in ns */
		return fxt_write_init(&o->w, NS_PER_SECOND);
	case FXT_RECORD_STRING:
		return fxt_write_raw(&o->w, rec->words, bytes);
	case FXT_RECORD_BLOB:
		if (rec->blob.blob_type == FXT_BLOB_PERFETTO)
			return merge_perfetto_take(&o->perfetto, &o->w,
						   rec->blob.payload,
						   rec->blob.payload_len);
		return write_blob(o, h, rec);
	case FXT_RECORD_KERNEL_OBJECT:
		if (rec->kernel_object.obj_type == FXT_ZX_OBJ_PROCESS)
			return write_process(o, h, rec);
		return copy_mapped(o, h, rec);
	default:
		return copy_mapped(o, h, rec);
	}
}

int merge_out_end_host(struct merge_out *o)
{
	return merge_perfetto_end(&o->perfetto, &o->w);
}

void merge_out_release(struct merge_out *o)
{
	merge_perfetto_release(&o->perfetto);
	fxt_writer_release(&o->w);
	free(o->scratch);
	o->scratch = NULL;
	o->scratch_words = 0;
}
