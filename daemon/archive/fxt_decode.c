// SPDX-License-Identifier: GPL-2.0-only
/*
 * The decoder: see fxt_decode.h.
 *
 * Decoding a record never allocates: strings point into the record or
 * into the provider's string table, which is copied only when a string
 * record (re)assigns an index.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "fxt_decode.h"
#include "utf8.h"

/* Decoding state of one record: its words and a cursor over them. */
struct cursor {
	struct fxt_reader *r;
	const uint64_t *w;
	uint64_t n;
	uint64_t i;
	bool bad;		/* malformed: skip the record */
};

static const char *const empty_string = "";

/* ---- diagnostics ---------------------------------------------------- */

__attribute__((format(printf, 3, 4))) static void
report_nonconforming(struct fxt_reader *r, uint64_t offset, const char *fmt,
		     ...)
{
	va_list ap;

	va_start(ap, fmt);
	fxt_reader_vreport(r, FXT_DIAG_NONCONFORMING, offset, fmt, ap);
	va_end(ap);
}

/*
 * Several nonconformities of one record count once; each is still
 * reported so that the reason is visible. Counted in line: a provider
 * buffer's events refer to tables its walk does not hold, several times
 * a record, and nobody listens to the reasons there.
 */
#define nonconforming(c, offset, ...)                                        \
	do {                                                                 \
		struct fxt_reader *r_ = (c)->r;                              \
                                                                             \
		if (!r_->rec_nonconforming) {                                \
			r_->rec_nonconforming = true;                        \
			r_->stats.nonconforming++;                           \
		}                                                            \
		if (r_->opt.diag)                                            \
			report_nonconforming(r_, offset, __VA_ARGS__);       \
	} while (0)

__attribute__((format(printf, 3, 4))) static void
malformed(struct cursor *c, uint64_t offset, const char *fmt, ...)
{
	struct fxt_reader *r = c->r;
	va_list ap;

	if (c->bad)
		return;
	c->bad = true;
	r->stats.malformed++;
	if (!r->opt.diag)
		return;
	va_start(ap, fmt);
	fxt_reader_vreport(r, FXT_DIAG_MALFORMED, offset, fmt, ap);
	va_end(ap);
}


/* ---- cursor --------------------------------------------------------- */

static uint64_t cur_offset(const struct cursor *c)
{
	return c->r->rec_offset + c->i * FXT_WORD_BYTES;
}

static uint64_t take_word(struct cursor *c, const char *what)
{
	if (c->bad)
		return 0;
	if (c->i >= c->n) {
		malformed(c, c->r->rec_offset,
			  "record of %" PRIu64 " words ends before its %s",
			  c->n, what);
		return 0;
	}
	return c->w[c->i++];
}

static struct fxt_str take_stream(struct cursor *c, uint32_t len,
				  const char *what)
{
	uint32_t words = fxt_words(len);
	struct fxt_str s = { empty_string, 0 };

	if (c->bad)
		return s;
	if (c->n - c->i < words) {
		malformed(c, c->r->rec_offset,
			  "%s of %" PRIu32 " bytes runs past the end of its record",
			  what, len);
		return s;
	}
	s.data = (const char *)&c->w[c->i];
	s.len = len;
	c->i += words;
	return s;
}

static void check_utf8(struct cursor *c, struct fxt_str s, uint64_t offset,
		       const char *what)
{
	if (!c->bad && !fxt_utf8_valid(s.data, s.len))
		nonconforming(c, offset, "%s is not valid UTF-8", what);
}

/* A string ref's string: from the stream that follows, or the table. */
static struct fxt_str take_string(struct cursor *c, uint16_t ref,
				  const char *what)
{
	struct fxt_str s = { empty_string, 0 };
	const struct fxt_string_slot *slot;
	struct provider_state *p;
	uint64_t offset;

	if (ref == FXT_STRING_REF_EMPTY)
		return s;
	if (fxt_string_ref_is_inline(ref)) {
		offset = cur_offset(c);
		s = take_stream(c, ref & FXT_STRING_INDEX_MAX, what);
		check_utf8(c, s, offset, what);
		return s;
	}
	p = current_provider(c->r);
	slot = p ? fxt_tables_string(&p->tables, ref) : NULL;
	if (!slot) {
		nonconforming(c, c->r->rec_offset,
			      "%s refers to string index %u, which has no string record",
			      what, ref);
		return s;
	}
	s.data = slot->len ? slot->data : empty_string;
	s.len = slot->len;
	return s;
}

