// SPDX-License-Identifier: GPL-2.0-only
/* Records into rows: see export_rows.h; the columns in export_schema.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "export_rows.h"
#include "fxt_saturate.h"

/* No depth bound of its own: a thread's begins are bounded by the bytes. */
static const struct slice_match_bounds begin_bounds = {
	.threads = EXPORT_SLICE_THREADS,
	.depth = UINT32_MAX,
	.first = 8,
	.max_bytes = EXPORT_SLICE_BYTES,
};

void export_rows_init(struct export_rows *x, const struct fxt_host_clock *hc,
		      const struct export_hosts *hosts)
{
	memset(x, 0, sizeof(*x));
	x->hc = hc;
	x->hosts = hosts;
	x->host_len = strlen(hc->hostname);
	slice_match_init(&x->begins, &begin_bounds);
	stack_tables_init(&x->samples);
}

void export_rows_done(struct export_rows *x)
{
	unsigned int i;

	for (i = 0; i < EXPORT_EVENT_TABLES; i++)
		rowbinary_free(&x->rows[i]);
	slice_match_free(&x->begins);
	stack_tables_free(&x->samples);
}

uint64_t export_rows_left_out(const struct export_rows *x)
{
	return fxt_sat_add(fxt_sat_add(x->unmatched_ends, x->begins.lost),
			   slice_match_open(&x->begins));
}

static uint64_t realtime(const struct export_rows *x,
			 const struct fxt_record *rec, uint64_t ticks)
{
	return fxt_host_clock_to_realtime(
		x->hc, fxt_ticks_to_ns(rec->provider, ticks));
}

struct rowbinary *export_rows_head(struct export_rows *x, enum export_table t,
				   uint64_t ts, uint64_t pid,
				   const struct export_host *h)
{
	struct rowbinary *b = &x->rows[t];

	if (!h)
		h = export_hosts_by_pid(x->hosts, pid);
	x->count[t]++;
	if (h)
		rowbinary_string(b, h->name, h->len);
	else
		rowbinary_string(b, x->hc->hostname, x->host_len);
	rowbinary_bytes(b, x->hc->trace_id, 32);
	rowbinary_u64(b, ts);
	return b;
}

/* pid, tid, category, name of a provider's event. */
static void who(struct rowbinary *b, const struct fxt_record *rec)
{
	rowbinary_u64(b, rec->event.thread.pid);
	rowbinary_u64(b, rec->event.thread.tid);
	rowbinary_string(b, rec->event.category.data, rec->event.category.len);
	rowbinary_string(b, rec->event.name.data, rec->event.name.len);
}

/* An argument's value as text (instants keep them all). */
static void arg_text(struct rowbinary *b, const struct fxt_arg *a)
{
	char buf[32];
	int n;

	switch (a->type) {
	case FXT_ARG_STRING:
		rowbinary_string(b, a->value.str.data, a->value.str.len);
		return;
	case FXT_ARG_INT32:
		n = snprintf(buf, sizeof(buf), "%" PRId32, a->value.i32);
		break;
	case FXT_ARG_UINT32:
		n = snprintf(buf, sizeof(buf), "%" PRIu32, a->value.u32);
		break;
	case FXT_ARG_INT64:
		n = snprintf(buf, sizeof(buf), "%" PRId64, a->value.i64);
		break;
	case FXT_ARG_UINT64:
	case FXT_ARG_KOID:
		n = snprintf(buf, sizeof(buf), "%" PRIu64, a->value.u64);
		break;
	case FXT_ARG_DOUBLE:
		n = snprintf(buf, sizeof(buf), "%.17g", a->value.f64);
		break;
	case FXT_ARG_POINTER:
		n = snprintf(buf, sizeof(buf), "0x%" PRIx64, a->value.pointer);
		break;
	case FXT_ARG_BOOL:
		n = snprintf(buf, sizeof(buf), "%s",
			     a->value.b ? "true" : "false");
		break;
	default:
		n = 0;
		break;
	}
	rowbinary_string(b, buf, (size_t)n);
}

