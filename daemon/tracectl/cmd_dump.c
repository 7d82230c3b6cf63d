// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl dump: one line per FXT record, then a summary by record type,
 * by provider and of every problem found. Lines are formatted by hand into
 * a large buffer: a full dump of a big archive is bound by formatting.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt_reader.h"
#include "text_out.h"
#include "tracectl.h"
#include "tracectl_input.h"
#include "tracectl_input_args.h"
#include "utf8.h"

#define OUT_BUFFER_SIZE (512u << 10)
#define BLOB_PREVIEW_BYTES 16u

struct provider_count {
	const struct fxt_provider *provider;
	uint64_t records;
	uint64_t overflows;	/* provider event: buffer overflow */
	bool recovered;		/* provider event: recovered after a restart */
};

struct dump {
	struct text_out out;
	bool summary_only;
	bool strict;
	bool provider_buffer;
	struct provider_count *counts;
	size_t ncounts;
	size_t counts_cap;
	struct provider_count *last;
	uint64_t overflows_unattributed;
	/* fxtrace's provider event 0/recovered: the manager restarted */
	bool trace_recovered;
};

/* ---- record fields -------------------------------------------------- */

/*
 * The inside of a quoted string: bytes that are not valid UTF-8 text
 * become \xNN, so no input can send control sequences to a terminal.
 */
static void out_escaped(struct text_out *o, struct fxt_str s)
{
	text_put_c_escaped(o, s.data, s.len, fxt_utf8_valid(s.data, s.len));
}

static void out_quoted(struct text_out *o, struct fxt_str s)
{
	text_put_char(o, '"');
	out_escaped(o, s);
	text_put_char(o, '"');
}

static void out_field_str(struct text_out *o, const char *key, struct fxt_str s)
{
	text_put_char(o, ' ');
	text_put_str(o, key);
	text_put_char(o, '=');
	out_quoted(o, s);
}

static void out_field_u64(struct text_out *o, const char *key, uint64_t v)
{
	text_put_char(o, ' ');
	text_put_str(o, key);
	text_put_char(o, '=');
	text_put_u64(o, v);
}

static void out_field_hex(struct text_out *o, const char *key, uint64_t v)
{
	text_put_char(o, ' ');
	text_put_str(o, key);
	text_put_char(o, '=');
	text_put_hex(o, v, 1);
}

static void out_thread(struct text_out *o, const char *key,
		       struct fxt_thread_id t)
{
	text_put_char(o, ' ');
	text_put_str(o, key);
	text_put_char(o, '=');
	text_put_u64(o, t.pid);
	text_put_char(o, '/');
	text_put_u64(o, t.tid);
}

/* Ticks, and nanoseconds too when the provider's ticks are not ns. */
static void out_ts(struct text_out *o, const char *key, uint64_t ticks,
		   const struct fxt_provider *p)
{
	out_field_u64(o, key, ticks);
	if (p && p->ticks_per_second != 1000000000ull) {
		text_put_str(o, " (");
		text_put_u64(o, fxt_ticks_to_ns(p, ticks));
		text_put_str(o, " ns)");
	}
}

/* %.17g, with ".0" where it would read as an integer (2.0, not 2). */
static void out_double(struct text_out *o, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.17g", v);
	text_put_str(o, buf);
	if (!strpbrk(buf, ".eEn"))	/* n: inf and nan */
		text_put_str(o, ".0");
}

static void out_typed(struct text_out *o, const char *type, uint64_t v,
		      bool hex, bool is_signed)
{
	text_put_str(o, type);
	text_put_char(o, '(');
	if (hex)
		text_put_hex(o, v, 1);
	else if (is_signed)
		text_put_i64(o, (int64_t)v);
	else
		text_put_u64(o, v);
	text_put_char(o, ')');
}

/*
 * name=value, one notation for all: the type is shown only where the
 * value alone does not tell it. Integers of any width are plain numbers,
 * a double always has a '.' or an exponent, strings are quoted; a koid
 * (an id, not a count) and a pointer are typed: koid(42), pointer(0x10).
 */