/* A thread ref's koids: inline words that follow, or the table. */
static struct fxt_thread_id take_thread(struct cursor *c, uint8_t ref,
					const char *what)
{
	struct fxt_thread_id t = { 0, 0 };
	const struct fxt_thread_id *known;
	struct provider_state *p;

	if (ref == FXT_THREAD_REF_INLINE) {
		t.pid = take_word(c, what);
		t.tid = take_word(c, what);
		return t;
	}
	p = current_provider(c->r);
	known = p ? fxt_tables_thread(&p->tables, ref) : NULL;
	if (!known) {
		nonconforming(c, c->r->rec_offset,
			      "%s refers to thread index %u, which has no thread record",
			      what, ref);
		return t;
	}
	return *known;
}

static void check_reserved(struct cursor *c, uint64_t word, uint64_t used,
			   uint64_t offset, const char *what)
{
	uint64_t extra = word & ~used;

	if (extra)
		nonconforming(c, offset,
			      "reserved bits 0x%016" PRIx64 " of the %s are set",
			      extra, what);
}

/* Bits [lo..hi] inclusive, as the spec writes fields. */
static inline uint64_t bits(unsigned int lo, unsigned int hi)
{
	return fxt_mask(hi - lo + 1) << lo;
}

static void check_leftover(struct cursor *c, const char *what)
{
	if (!c->bad && c->i < c->n)
		nonconforming(c, cur_offset(c),
			      "%" PRIu64 " words after the last field of the %s",
			      c->n - c->i, what);
}

/* ---- arguments ------------------------------------------------------ */

static uint64_t arg_reserved_mask(enum fxt_arg_type type)
{
	switch (type) {
	case FXT_ARG_INT32:
	case FXT_ARG_UINT32:
		return ~0ull;
	case FXT_ARG_STRING:
		return bits(0, 47);
	case FXT_ARG_BOOL:
		return bits(0, 32);
	default:
		return bits(0, 31);
	}
}

static void decode_arg_value(struct cursor *c, struct fxt_arg *a,
			     uint64_t header)
{
	uint32_t value32 = (uint32_t)FXT_GET(header, FXT_ARG_VALUE32);
	uint64_t word;

	switch (a->type) {
	case FXT_ARG_NULL:
		break;
	case FXT_ARG_INT32:
		a->value.i32 = (int32_t)value32;
		break;
	case FXT_ARG_UINT32:
		a->value.u32 = value32;
		break;
	case FXT_ARG_BOOL:
		a->value.b = value32 & 1;
		break;
	case FXT_ARG_STRING:
		a->value.str = take_string(
			c, (uint16_t)FXT_GET(header, FXT_ARG_STRING_VALUE),
			"string argument value");
		break;
	case FXT_ARG_DOUBLE:
		word = take_word(c, "argument value");
		memcpy(&a->value.f64, &word, sizeof(word));
		break;
	default:	/* the 64-bit integer kinds share one word */
		a->value.u64 = take_word(c, "argument value");
		break;
	}
}

/*
 * Decodes nargs arguments from the cursor into rec->args. Arguments of
 * unknown types are skipped by their size and not returned.
 */
