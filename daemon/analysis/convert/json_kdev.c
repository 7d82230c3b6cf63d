// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel:power and kernel:block events where chrome://tracing users look
 * for them. The kernel writes both on process 0 (include/fxt/kdev.h),
 * which has no track of its own here:
 * - a CPU's counters (counter id = the CPU) become counters
 *   "<name> CPU <n>" of the "CPUs" process, beside that CPU's slices;
 * - block requests become async slices (b/e, same id) of a synthetic
 *   process "Block I/O" (FXT_JSON_BLOCK_PID), one row per operation.
 */
#include "json_emit.h"
#include "json_kdev.h"
#include "json_sched.h"

static bool from_kernel(const struct fxt_record *rec, const char *category,
			size_t len)
{
	return rec->provider && STR_IS(&rec->provider->name, "kernel") &&
	       str_is(&rec->event.category, category, len);
}

static void put_common(struct converter *c, const struct fxt_record *rec)
{
	text_put_lit(&c->w, ",\"cat\":");
	text_put_json_string(&c->w, rec->event.category.data,
			     rec->event.category.len);
	conv_put_key(&c->w, "ts");
	text_put_thousandths(&c->w, conv_ns(rec->provider, rec->event.ts));
}

static void put_args(struct converter *c, const struct fxt_record *rec)
{
	text_put_lit(&c->w, ",\"args\":{");
	conv_put_args(c, rec, true);
	text_put_lit(&c->w, "}}");
}

static void power_counter(struct converter *c, const struct fxt_record *rec)
{
	uint64_t cpu = rec->event.extra;

	if (cpu < CPU_TRACKS_MAX && !conv_cpu_track(c, (unsigned int)cpu))
		return;
	conv_begin_event(c, 'C');
	text_put_lit(&c->w, ",\"name\":\"");
	text_put_json_part(&c->w, rec->event.name.data, rec->event.name.len);
	text_put_lit(&c->w, " CPU ");
	text_put_u64(&c->w, cpu);
	text_put_char(&c->w, '"');
	put_common(c, rec);
	conv_put_thread(c, FXT_JSON_CPUS_PID, cpu);
	put_args(c, rec);
}

static void block_request(struct converter *c, const struct fxt_record *rec,
			  char phase)
{
	struct text_out *w = &c->w;

	if (!c->block_process_named) {
		c->block_process_named = true;
		conv_process_name(c, FXT_JSON_BLOCK_PID, "Block I/O", 9);
	}
	conv_begin_event(c, phase);
	text_put_lit(w, ",\"name\":");
	text_put_json_string(w, rec->event.name.data, rec->event.name.len);
	put_common(c, rec);
	conv_put_thread(c, FXT_JSON_BLOCK_PID, 0);
	conv_put_key(w, "id");
	text_put_json_hex(w, rec->event.extra);
	put_args(c, rec);
}

bool conv_kdev_event(struct converter *c, const struct fxt_record *rec)
{
	switch (rec->event.type) {
	case FXT_EVENT_COUNTER:
		if (!from_kernel(rec, "kernel:power", 12))
			return false;
		power_counter(c, rec);
		return true;
	case FXT_EVENT_ASYNC_BEGIN:
	case FXT_EVENT_ASYNC_END:
		if (!from_kernel(rec, "kernel:block", 12))
			return false;
		block_request(c, rec, rec->event.type == FXT_EVENT_ASYNC_BEGIN ?
					      'b' : 'e');
		return true;
	default:
		return false;
	}
}