static void out_arg(struct text_out *o, const struct fxt_arg *a)
{
	text_put_char(o, ' ');
	out_escaped(o, a->name);
	text_put_char(o, '=');
	switch (a->type) {
	case FXT_ARG_NULL:
		text_put_str(o, "null");
		break;
	case FXT_ARG_INT32:
		text_put_i64(o, a->value.i32);
		break;
	case FXT_ARG_UINT32:
		text_put_u64(o, a->value.u32);
		break;
	case FXT_ARG_INT64:
		text_put_i64(o, a->value.i64);
		break;
	case FXT_ARG_UINT64:
		text_put_u64(o, a->value.u64);
		break;
	case FXT_ARG_DOUBLE:
		out_double(o, a->value.f64);
		break;
	case FXT_ARG_STRING:
		out_quoted(o, a->value.str);
		break;
	case FXT_ARG_POINTER:
		out_typed(o, "pointer", a->value.pointer, true, false);
		break;
	case FXT_ARG_KOID:
		out_typed(o, "koid", a->value.koid, false, false);
		break;
	case FXT_ARG_BOOL:
		text_put_str(o, a->value.b ? "true" : "false");
		break;
	}
}

static void out_args(struct text_out *o, const struct fxt_record *rec)
{
	unsigned int i;

	for (i = 0; i < rec->nargs; i++)
		out_arg(o, &rec->args[i]);
}

static void out_bytes(struct text_out *o, const void *data, uint64_t len)
{
	const unsigned char *p = data;
	uint64_t i, n = len < BLOB_PREVIEW_BYTES ? len : BLOB_PREVIEW_BYTES;

	out_field_u64(o, "size", len);
	if (!n)
		return;
	text_put_str(o, " bytes:");
	for (i = 0; i < n; i++)
		text_put_printf(o, " %02x", p[i]);
	if (n < len)
		text_put_str(o, " ...");
}

static void out_kind(struct text_out *o, const char *kind)
{
	size_t n = strlen(kind);

	text_put_mem(o, kind, n);
	while (n++ < 18)
		text_put_char(o, ' ');
}

static void dump_metadata(struct text_out *o, const struct fxt_record *rec)
{
	switch (rec->metadata.type) {
	case FXT_METADATA_PROVIDER_INFO:
		out_kind(o, "provider_info");
		out_field_u64(o, "id", rec->metadata.provider_id);
		out_field_str(o, "name", rec->metadata.provider_name);
		break;
	case FXT_METADATA_PROVIDER_SECTION:
		out_kind(o, "provider_section");
		out_field_u64(o, "id", rec->metadata.provider_id);
		break;
	case FXT_METADATA_PROVIDER_EVENT:
		out_kind(o, "provider_event");
		out_field_u64(o, "id", rec->metadata.provider_id);
		if (rec->metadata.event_id == FXT_PROVIDER_EVENT_BUFFER_OVERFLOW)
			text_put_str(o,
				     " buffer_overflow (records were dropped)");
		else if (rec->metadata.event_id == FXT_PROVIDER_EVENT_RECOVERED)
			text_put_str(o,
				     " recovered (fxtraced restarted during the trace; the records were kept)");
		else
			out_field_u64(o, "event", rec->metadata.event_id);
		break;
	case FXT_METADATA_TRACE_INFO:
		out_kind(o, "magic");
		text_put_char(o, ' ');
		text_put_hex(o, rec->metadata.magic, 8);
		break;
	}
}

static const char *const scope_names[] = { "thread", "process", "global" };

static void dump_event(struct text_out *o, const struct fxt_record *rec)
{
	const struct fxt_provider *p = rec->provider;

	out_kind(o, fxt_event_type_name(rec->event.type));
	out_ts(o, "ts", rec->event.ts, p);
	out_thread(o, "thread", rec->event.thread);
	out_field_str(o, "category", rec->event.category);
	out_field_str(o, "name", rec->event.name);
	switch (rec->event.type) {
	case FXT_EVENT_INSTANT:
		if (rec->event.scope != FXT_SCOPE_THREAD)
			text_put_printf(o, " scope=%s",
					scope_names[rec->event.scope]);
		break;
	case FXT_EVENT_DURATION_COMPLETE:
		out_ts(o, "end_ts", rec->event.extra, p);
		break;
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
		break;
	default:
		out_field_u64(o, "id", rec->event.extra);
		break;
	}
	out_args(o, rec);
}