static void take_args(struct cursor *c, struct fxt_record *rec,
		      unsigned int nargs)
{
	unsigned int i;

	rec->nargs = 0;
	for (i = 0; i < nargs && !c->bad; i++) {
		uint64_t offset = cur_offset(c);
		uint64_t header = take_word(c, "argument header");
		uint64_t size = FXT_GET(header, FXT_ARG_SIZE);
		enum fxt_arg_type type = FXT_GET(header, FXT_ARG_TYPE);
		uint64_t start = c->i - 1;
		struct cursor sub;
		struct fxt_arg *a;

		if (c->bad)
			return;
		if (!size) {
			malformed(c, offset, "argument %u has size 0", i + 1);
			return;
		}
		if (size > c->n - start) {
			malformed(c, offset,
				  "argument %u of %" PRIu64
				  " words runs past the end of the record",
				  i + 1, size);
			return;
		}
		c->i = start + size;
		if ((unsigned int)type > FXT_ARG_TYPE_MAX) {
			fxt_reader_diag(c->r, FXT_DIAG_UNKNOWN, offset,
					"argument %u has unknown type %u; skipped", i + 1,
					(unsigned int)type);
			continue;
		}
		/* the argument's own words, so nothing reads past its size */
		sub = (struct cursor){ c->r, c->w, start + size, start + 1, false };
		a = &rec->args[rec->nargs];
		a->type = type;
		a->name = take_string(&sub, (uint16_t)FXT_GET(header, FXT_ARG_NAME),
				      "argument name");
		decode_arg_value(&sub, a, header);
		if (sub.bad) {
			c->bad = true;
			return;
		}
		check_reserved(c, header, arg_reserved_mask(type), offset,
			       "argument header");
		if (sub.i < sub.n)
			nonconforming(c, offset,
				      "argument %u is %" PRIu64
				      " words longer than its type needs",
				      i + 1, sub.n - sub.i);
		rec->nargs++;
	}
}

/* ---- records -------------------------------------------------------- */

static void decode_provider_info(struct cursor *c, struct fxt_record *rec,
				 uint64_t h)
{
	uint32_t len = (uint32_t)FXT_GET(h, FXT_META_NAME_LEN);
	uint32_t id = (uint32_t)FXT_GET(h, FXT_META_PROVIDER_ID);
	struct provider_state *p;
	struct fxt_str name;

	check_reserved(c, h, bits(0, 59), c->r->rec_offset,
		       "provider info header");
	name = take_stream(c, len, "provider name");
	check_utf8(c, name, c->r->rec_offset + 8, "provider name");
	check_leftover(c, "provider info record");
	if (c->bad)
		return;
	p = fxt_provider_state_get(c->r, id, c->r->rec_offset);
	if (!p) {
		c->r->io_error = -ENOMEM;
		return;
	}
	/* A provider info record registers the provider afresh. */
	fxt_provider_state_reset(p);
	memcpy(p->name, name.data, len);
	p->name[len] = 0;
	p->pub.name.len = len;
	c->r->current = p;
	rec->metadata.provider_id = id;
	rec->metadata.provider_name = (struct fxt_str){ p->name, len };
}

static void decode_trace_info(struct cursor *c, struct fxt_record *rec,
			      uint64_t h)
{
	rec->metadata.trace_info_type =
		(unsigned int)FXT_GET(h, FXT_META_TRACE_INFO_TYPE);
	rec->metadata.magic = (uint32_t)FXT_GET(h, FXT_META_MAGIC);
	if (rec->metadata.magic != FXT_MAGIC_NUMBER)
		nonconforming(c, c->r->rec_offset,
			      "magic number record holds 0x%08" PRIx32
			      ", not 0x%08x",
			      rec->metadata.magic, FXT_MAGIC_NUMBER);
	check_reserved(c, h, bits(0, 55), c->r->rec_offset,
		       "magic number record");
	if (c->n != 1)
		nonconforming(c, c->r->rec_offset,
			      "magic number record has %" PRIu64
			      " words; it must have exactly 1",
			      c->n);
	c->i = c->n;
	c->r->stats.magic_seen = true;
}

