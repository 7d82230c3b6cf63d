// SPDX-License-Identifier: GPL-2.0-only
/* One archive into ClickHouse, once: see export_archive.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export_archive.h"
#include "export_claim.h"
#include "export_rows.h"
#include "export_samples.h"
#include "export_sender.h"

#define PROGRESS_EVERY 0x3fffu
/* A claim's release is tried this long; else it expires. */
#define EXPORT_RELEASE_SECONDS 10

int export_tables_create(struct ch_client *ch)
{
	char sql[128];
	unsigned int t;
	int ret;

	snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS %s",
		 ch->database);
	ret = ch_exec(ch, sql, NULL, 0, 0);
	for (t = 0; !ret && t < EXPORT_TABLES; t++) {
		char *create = export_schema_create(t, ch->database);

		if (!create)
			return -ENOMEM;
		ret = ch_exec(ch, create, NULL, 0, 1);
		free(create);
	}
	return ret ? ret : export_claims_create(ch);
}

bool export_trace_id_ok(const char *id)
{
	size_t i;

	for (i = 0; i < 32; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
		      (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return id[32] == '\0';
}

/* 0: never exported, 1: begun and not complete, 2: complete. */
static int trace_state(struct ch_client *ch, const char *trace_id,
		       uint64_t *state)
{
	char sql[256];
	int ret;

	snprintf(sql, sizeof(sql),
		 "SELECT toUInt8(count() > 0) + toUInt8(max(complete)) "
		 "FROM %s.traces WHERE trace_id = '%s'",
		 ch->database, trace_id);
	ret = ch_exec(ch, sql, NULL, 0, 1);
	if (!ret && ch_answer_u64(ch, state)) {
		snprintf(ch->error, sizeof(ch->error),
			 "unexpected answer to the state of trace %s", trace_id);
		return -EREMOTEIO;
	}
	return ret;
}

static int wait_mutations(struct ch_client *ch)
{
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	time_t deadline = time(NULL) + EXPORT_MUTATION_WAIT_SECONDS;
	uint64_t pending;
	char sql[160];
	int ret;

	snprintf(sql, sizeof(sql),
		 "SELECT count() FROM system.mutations "
		 "WHERE database = '%s' AND NOT is_done", ch->database);
	for (;;) {
		ret = ch_exec(ch, sql, NULL, 0, 1);
		if (ret)
			return ret;
		if (ch_answer_u64(ch, &pending))
			return -EREMOTEIO;
		if (!pending)
			return 0;
		if (time(NULL) > deadline) {
			snprintf(ch->error, sizeof(ch->error),
				 "the deletion of a partial export is still "
				 "running after %d s", EXPORT_MUTATION_WAIT_SECONDS);
			return -ETIMEDOUT;
		}
		nanosleep(&pause, NULL);
	}
}

/* An export cut short: its rows go, in every table, before it is sent again. */
static int delete_partial(struct ch_client *ch, const char *trace_id)
{
	char sql[256];
	unsigned int t;
	int ret;

	for (t = 0; t < EXPORT_TABLES; t++) {
		snprintf(sql, sizeof(sql),
			 "ALTER TABLE %s.%s DELETE WHERE trace_id = '%s'",
			 ch->database, export_schema(t)->name, trace_id);
		ret = ch_exec(ch, sql, NULL, 0, 1);
		if (ret)
			return ret;
	}
	return wait_mutations(ch);
}

static int send_rows(struct ch_client *ch, enum export_table t,
		     struct rowbinary *b)
{
	char *insert;
	int ret;

	if (!b->len)
		return 0;
	insert = export_schema_insert(t, ch->database);
	if (!insert)
		return -ENOMEM;
	ret = ch_exec(ch, insert, b->data, b->len, 1);
	free(insert);
	rowbinary_reset(b);
	return ret;
}

static void trace_counts(struct rowbinary *b, const struct export_result *res)
{
	unsigned int t;

	for (t = 0; t < EXPORT_EVENT_TABLES; t++)
		rowbinary_u64(b, res ? res->count[t] : 0);
	rowbinary_u64(b, res ? res->left_out : 0);
}

/* The archive's row of "traces": begun (res NULL) or complete. */
static int trace_row(struct ch_client *ch, const struct fxt_host_clock *hc,
		     const char *file, const struct export_result *res)
{
	struct rowbinary b = { 0 };
	uint64_t error_ns = hc->start.error_ns;
	int ret;

	if (hc->has_stop && hc->stop.error_ns > error_ns)
		error_ns = hc->stop.error_ns;
	rowbinary_bytes(&b, hc->trace_id, 32);
	rowbinary_cstring(&b, hc->hostname);
	rowbinary_cstring(&b, hc->machine_id);
	rowbinary_cstring(&b, hc->boot_id);
	rowbinary_cstring(&b, hc->kernel);
	rowbinary_cstring(&b, file);
	rowbinary_u8(&b, res != NULL);
	rowbinary_u32(&b, (uint32_t)time(NULL));
	rowbinary_u64(&b, hc->has_start ? hc->start.realtime : 0);
	rowbinary_u64(&b, hc->has_stop ? hc->stop.realtime : 0);
	rowbinary_u64(&b, error_ns);
	trace_counts(&b, res);
	ret = b.oom ? -ENOMEM : send_rows(ch, EXPORT_TRACES, &b);
	rowbinary_free(&b);
	return ret;
}

/* Every record of r into rows, each table's sent a chunk at a time. */
static int read_rows(struct export_sender *snd, struct fxt_reader *r,
		     struct export_rows *x, const struct export_options *opt)
{
	size_t chunk = opt->chunk_bytes ? opt->chunk_bytes :
					  EXPORT_CHUNK_BYTES_DEFAULT;
	struct fxt_record rec;
	unsigned int t;
	uint64_t n = 0;
	int ret;

	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		ret = export_rows_record(x, &rec);
		for (t = 0; !ret && t < EXPORT_EVENT_TABLES; t++)
			if (x->rows[t].len >= chunk)
				ret = export_sender_send(snd, t, &x->rows[t]);
		if (ret)
			return ret;
		if (opt->progress && !(++n & PROGRESS_EVERY))
			opt->progress(opt->progress_ctx,
				      fxt_reader_stats(r)->bytes);
	}
	if (!ret)
		ret = export_samples_rows(x, snd, chunk);
	for (t = 0; !ret && t < EXPORT_EVENT_TABLES; t++)
		if (x->rows[t].len)
			ret = export_sender_send(snd, t, &x->rows[t]);
	return ret;
}

static int stream(struct ch_client *ch, struct fxt_reader *r,
		  struct export_rows *x, const struct export_options *opt)
{
	struct export_sender snd;
	int ret, sent;

	ret = export_sender_start(&snd, ch);
	if (!ret)
		ret = read_rows(&snd, r, x, opt);
	sent = export_sender_flush(&snd);
	if (sent || (ret && ret != -ENOMEM && snd.error))
		snprintf(ch->error, sizeof(ch->error), "%s",
			 export_sender_message(&snd));
	export_sender_stop(&snd);
	return sent ? sent : ret;
}

/* Waits until this run holds the archive's claim, or finds it stored. */
static int claim(struct ch_client *ch, const char *trace_id,
		 struct export_claim *c, struct export_result *res,
		 uint64_t *state)
{
	struct timespec pause = { 1, 0 };
	long lease = (ch->deadline_s > 0 ? ch->deadline_s :
					   EXPORT_ARCHIVE_TIMEOUT_DEFAULT) +
		     EXPORT_CLAIM_SLACK_SECONDS;
	int ret;

	memset(c, 0, sizeof(*c));
	for (;;) {
		ret = trace_state(ch, trace_id, state);
		if (ret || *state >= 2)
			return ret;
		ret = export_claim_take(ch, trace_id, lease, c);
		if (ret)
			break;
		res->waited = true;
		if (ch_client_time_left(ch) <= pause.tv_sec) {
			snprintf(ch->error, sizeof(ch->error),
				 "trace %s is being stored by another export, "
				 "not done within the archive's time limit of "
				 "%ld s",
				 trace_id, ch->deadline_s);
			return -ETIMEDOUT;
		}
		nanosleep(&pause, NULL);
	}
	/* claimed: what the previous holder did is known now */
	return ret < 0 ? ret : trace_state(ch, trace_id, state);
}

/* The claimed archive, whole: its partial export first deleted. */
static int store(struct ch_client *ch, struct fxt_reader *r,
		 const struct fxt_host_clock *hc,
		 const struct export_options *opt, struct export_result *res,
		 uint64_t state)
{
	struct export_rows x;
	int ret;

	if (state == 1) {
		res->replaced_partial = true;
		ret = delete_partial(ch, hc->trace_id);
		if (ret)
			return ret;
	}
	ret = trace_row(ch, hc, opt->file, NULL);
	if (ret)
		return ret;
	export_rows_init(&x, hc, opt->hosts);
	ret = stream(ch, r, &x, opt);
	memcpy(res->count, x.count, sizeof(res->count));
	res->left_out = export_rows_left_out(&x);
	export_rows_done(&x);
	return ret ? ret : trace_row(ch, hc, opt->file, res);
}

int export_archive(struct ch_client *ch, struct fxt_reader *r,
		   const struct fxt_host_clock *hc,
		   const struct export_options *opt, struct export_result *res)
{
	struct export_claim c;
	uint64_t state;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = claim(ch, hc->trace_id, &c, res, &state);
	if (!ret && state >= 2)
		res->already = true;
	else if (!ret)
		ret = store(ch, r, hc, opt, res, state);
	if (c.generation) {
		/* ch->error says why the export failed: the release is quiet */
		struct ch_client quiet;

		if (!ch_client_init_like(&quiet, ch)) {
			ch_client_set_deadline(&quiet, EXPORT_RELEASE_SECONDS);
			export_claim_release(&quiet, hc->trace_id, &c);
		}
		ch_client_done(&quiet);
	}
	return ret;
}