static void out_state(struct text_out *o, unsigned int state)
{
	text_put_char(o, ' ');
	text_put_str(o, fxt_thread_state_name(state));
	if (state > FXT_THREAD_DEAD)
		text_put_printf(o, "(%u)", state);
}

/*
 * " (idle)" after a tid of 0 or one the switch gives Perfetto's idle
 * weight INT32_MIN (in argument weight, e.g. "incoming_weight"): each
 * CPU's idle thread, named for the reader.
 */
static void out_idle(struct text_out *o, const struct fxt_record *rec,
		     uint64_t tid, const char *weight)
{
	const struct fxt_arg *w = fxt_record_arg(rec, weight, strlen(weight));

	if (!tid || (w && w->type == FXT_ARG_INT32 &&
		     w->value.i32 == INT32_MIN))
		text_put_str(o, " (idle)");
}

static void dump_sched(struct text_out *o, const struct fxt_record *rec)
{
	switch (rec->sched.type) {
	case FXT_SCHED_CONTEXT_SWITCH:
		out_kind(o, "context_switch");
		out_ts(o, "ts", rec->sched.ts, rec->provider);
		out_field_u64(o, "cpu", rec->sched.cpu);
		out_field_u64(o, "out_tid", rec->sched.out_thread.tid);
		out_idle(o, rec, rec->sched.out_thread.tid, "outgoing_weight");
		out_state(o, rec->sched.out_state);
		out_field_u64(o, "in_tid", rec->sched.in_thread.tid);
		out_idle(o, rec, rec->sched.in_thread.tid, "incoming_weight");
		break;
	case FXT_SCHED_THREAD_WAKEUP:
		out_kind(o, "thread_wakeup");
		out_ts(o, "ts", rec->sched.ts, rec->provider);
		out_field_u64(o, "cpu", rec->sched.cpu);
		out_field_u64(o, "tid", rec->sched.woken.tid);
		break;
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		out_kind(o, "legacy_switch");
		out_ts(o, "ts", rec->sched.ts, rec->provider);
		out_field_u64(o, "cpu", rec->sched.cpu);
		out_thread(o, "out", rec->sched.out_thread);
		out_state(o, rec->sched.out_state);
		out_field_u64(o, "out_prio", rec->sched.out_prio);
		out_thread(o, "in", rec->sched.in_thread);
		out_field_u64(o, "in_prio", rec->sched.in_prio);
		break;
	}
	out_args(o, rec);
}

static void out_obj_type(struct text_out *o, unsigned int type)
{
	if (type == FXT_ZX_OBJ_PROCESS)
		text_put_str(o, " type=process");
	else if (type == FXT_ZX_OBJ_THREAD)
		text_put_str(o, " type=thread");
	else
		out_field_u64(o, "type", type);
}

static void dump_blob(struct text_out *o, const struct fxt_record *rec)
{
	const char *type = fxt_blob_type_name(rec->blob.blob_type);

	out_kind(o, "blob");
	out_field_str(o, "name", rec->blob.name);
	if (strcmp(type, "unknown"))
		text_put_printf(o, " type=%s", type);
	else
		out_field_u64(o, "type", rec->blob.blob_type);
	out_bytes(o, rec->blob.payload, rec->blob.payload_len);
}

static void dump_large_blob(struct text_out *o, const struct fxt_record *rec)
{
	out_kind(o, "large_blob");
	out_field_str(o, "category", rec->large_blob.category);
	out_field_str(o, "name", rec->large_blob.name);
	if (rec->large_blob.has_metadata) {
		out_ts(o, "ts", rec->large_blob.ts, rec->provider);
		out_thread(o, "thread", rec->large_blob.thread);
		out_args(o, rec);
	}
	out_bytes(o, rec->large_blob.payload, rec->large_blob.payload_len);
}