/* Returns false for unknown metadata kinds, which are skipped. */
static bool decode_metadata(struct cursor *c, struct fxt_record *rec,
			    uint64_t h)
{
	struct fxt_reader *r = c->r;
	struct provider_state *p;

	rec->metadata.type = FXT_GET(h, FXT_META_TYPE);
	if (rec->metadata.type != FXT_METADATA_TRACE_INFO)
		rec->metadata.provider_id =
			(uint32_t)FXT_GET(h, FXT_META_PROVIDER_ID);
	switch (rec->metadata.type) {
	case FXT_METADATA_PROVIDER_INFO:
		decode_provider_info(c, rec, h);
		return true;
	case FXT_METADATA_PROVIDER_SECTION:
		check_reserved(c, h, bits(0, 51), r->rec_offset,
			       "provider section header");
		check_leftover(c, "provider section record");
		p = fxt_provider_state_get(r, rec->metadata.provider_id,
					   r->rec_offset);
		if (!p)
			r->io_error = -ENOMEM;
		else
			r->current = p;
		return true;
	case FXT_METADATA_PROVIDER_EVENT:
		check_reserved(c, h, bits(0, 55), r->rec_offset,
			       "provider event header");
		check_leftover(c, "provider event record");
		rec->metadata.event_id = (unsigned int)FXT_GET(h, FXT_META_EVENT_ID);
		return true;
	case FXT_METADATA_TRACE_INFO:
		if (FXT_GET(h, FXT_META_TRACE_INFO_TYPE) !=
		    FXT_TRACE_INFO_MAGIC_NUMBER) {
			fxt_reader_diag(
				r, FXT_DIAG_UNKNOWN, r->rec_offset,
				"trace info record of unknown type %u; skipped",
				(unsigned int)FXT_GET(h, FXT_META_TRACE_INFO_TYPE));
			return false;
		}
		decode_trace_info(c, rec, h);
		return true;
	default:
		fxt_reader_diag(r, FXT_DIAG_UNKNOWN, r->rec_offset,
				"metadata record of unknown type %u; skipped",
				(unsigned int)rec->metadata.type);
		return false;
	}
}

static void decode_init(struct cursor *c, struct fxt_record *rec, uint64_t h)
{
	struct provider_state *p;

	check_reserved(c, h, bits(0, 15), c->r->rec_offset,
		       "initialization header");
	rec->init.ticks_per_second = take_word(c, "ticks per second");
	check_leftover(c, "initialization record");
	if (c->bad)
		return;
	if (!rec->init.ticks_per_second) {
		nonconforming(c, c->r->rec_offset,
			      "0 ticks per second; keeping the previous rate");
		return;
	}
	p = current_provider(c->r);
	if (p)
		p->pub.ticks_per_second = rec->init.ticks_per_second;
}

/*
 * What storing a table entry returned: 0 stored, 1 dropped past the
 * tables' budget (counted; said once), -ENOMEM.
 */
static void table_stored(struct fxt_reader *r, int ret)
{
	if (ret < 0)
		r->io_error = ret;
	if (ret <= 0)
		return;
	if (!r->stats.table_entries_dropped++)
		fxt_reader_diag(r, FXT_DIAG_LIMIT, r->rec_offset,
				"the string and thread tables of all providers are at "
				"their %" PRIu64 "-byte limit: this entry and later ones "
				"that do not fit are dropped, references to them read as "
				"unset",
				r->tables.max);
}

static void decode_string(struct cursor *c, struct fxt_record *rec,
			  uint64_t h)
{
	struct provider_state *p;

	check_reserved(c, h, bits(0, 30) | bits(32, 46), c->r->rec_offset,
		       "string record header");
	rec->string.index = (uint16_t)FXT_GET(h, FXT_STRING_INDEX);
	rec->string.value = take_stream(c, (uint32_t)FXT_GET(h, FXT_STRING_LEN),
					"string");
	check_utf8(c, rec->string.value, c->r->rec_offset + 8, "string");
	check_leftover(c, "string record");
	if (c->bad)
		return;
	if (!rec->string.index) {
		nonconforming(c, c->r->rec_offset,
			      "string record for index 0 (the empty string); ignored");
		return;
	}
	p = current_provider(c->r);
	table_stored(c->r, p ? fxt_tables_set_string(&p->tables, &c->r->tables,
						     rec->string.index,
						     rec->string.value.data,
						     rec->string.value.len) :
			       -ENOMEM);
}