static void instant(struct export_rows *x, const struct fxt_record *rec)
{
	struct rowbinary *b = export_rows_head(x, EXPORT_INSTANTS,
					       realtime(x, rec, rec->event.ts),
					       rec->event.thread.pid, NULL);
	unsigned int i;

	who(b, rec);
	rowbinary_u8(b, (uint8_t)rec->event.scope);
	rowbinary_varuint(b, rec->nargs);
	for (i = 0; i < rec->nargs; i++)
		rowbinary_string(b, rec->args[i].name.data,
				 rec->args[i].name.len);
	rowbinary_varuint(b, rec->nargs);
	for (i = 0; i < rec->nargs; i++)
		arg_text(b, &rec->args[i]);
}

static bool arg_number(const struct fxt_arg *a, double *v)
{
	switch (a->type) {
	case FXT_ARG_INT32: *v = a->value.i32; return true;
	case FXT_ARG_UINT32: *v = a->value.u32; return true;
	case FXT_ARG_INT64: *v = (double)a->value.i64; return true;
	case FXT_ARG_UINT64: *v = (double)a->value.u64; return true;
	case FXT_ARG_DOUBLE: *v = a->value.f64; return true;
	default: return false;
	}
}

/* A counter's numeric arguments (the values it counts). */
static void counter(struct export_rows *x, const struct fxt_record *rec)
{
	struct rowbinary *b = export_rows_head(x, EXPORT_COUNTERS,
					       realtime(x, rec, rec->event.ts),
					       rec->event.thread.pid, NULL);
	unsigned int i, n = 0;
	double v;

	who(b, rec);
	rowbinary_u64(b, rec->event.extra);
	for (i = 0; i < rec->nargs; i++)
		n += arg_number(&rec->args[i], &v);
	rowbinary_varuint(b, n);
	for (i = 0; i < rec->nargs; i++)
		if (arg_number(&rec->args[i], &v))
			rowbinary_string(b, rec->args[i].name.data,
					 rec->args[i].name.len);
	rowbinary_varuint(b, n);
	for (i = 0; i < rec->nargs; i++)
		if (arg_number(&rec->args[i], &v))
			rowbinary_f64(b, v);
}

static void slice(struct export_rows *x, const struct fxt_record *rec,
		  uint64_t start_ns, uint64_t end_ns, struct fxt_str category,
		  struct fxt_str name)
{
	struct rowbinary *b = export_rows_head(
		x, EXPORT_SLICES, fxt_host_clock_to_realtime(x->hc, start_ns),
		rec->event.thread.pid, NULL);

	rowbinary_u64(b, end_ns > start_ns ? end_ns - start_ns : 0);
	rowbinary_u64(b, rec->event.thread.pid);
	rowbinary_u64(b, rec->event.thread.tid);
	rowbinary_string(b, category.data, category.len);
	rowbinary_string(b, name.data, name.len);
}

static int duration(struct export_rows *x, const struct fxt_record *rec)
{
	const struct fxt_thread_id *th = &rec->event.thread;
	uint64_t ns = fxt_ticks_to_ns(rec->provider, rec->event.ts);
	struct fxt_str names[2] = { rec->event.category, rec->event.name };
	struct slice_closed begin;

	switch (rec->event.type) {
	case FXT_EVENT_DURATION_BEGIN:
		/* the tag: where the category ends in the bytes */
		return slice_match_begin(&x->begins, th->pid, th->tid, ns,
					 names[0].len, names, 2);
	case FXT_EVENT_DURATION_END:
		if (slice_match_end(&x->begins, th->pid, th->tid, &begin))
			slice(x, rec, begin.ns, ns,
			      (struct fxt_str){ begin.bytes.data, begin.tag },
			      (struct fxt_str){ begin.bytes.data + begin.tag,
						begin.bytes.len - begin.tag });
		else
			x->unmatched_ends++;
		return 0;
	default:
		slice(x, rec, ns, fxt_ticks_to_ns(rec->provider, rec->event.extra),
		      rec->event.category, rec->event.name);
		return 0;
	}
}

/* Flows and async events: an id and a phase (the type's order). */
static void correlated(struct export_rows *x, const struct fxt_record *rec,
		       enum export_table t, enum fxt_event_type first)
{
	struct rowbinary *b = export_rows_head(x, t,
					       realtime(x, rec, rec->event.ts),
					       rec->event.thread.pid, NULL);