static void dump_record(struct text_out *o, const struct fxt_record *rec)
{
	text_put_hex(o, rec->offset, 8);
	text_put_str(o, "  ");
	switch (rec->type) {
	case FXT_RECORD_METADATA:
		dump_metadata(o, rec);
		break;
	case FXT_RECORD_INITIALIZATION:
		out_kind(o, "initialization");
		out_field_u64(o, "ticks_per_second", rec->init.ticks_per_second);
		break;
	case FXT_RECORD_STRING:
		out_kind(o, "string");
		text_put_printf(o, " #%u ", rec->string.index);
		out_quoted(o, rec->string.value);
		break;
	case FXT_RECORD_THREAD:
		out_kind(o, "thread");
		text_put_printf(o, " #%u", rec->thread.index);
		out_thread(o, "thread", rec->thread.thread);
		break;
	case FXT_RECORD_EVENT:
		dump_event(o, rec);
		break;
	case FXT_RECORD_BLOB:
		dump_blob(o, rec);
		break;
	case FXT_RECORD_USERSPACE_OBJECT:
		out_kind(o, "userspace_object");
		out_field_hex(o, "pointer", rec->userspace_object.pointer);
		out_field_u64(o, "pid", rec->userspace_object.pid);
		out_field_str(o, "name", rec->userspace_object.name);
		out_args(o, rec);
		break;
	case FXT_RECORD_KERNEL_OBJECT:
		out_kind(o, "kernel_object");
		out_obj_type(o, rec->kernel_object.obj_type);
		out_field_u64(o, "koid", rec->kernel_object.koid);
		out_field_str(o, "name", rec->kernel_object.name);
		out_args(o, rec);
		break;
	case FXT_RECORD_SCHEDULING:
		dump_sched(o, rec);
		break;
	case FXT_RECORD_LOG:
		out_kind(o, "log");
		out_ts(o, "ts", rec->log.ts, rec->provider);
		out_thread(o, "thread", rec->log.thread);
		text_put_char(o, ' ');
		out_quoted(o, rec->log.message);
		break;
	case FXT_RECORD_LARGE:
		dump_large_blob(o, rec);
		break;
	}
	text_put_char(o, '\n');
}

/* ---- counting ------------------------------------------------------- */