static void decode_thread(struct cursor *c, struct fxt_record *rec,
			  uint64_t h)
{
	struct provider_state *p;

	check_reserved(c, h, bits(0, 23), c->r->rec_offset,
		       "thread record header");
	rec->thread.index = (uint8_t)FXT_GET(h, FXT_THREAD_INDEX);
	rec->thread.thread.pid = take_word(c, "process koid");
	rec->thread.thread.tid = take_word(c, "thread koid");
	check_leftover(c, "thread record");
	if (c->bad)
		return;
	if (!rec->thread.index) {
		nonconforming(c, c->r->rec_offset,
			      "thread record for index 0 (inline threads); ignored");
		return;
	}
	p = current_provider(c->r);
	table_stored(c->r, p ? fxt_tables_set_thread(&p->tables, &c->r->tables,
						     rec->thread.index,
						     rec->thread.thread) :
			       -ENOMEM);
}

static const char *const event_extra_names[] = {
	[FXT_EVENT_COUNTER] = "counter id",
	[FXT_EVENT_DURATION_COMPLETE] = "end time",
	[FXT_EVENT_ASYNC_BEGIN] = "async correlation id",
	[FXT_EVENT_ASYNC_INSTANT] = "async correlation id",
	[FXT_EVENT_ASYNC_END] = "async correlation id",
	[FXT_EVENT_FLOW_BEGIN] = "flow correlation id",
	[FXT_EVENT_FLOW_STEP] = "flow correlation id",
	[FXT_EVENT_FLOW_END] = "flow correlation id",
};

static void decode_event_extra(struct cursor *c, struct fxt_record *rec)
{
	enum fxt_event_type type = rec->event.type;
	uint64_t scope;

	rec->event.scope = FXT_SCOPE_THREAD;
	switch (type) {
	case FXT_EVENT_INSTANT:
		if (c->bad || c->i >= c->n)
			return;
		scope = c->w[c->i++];
		if (scope > FXT_SCOPE_GLOBAL)
			nonconforming(c, cur_offset(c) - 8,
				      "instant event scope %" PRIu64
				      " is not 0 (thread), 1 (process) or 2 (global)",
				      scope);
		else
			rec->event.scope = scope;
		break;
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		break;
	default:
		rec->event.extra = take_word(c, event_extra_names[type]);
		break;
	}
}

/* Returns false for unknown event types, which are skipped. */
static bool decode_event(struct cursor *c, struct fxt_record *rec, uint64_t h)
{
	rec->event.type = FXT_GET(h, FXT_EVENT_TYPE);
	if ((unsigned int)rec->event.type > FXT_EVENT_TYPE_MAX) {
		fxt_reader_diag(c->r, FXT_DIAG_UNKNOWN, c->r->rec_offset,
				"event of unknown type %u; skipped",
				(unsigned int)rec->event.type);
		return false;
	}
	rec->event.ts = take_word(c, "timestamp");
	rec->event.thread = take_thread(
		c, (uint8_t)FXT_GET(h, FXT_EVENT_THREAD), "event thread");
	rec->event.category = take_string(
		c, (uint16_t)FXT_GET(h, FXT_EVENT_CATEGORY), "event category");
	rec->event.name = take_string(
		c, (uint16_t)FXT_GET(h, FXT_EVENT_NAME), "event name");
	take_args(c, rec, (unsigned int)FXT_GET(h, FXT_EVENT_NARGS));
	decode_event_extra(c, rec);
	check_leftover(c, "event record");
	return true;
}

static void decode_blob(struct cursor *c, struct fxt_record *rec, uint64_t h)
{
	struct fxt_str payload;

	check_reserved(c, h, bits(0, 46) | bits(48, 55), c->r->rec_offset,
		       "blob header");
	rec->blob.name = take_string(c, (uint16_t)FXT_GET(h, FXT_BLOB_NAME),
				     "blob name");
	rec->blob.blob_type = (unsigned int)FXT_GET(h, FXT_BLOB_TYPE);
	payload = take_stream(c, (uint32_t)FXT_GET(h, FXT_BLOB_SIZE),
			      "blob payload");
	rec->blob.payload = payload.data;
	rec->blob.payload_len = payload.len;
	check_leftover(c, "blob record");
}

