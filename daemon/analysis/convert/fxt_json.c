// SPDX-License-Identifier: GPL-2.0-only
/*
 * The conversion driver: reads records, hands each to its writer, and
 * frames the document (object or array format, trailing metadata).
 */
#include <errno.h>
#include <string.h>

#include "json_emit.h"
#include "json_events.h"
#include "json_kdev.h"
#include "json_sched.h"
#include "json_stacks.h"

#define DEFAULT_BUFFER_SIZE (4u << 20)
#define PROGRESS_EVERY 0xffffu	/* records between progress calls, minus 1 */

static void count_drop(struct converter *c, uint32_t provider_id)
{
	struct fxt_json_stats *s = c->stats;
	size_t i;

	s->buffer_overflows++;
	for (i = 0; i < s->ndrops; i++) {
		if (s->drops[i].provider_id == provider_id) {
			s->drops[i].buffer_overflows++;
			return;
		}
	}
	if (s->ndrops == FXT_JSON_MAX_DROP_PROVIDERS)
		return;		/* still in the total */
	s->drops[s->ndrops].provider_id = provider_id;
	s->drops[s->ndrops].buffer_overflows = 1;
	s->ndrops++;
}

static void conv_metadata(struct converter *c, const struct fxt_record *rec)
{
	if (rec->metadata.type == FXT_METADATA_PROVIDER_EVENT &&
	    rec->metadata.event_id == FXT_PROVIDER_EVENT_BUFFER_OVERFLOW)
		count_drop(c, rec->metadata.provider_id);
}

static void dispatch(struct converter *c, const struct fxt_record *rec)
{
	switch (rec->type) {
	case FXT_RECORD_EVENT:
		if (!conv_kdev_event(c, rec))
			conv_event(c, rec);
		break;
	case FXT_RECORD_SCHEDULING:
		conv_sched(c, rec);
		break;
	case FXT_RECORD_METADATA:
		conv_metadata(c, rec);
		break;
	case FXT_RECORD_INITIALIZATION:
	case FXT_RECORD_STRING:
		break;		/* the reader applies them */
	case FXT_RECORD_THREAD:
		conv_thread_record(c, rec);
		break;
	case FXT_RECORD_BLOB:
		conv_stacks_take(c, rec);	/* and noted as any blob */
		conv_blob(c, rec);
		break;
	case FXT_RECORD_USERSPACE_OBJECT:
		conv_userspace_object(c, rec);
		break;
	case FXT_RECORD_KERNEL_OBJECT:
		conv_kernel_object(c, rec);
		break;
	case FXT_RECORD_LOG:
		conv_log(c, rec);
		break;
	case FXT_RECORD_LARGE:
		if (conv_stacks_take(c, rec))
			break;
		if (rec->large_blob.large_type == FXT_LARGE_BLOB)
			conv_large_blob(c, rec);
		else
			c->stats->unconverted++;
		break;
	default:
		c->stats->unconverted++;
		break;
	}
}

static uint64_t drops_of(const struct fxt_json_stats *s, uint32_t id)
{
	size_t i;

	for (i = 0; i < s->ndrops; i++)
		if (s->drops[i].provider_id == id)
			return s->drops[i].buffer_overflows;
	return 0;
}

static void put_provider(struct converter *c, bool first, uint32_t id,
			 const struct fxt_str *name, uint64_t ticks_per_second)
{
	struct text_out *w = &c->w;

	if (!first)
		text_put_lit(w, ",");
	text_put_lit(w, "\n{\"id\":");
	text_put_u64(w, id);
	text_put_lit(w, ",\"name\":");
	text_put_json_string(w, name ? name->data : "", name ? name->len : 0);
	if (ticks_per_second) {
		text_put_lit(w, ",\"ticks_per_second\":");
		text_put_u64(w, ticks_per_second);
	}
	text_put_lit(w, ",\"buffer_overflows\":");
	text_put_u64(w, drops_of(c->stats, id));
	text_put_char(w, '}');
}