static struct provider_count *count_for(struct dump *d,
					const struct fxt_provider *p)
{
	size_t i;

	if (d->last && d->last->provider == p)
		return d->last;
	for (i = 0; i < d->ncounts; i++)
		if (d->counts[i].provider == p)
			return d->last = &d->counts[i];
	if (d->ncounts == d->counts_cap) {
		size_t cap = d->counts_cap ? d->counts_cap * 2 : 16;
		struct provider_count *v =
			realloc(d->counts, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->counts = v;
		d->counts_cap = cap;
		d->last = NULL;
	}
	d->counts[d->ncounts] = (struct provider_count){ .provider = p };
	return d->last = &d->counts[d->ncounts++];
}

/* A provider event names its provider by id, wherever it appears. */
static void count_provider_event(struct dump *d, const struct fxt_reader *r,
				 uint32_t provider_id, unsigned int event)
{
	struct provider_count *c = NULL;
	size_t i;

	for (i = 0; i < fxt_reader_provider_count(r); i++)
		if (fxt_reader_provider(r, i)->id == provider_id)
			c = count_for(d, fxt_reader_provider(r, i));
	if (event == FXT_PROVIDER_EVENT_RECOVERED) {
		if (c)
			c->recovered = true;
		else
			d->trace_recovered = true;
	} else if (event == FXT_PROVIDER_EVENT_BUFFER_OVERFLOW) {
		if (c)
			c->overflows++;
		else
			d->overflows_unattributed++;
	}
}

static void count_record(struct dump *d, const struct fxt_reader *r,
			 const struct fxt_record *rec)
{
	struct provider_count *c;

	if (rec->type == FXT_RECORD_METADATA &&
	    rec->metadata.type == FXT_METADATA_PROVIDER_EVENT)
		count_provider_event(d, r, rec->metadata.provider_id,
				     rec->metadata.event_id);
	if (!rec->provider)
		return;
	c = count_for(d, rec->provider);
	if (c)
		c->records++;
}

/* ---- summary -------------------------------------------------------- */

static void summary(struct dump *d, const struct tracectl_input *in)
{
	const struct fxt_reader *r = in->reader;
	const struct fxt_reader_stats *s = fxt_reader_stats(r);
	struct text_out *o = &d->out;
	unsigned int t;
	size_t i;

	if (!d->summary_only)
		text_put_char(o, '\n');
	text_put_printf(o, "summary: %" PRIu64 " records, %" PRIu64 " bytes\n",
			s->records, s->bytes);
	text_put_str(o, "records by type:\n");
	for (t = 0; t < 16; t++)
		if (s->by_type[t])
			text_put_printf(o, "  %-18s %12" PRIu64 "\n",
					fxt_record_type_name(t), s->by_type[t]);
	text_put_str(o, "providers (id, name):\n");
	for (i = 0; i < fxt_reader_provider_count(r); i++) {
		const struct fxt_provider *p = fxt_reader_provider(r, i);
		struct provider_count *c = count_for(d, p);

		text_put_printf(o, "  %" PRIu32 " ", p->id);
		out_quoted(o, p->name);
		text_put_printf(o, ": %" PRIu64 " records, %" PRIu64 " ticks/s",
				c ? c->records : 0, p->ticks_per_second);
		if (c && c->overflows)
			text_put_printf(o, ", buffer overflowed %" PRIu64
					" time%s: records were dropped",
					c->overflows,
					c->overflows == 1 ? "" : "s");
		if (c && c->recovered)
			text_put_str(o, ", recovered after a restart of fxtraced");
		text_put_char(o, '\n');
	}
	if (d->trace_recovered)
		text_put_str(o, "  the trace was recovered after a restart of fxtraced: the records the providers kept are in (what a restart loses: fxtraced(8), CRASH RECOVERY)\n");
	if (d->overflows_unattributed)
		text_put_printf(o, "  %" PRIu64 " buffer overflow events of "
				"providers not seen in the trace\n",
				d->overflows_unattributed);
	text_put_printf(o, "problems: %" PRIu64 " malformed, %" PRIu64
			" nonconforming, %" PRIu64 " unknown skipped, %s\n",
			s->malformed, s->nonconforming, s->unknown_skipped,
			s->truncated ? "truncated" : "not truncated");
	if (s->large_skipped)
		text_put_printf(o, "  %" PRIu64 " large records over the "
				"size limit were skipped\n", s->large_skipped);
	if (s->table_entries_dropped)
		text_put_printf(o, "  %" PRIu64 " string or thread records "
				"dropped past the tables' memory limit\n",
				s->table_entries_dropped);
	if (in->diags_hidden)
		text_put_printf(o, "  (%" PRIu64 " more diagnostics not "
				"shown)\n", in->diags_hidden);
}

/* ---- command -------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tracectl dump [OPTIONS] FILE\n"
		"\n"
		"Print every record of an FXT trace, one per line (offset, kind,\n"
		"fields, arguments as name=value), then a summary: records by type\n"
		"and by provider, dropped-record reports, and problems found.\n"
		"Problems go to stderr as 'tracectl dump: FILE: offset 0x...: kind:\n"
		"reason'.\n"
		"FILE '-' reads standard input.\n"
		"\n"
		"Options:\n"
		"  -s, --summary-only    print only the summary\n"
		"      --strict          exit 1 if any record is malformed, of a\n"
		"                        type the spec reserves, or does not\n"
		"                        conform to the FXT spec otherwise\n"
		"      --provider-buffer input is one provider's raw buffer: no\n"
		"                        magic number, metadata is out of place\n"
		"      --force           read input that does not look like FXT\n"
		"                        (no magic number, first records broken)\n"
		"  -h, --help            show this help\n"
		"\n"
		"Exit status: 0 read, 1 unreadable or not FXT (or a problem with\n"
		"--strict), 2 bad usage.\n"
		"\n"
		"Examples:\n"
		"  tracectl dump trace.fxt | less\n"
		"  tracectl dump --summary-only trace.fxt\n"
		"  tracectl dump --strict trace.fxt >/dev/null && echo conforms\n"
		"  tracectl dump trace.fxt | grep context_switch\n"
		"  zcat trace.fxt.gz | tracectl dump -\n");
}

enum { OPT_STRICT = 256, OPT_PROVIDER_BUFFER };

/* -s, --strict and --provider-buffer. */
static int dump_option(void *ctx, int opt, const char *arg)
{
	struct dump *d = ctx;

	if (opt == 's')
		d->summary_only = true;
	else if (opt == OPT_STRICT)
		d->strict = true;
	else
		d->provider_buffer = true;
	return 0;
}

static const struct option longopts[] = {
	{ "summary-only", no_argument, NULL, 's' },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "provider-buffer", no_argument, NULL, OPT_PROVIDER_BUFFER },
	TRACECTL_INPUT_LONGOPTS,
	{ 0 },
};