static void decode_userspace_object(struct cursor *c, struct fxt_record *rec,
				    uint64_t h)
{
	uint8_t ref = (uint8_t)FXT_GET(h, FXT_UOBJ_PROCESS);

	check_reserved(c, h, bits(0, 43), c->r->rec_offset,
		       "userspace object header");
	rec->userspace_object.pointer = take_word(c, "pointer");
	if (ref == FXT_THREAD_REF_INLINE)
		rec->userspace_object.pid = take_word(c, "process koid");
	else
		rec->userspace_object.pid =
			take_thread(c, ref, "userspace object process").pid;
	rec->userspace_object.name = take_string(
		c, (uint16_t)FXT_GET(h, FXT_UOBJ_NAME), "userspace object name");
	take_args(c, rec, (unsigned int)FXT_GET(h, FXT_UOBJ_NARGS));
	check_leftover(c, "userspace object record");
}

/*
 * Arguments whose type consumers check: Perfetto drops a scheduling
 * record whose weight is not int32 or whose waker is not a koid, and
 * links a thread to its process only through a koid argument "process".
 */
struct typed_arg_rule {
	const char *name;
	enum fxt_arg_type type;
};

static const struct typed_arg_rule sched_arg_rules[] = {
	{ "incoming_weight", FXT_ARG_INT32 },
	{ "outgoing_weight", FXT_ARG_INT32 },
	{ "weight", FXT_ARG_INT32 },
	{ "waker", FXT_ARG_KOID },
	{ "process", FXT_ARG_KOID },
};

static void check_arg_types(struct cursor *c, const struct fxt_record *rec)
{
	const struct typed_arg_rule *rule;
	unsigned int i, j;

	for (i = 0; i < rec->nargs; i++) {
		const struct fxt_arg *a = &rec->args[i];

		for (j = 0; j < sizeof(sched_arg_rules) / sizeof(*rule); j++) {
			rule = &sched_arg_rules[j];
			if (a->name.len != strlen(rule->name) ||
			    memcmp(a->name.data, rule->name, a->name.len))
				continue;
			if (a->type != rule->type)
				nonconforming(c, c->r->rec_offset,
					      "argument \"%s\" is %s, must be %s",
					      rule->name,
					      fxt_arg_type_name(a->type),
					      fxt_arg_type_name(rule->type));
		}
	}
}

static void decode_kernel_object(struct cursor *c, struct fxt_record *rec,
				 uint64_t h)
{
	check_reserved(c, h, bits(0, 43), c->r->rec_offset,
		       "kernel object header");
	rec->kernel_object.obj_type = (unsigned int)FXT_GET(h, FXT_KOBJ_TYPE);
	rec->kernel_object.koid = take_word(c, "koid");
	rec->kernel_object.name = take_string(
		c, (uint16_t)FXT_GET(h, FXT_KOBJ_NAME), "kernel object name");
	take_args(c, rec, (unsigned int)FXT_GET(h, FXT_KOBJ_NARGS));
	check_arg_types(c, rec);
	check_leftover(c, "kernel object record");
}

static void decode_legacy_switch(struct cursor *c, struct fxt_record *rec,
				 uint64_t h)
{
	rec->sched.cpu = (unsigned int)FXT_GET(h, FXT_LEGACY_CS_CPU);
	rec->sched.out_state = (unsigned int)FXT_GET(h, FXT_LEGACY_CS_OUT_STATE);
	rec->sched.out_prio = (unsigned int)FXT_GET(h, FXT_LEGACY_CS_OUT_PRIO);
	rec->sched.in_prio = (unsigned int)FXT_GET(h, FXT_LEGACY_CS_IN_PRIO);
	rec->sched.ts = take_word(c, "timestamp");
	rec->sched.out_thread = take_thread(
		c, (uint8_t)FXT_GET(h, FXT_LEGACY_CS_OUT_THREAD),
		"outgoing thread");
	rec->sched.in_thread = take_thread(
		c, (uint8_t)FXT_GET(h, FXT_LEGACY_CS_IN_THREAD),
		"incoming thread");
	check_leftover(c, "legacy context switch record");
}