	who(b, rec);
	rowbinary_u64(b, rec->event.extra);
	rowbinary_u8(b, (uint8_t)(rec->event.type - first));
}

static int event(struct export_rows *x, const struct fxt_record *rec)
{
	switch (rec->event.type) {
	case FXT_EVENT_INSTANT:
		instant(x, rec);
		return 0;
	case FXT_EVENT_COUNTER:
		counter(x, rec);
		return 0;
	case FXT_EVENT_DURATION_BEGIN:
	case FXT_EVENT_DURATION_END:
	case FXT_EVENT_DURATION_COMPLETE:
		return duration(x, rec);
	case FXT_EVENT_ASYNC_BEGIN:
	case FXT_EVENT_ASYNC_INSTANT:
	case FXT_EVENT_ASYNC_END:
		correlated(x, rec, EXPORT_ASYNC, FXT_EVENT_ASYNC_BEGIN);
		return 0;
	case FXT_EVENT_FLOW_BEGIN:
	case FXT_EVENT_FLOW_STEP:
	case FXT_EVENT_FLOW_END:
		correlated(x, rec, EXPORT_FLOWS, FXT_EVENT_FLOW_BEGIN);
		return 0;
	default:
		return 0;
	}
}

/*
 * A CPU's idle thread, which fxtraced writes as a pseudo thread with the
 * weight INT32_MIN (as Fuchsia does): stored as tid 0, as cpu_tracks.c
 * reads it, so that "in_tid != 0" means a thread got the CPU.
 */
static uint64_t tid_or_idle(const struct fxt_record *rec, const char *weight,
			    const struct fxt_thread_id *th)
{
	const struct fxt_arg *w = fxt_record_arg(rec, weight, strlen(weight));

	if (w && w->type == FXT_ARG_INT32 && w->value.i32 == INT32_MIN)
		return 0;
	return th->tid;
}

/*
 * A scheduling row's host: whose CPUs hold its CPU (an idle thread's
 * koid does not name its host), else that of the thread's pid (a merge
 * without "merge_cpus" records).
 */
static struct rowbinary *sched_head(struct export_rows *x, enum export_table t,
				    const struct fxt_record *rec, uint64_t pid)
{
	return export_rows_head(x, t, realtime(x, rec, rec->sched.ts), pid,
				export_hosts_by_cpu(x->hosts, rec->sched.cpu));
}

static void sched(struct export_rows *x, const struct fxt_record *rec)
{
	struct rowbinary *b;

	if (rec->sched.type == FXT_SCHED_THREAD_WAKEUP) {
		b = sched_head(x, EXPORT_WAKEUPS, rec, rec->sched.woken.pid);
		rowbinary_u32(b, rec->sched.cpu);
		rowbinary_u64(b, rec->sched.woken.pid);
		rowbinary_u64(b, rec->sched.woken.tid);
		return;
	}
	if (rec->sched.type != FXT_SCHED_CONTEXT_SWITCH &&
	    rec->sched.type != FXT_SCHED_LEGACY_CONTEXT_SWITCH)
		return;
	b = sched_head(x, EXPORT_CONTEXT_SWITCHES, rec,
		       rec->sched.out_thread.pid);
	rowbinary_u32(b, rec->sched.cpu);
	rowbinary_u64(b, rec->sched.out_thread.pid);
	rowbinary_u64(b, tid_or_idle(rec, "outgoing_weight",
				     &rec->sched.out_thread));
	rowbinary_u8(b, (uint8_t)rec->sched.out_state);
	rowbinary_u64(b, rec->sched.in_thread.pid);
	rowbinary_u64(b, tid_or_idle(rec, "incoming_weight",
				     &rec->sched.in_thread));
}

int export_rows_record(struct export_rows *x, const struct fxt_record *rec)
{
	unsigned int i;
	int err = 0;

	if (stack_tables_take(&x->samples, rec))
		return x->samples.err; /* rows at the end: export_samples.h */
	if (rec->type == FXT_RECORD_EVENT)
		err = event(x, rec);
	else if (rec->type == FXT_RECORD_SCHEDULING)
		sched(x, rec);
	if (err)
		return err;
	for (i = 0; i < EXPORT_EVENT_TABLES; i++)
		if (x->rows[i].oom)
			return -ENOMEM;
	return 0;
}