static bool reader_has_provider(struct fxt_reader *r, uint32_t id)
{
	size_t i, n = fxt_reader_provider_count(r);

	for (i = 0; i < n; i++)
		if (fxt_reader_provider(r, i)->id == id)
			return true;
	return false;
}

/* Known only now that the whole input is read: after traceEvents. */
static void put_trailer(struct converter *c, struct fxt_reader *r)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(r);
	struct text_out *w = &c->w;
	size_t i, n = fxt_reader_provider_count(r);
	bool first = true;

	text_put_lit(w, "\n],\n\"providers\":[");
	for (i = 0; i < n; i++, first = false) {
		const struct fxt_provider *p = fxt_reader_provider(r, i);

		put_provider(c, first, p->id, &p->name, p->ticks_per_second);
	}
	for (i = 0; i < c->stats->ndrops; i++) {
		uint32_t id = c->stats->drops[i].provider_id;

		if (reader_has_provider(r, id))
			continue;
		put_provider(c, first, id, NULL, 0);
		first = false;
	}
	text_put_lit(w, "]");
	conv_stacks_trailer(c);
	text_put_lit(w, ",\n\"buffer_overflows\":");
	text_put_u64(w, c->stats->buffer_overflows);
	text_put_lit(w, ",\n\"malformed_records\":");
	text_put_u64(w, rs->malformed);
	text_put_lit(w, ",\n\"nonconforming_records\":");
	text_put_u64(w, rs->nonconforming);
	text_put_lit(w, ",\n\"truncated_input\":");
	if (rs->truncated)
		text_put_lit(w, "true");
	else
		text_put_lit(w, "false");
	text_put_lit(w, "\n}\n");
}

static int run(struct converter *c, struct fxt_reader *r,
	       const struct fxt_json_options *opt)
{
	struct fxt_record rec;
	uint64_t n = 0;
	int ret;

	/* Input refused as not FXT: no document at all. */
	ret = fxt_reader_next(r, &rec);
	if (fxt_reader_not_fxt(r))
		return -EMEDIUMTYPE;
	if (opt->json_array)
		text_put_lit(&c->w, "[");
	else
		text_put_lit(&c->w,
			     "{\"displayTimeUnit\":\"ns\",\n\"traceEvents\":[");
	for (; ret > 0; ret = fxt_reader_next(r, &rec)) {
		dispatch(c, &rec);
		if (c->err || c->w.err)
			return c->err ? c->err : c->w.err;
		if (opt->progress && !(++n & PROGRESS_EVERY))
			opt->progress(opt->progress_ctx,
				      fxt_reader_stats(r)->bytes);
	}
	if (ret < 0)
		return ret;
	conv_sched_finish(c);
	ret = conv_stacks_events(c, !opt->json_array);
	if (ret)
		return ret;
	if (opt->json_array)
		text_put_lit(&c->w, "\n]\n");
	else
		put_trailer(c, r);
	return c->err;
}

int fxt_json_convert(struct fxt_reader *r, int out_fd,
		     const struct fxt_json_options *opt,
		     struct fxt_json_stats *stats)
{
	static const struct fxt_json_options defaults;
	struct converter c;
	int ret, wret;

	if (!opt)
		opt = &defaults;
	memset(stats, 0, sizeof(*stats));
	memset(&c, 0, sizeof(c));
	c.stats = stats;
	ret = text_out_init(&c.w, out_fd,
			    opt->buffer_size ? opt->buffer_size :
					       DEFAULT_BUFFER_SIZE);
	if (ret)
		return ret;
	c.names = name_cache_new();
	ret = c.names ? run(&c, r, opt) : -ENOMEM;
	stats->records = fxt_reader_stats(r)->records;
	wret = text_out_finish(&c.w);
	stats->bytes_written = c.w.flushed;
	stats->output_failed = wret != 0;
	name_cache_free(c.names);
	cpu_tracks_free(&c.cpus);
	conv_stacks_free(&c);
	return ret ? ret : wret;
}