/* Returns false for unknown scheduling record types, which are skipped. */
static bool decode_sched(struct cursor *c, struct fxt_record *rec, uint64_t h)
{
	unsigned int nargs = (unsigned int)FXT_GET(h, FXT_SCHED_NARGS);

	rec->sched.type = FXT_GET(h, FXT_SCHED_TYPE);
	switch (rec->sched.type) {
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		decode_legacy_switch(c, rec, h);
		return true;
	case FXT_SCHED_CONTEXT_SWITCH:
		check_reserved(c, h, bits(0, 39) | bits(60, 63),
			       c->r->rec_offset, "context switch header");
		rec->sched.cpu = (unsigned int)FXT_GET(h, FXT_SCHED_CPU);
		rec->sched.out_state =
			(unsigned int)FXT_GET(h, FXT_SCHED_OUT_STATE);
		rec->sched.ts = take_word(c, "timestamp");
		rec->sched.out_thread.tid = take_word(c, "outgoing thread koid");
		rec->sched.in_thread.tid = take_word(c, "incoming thread koid");
		take_args(c, rec, nargs);
		check_arg_types(c, rec);
		check_leftover(c, "context switch record");
		return true;
	case FXT_SCHED_THREAD_WAKEUP:
		check_reserved(c, h, bits(0, 35) | bits(60, 63),
			       c->r->rec_offset, "thread wakeup header");
		rec->sched.cpu = (unsigned int)FXT_GET(h, FXT_SCHED_CPU);
		rec->sched.ts = take_word(c, "timestamp");
		rec->sched.woken.tid = take_word(c, "woken thread koid");
		take_args(c, rec, nargs);
		check_arg_types(c, rec);
		check_leftover(c, "thread wakeup record");
		return true;
	default:
		fxt_reader_diag(c->r, FXT_DIAG_UNKNOWN, c->r->rec_offset,
				"scheduling record of unknown type %u; skipped",
				(unsigned int)rec->sched.type);
		return false;
	}
}

static void decode_log(struct cursor *c, struct fxt_record *rec, uint64_t h)
{
	uint64_t offset;

	check_reserved(c, h, bits(0, 30) | bits(32, 39), c->r->rec_offset,
		       "log header");
	rec->log.ts = take_word(c, "timestamp");
	rec->log.thread = take_thread(c, (uint8_t)FXT_GET(h, FXT_LOG_THREAD),
				      "log thread");
	offset = cur_offset(c);
	rec->log.message = take_stream(c, (uint32_t)FXT_GET(h, FXT_LOG_LEN),
				       "log message");
	check_utf8(c, rec->log.message, offset, "log message");
	check_leftover(c, "log record");
}

static void take_large_payload(struct cursor *c, struct fxt_record *rec)
{
	uint64_t len = take_word(c, "blob size");

	if (c->bad)
		return;
	if (len > (c->n - c->i) * FXT_WORD_BYTES) {
		malformed(c, cur_offset(c) - 8,
			  "large blob payload of %" PRIu64
			  " bytes runs past the end of the record",
			  len);
		return;
	}
	rec->large_blob.payload = &c->w[c->i];
	rec->large_blob.payload_len = len;
	c->i += (len + FXT_WORD_BYTES - 1) / FXT_WORD_BYTES;
}