static const struct tracectl_input_command command = {
	"dump", "sh", longopts, usage, dump_option
};

static int run(struct dump *d, struct tracectl_input *in)
{
	struct fxt_reader *r = in->reader;
	struct fxt_record rec;
	uint64_t n = 0;
	int ret;

	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		count_record(d, r, &rec);
		if (!d->summary_only)
			dump_record(&d->out, &rec);
		if (!(++n & 0xffff))
			tracectl_input_progress(in, fxt_reader_stats(r)->bytes);
	}
	tracectl_input_done(in);
	return ret;
}

/* After the summary: whether the input is one, and conforms. */
static int verdict(const struct dump *d, struct tracectl_input *in)
{
	const struct fxt_reader_stats *s = fxt_reader_stats(in->reader);
	int status = TRACECTL_EXIT_OK;

	if (!d->provider_buffer && tracectl_input_not_fxt(in))
		status = TRACECTL_EXIT_FAIL;
	/* Types the spec reserves: skipped when reading, not conforming. */
	if (d->strict && (s->malformed || s->nonconforming || s->truncated ||
			  s->unknown_skipped)) {
		fprintf(stderr, "tracectl dump: %s does not conform: %" PRIu64
			" malformed, %" PRIu64 " nonconforming, %" PRIu64
			" of reserved types\n", in->path, s->malformed,
			s->nonconforming, s->unknown_skipped);
		status = TRACECTL_EXIT_FAIL;
	}
	return status;
}

int cmd_dump(int argc, char **argv)
{
	struct tracectl_input_args a = { 0 };
	struct tracectl_input_options iopt = {
		.every_problem = true,
		.max_large_record_bytes = TRACECTL_LARGE_RECORD_MAX,
	};
	struct dump d = { 0 };
	struct tracectl_input in;
	int ret, status;

	ret = tracectl_input_args(argc, argv, &command, &d, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	iopt.force = a.force;
	iopt.provider_buffer = d.provider_buffer;
	iopt.writes_while_reading = !d.summary_only;
	if (tracectl_input_open(&in, "dump", a.input, &iopt))
		return TRACECTL_EXIT_FAIL;
	if (text_out_init(&d.out, STDOUT_FILENO, OUT_BUFFER_SIZE)) {
		fprintf(stderr, "tracectl dump: out of memory\n");
		tracectl_input_close(&in);
		return TRACECTL_EXIT_FAIL;
	}
	in.stdout_text = &d.out;
	status = TRACECTL_EXIT_OK;
	ret = run(&d, &in);
	if (ret < 0) {
		tracectl_input_failed(&in, ret);
		status = TRACECTL_EXIT_FAIL;
	}
	summary(&d, &in);
	in.stdout_text = NULL;
	ret = text_out_finish(&d.out);
	if (ret < 0) {
		fprintf(stderr,
			"tracectl dump: writing the output failed: %s\n",
			strerror(-ret));
		status = TRACECTL_EXIT_FAIL;
	}
	if (verdict(&d, &in))
		status = TRACECTL_EXIT_FAIL;
	tracectl_input_close(&in);
	free(d.counts);
	return status;
}