/* Returns false for unknown large record kinds, which are skipped. */
static bool decode_large(struct cursor *c, struct fxt_record *rec, uint64_t h)
{
	uint64_t fmt_offset = c->r->rec_offset + 8;
	uint64_t f;

	rec->large_blob.large_type = (unsigned int)FXT_GET(h, FXT_LARGE_TYPE);
	rec->large_blob.format = (unsigned int)FXT_GET(h, FXT_LARGE_BLOB_FORMAT);
	if (rec->large_blob.large_type != FXT_LARGE_BLOB ||
	    rec->large_blob.format > FXT_LARGE_BLOB_NO_METADATA) {
		fxt_reader_diag(c->r, FXT_DIAG_UNKNOWN, c->r->rec_offset,
				"large record of unknown type %u format %u; skipped",
				rec->large_blob.large_type,
				rec->large_blob.format);
		return false;
	}
	check_reserved(c, h, bits(0, 43), c->r->rec_offset, "large blob header");
	f = take_word(c, "format header");
	rec->large_blob.has_metadata =
		rec->large_blob.format == FXT_LARGE_BLOB_WITH_METADATA;
	rec->large_blob.category = take_string(
		c, (uint16_t)FXT_GET(f, FXT_LBLOB_CATEGORY), "blob category");
	rec->large_blob.name = take_string(
		c, (uint16_t)FXT_GET(f, FXT_LBLOB_NAME), "blob name");
	if (rec->large_blob.has_metadata) {
		check_reserved(c, f, bits(0, 43), fmt_offset,
			       "large blob format header");
		rec->large_blob.ts = take_word(c, "timestamp");
		rec->large_blob.thread = take_thread(
			c, (uint8_t)FXT_GET(f, FXT_LBLOB_THREAD), "blob thread");
		take_args(c, rec, (unsigned int)FXT_GET(f, FXT_LBLOB_NARGS));
	} else {
		check_reserved(c, f, bits(0, 31), fmt_offset,
			       "large blob format header");
	}
	take_large_payload(c, rec);
	check_leftover(c, "large blob record");
	return true;
}

bool fxt_decode_record(struct fxt_reader *r, struct fxt_record *rec,
		       const uint64_t *w, uint64_t size)
{
	struct cursor c = { r, w, size, 1, false };
	uint64_t h = w[0];
	bool known = true;

	rec->offset = r->rec_offset;
	rec->size_words = size;
	rec->words = w;
	rec->type = FXT_GET(h, FXT_HDR_TYPE);
	rec->nargs = 0;
	memset(&rec->metadata, 0, sizeof(*rec) - offsetof(struct fxt_record,
							  metadata));
	r->rec_nonconforming = false;

	switch (rec->type) {
	case FXT_RECORD_METADATA:
		if (r->opt.provider_buffer) {
			nonconforming(&c, r->rec_offset,
				      "metadata record in a provider buffer; skipped");
			return false;
		}
		known = decode_metadata(&c, rec, h);
		break;
	case FXT_RECORD_INITIALIZATION:
		decode_init(&c, rec, h);
		break;
	case FXT_RECORD_STRING:
		decode_string(&c, rec, h);
		break;
	case FXT_RECORD_THREAD:
		decode_thread(&c, rec, h);
		break;
	case FXT_RECORD_EVENT:
		known = decode_event(&c, rec, h);
		break;
	case FXT_RECORD_BLOB:
		decode_blob(&c, rec, h);
		break;
	case FXT_RECORD_USERSPACE_OBJECT:
		decode_userspace_object(&c, rec, h);
		break;
	case FXT_RECORD_KERNEL_OBJECT:
		decode_kernel_object(&c, rec, h);
		break;
	case FXT_RECORD_SCHEDULING:
		known = decode_sched(&c, rec, h);
		break;
	case FXT_RECORD_LOG:
		decode_log(&c, rec, h);
		break;
	case FXT_RECORD_LARGE:
		known = decode_large(&c, rec, h);
		break;
	default:
		fxt_reader_diag(r, FXT_DIAG_UNKNOWN, r->rec_offset,
				"record of unknown type %u (%" PRIu64 " bytes); skipped",
				(unsigned int)rec->type, size * FXT_WORD_BYTES);
		return false;
	}
	if (!known || c.bad)
		return false;
	rec->provider = r->current ? &r->current->pub : NULL;
	if (!rec->provider && rec->type != FXT_RECORD_METADATA) {
		struct provider_state *p = current_provider(r);

		rec->provider = p ? &p->pub : NULL;
	}
	return true;
}
