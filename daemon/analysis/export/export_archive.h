/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One archive into ClickHouse, once: its trace id (from its host record)
 * decides. The "traces" table says whether an archive was stored: a row
 * with complete = 0 when its export begins, one with complete = 1 (and
 * the counts) when every row is in. So an archive found complete is not
 * sent again; one found begun but not complete (an export cut short: the
 * server went away, an insert was refused) first has its rows deleted
 * (ALTER TABLE ... DELETE, waited for) and is then sent whole.
 *
 * Exports of one archive at once are one writer and waiters: the writer
 * holds the archive's claim (export_claim.h), the others wait until it is
 * stored (then "already") or the claim is given up (then one of them
 * claims it). ch's deadline (ch_client_set_deadline()) bounds the whole,
 * waiting included; the claim lasts a little longer than it.
 */
#ifndef FXT_EXPORT_ARCHIVE_H
#define FXT_EXPORT_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clickhouse_http.h"
#include "export_hosts.h"
#include "export_schema.h"
#include "fxt_reader.h"
#include "host_clock.h"

/* Rows of a table are sent when they reach this many bytes. */
#define EXPORT_CHUNK_BYTES_DEFAULT (4u << 20)
/* An archive's whole export, seconds (tracectl export --archive-timeout). */
#define EXPORT_ARCHIVE_TIMEOUT_DEFAULT 1800L
/* A partial export's deletion is waited for at most this long. */
#define EXPORT_MUTATION_WAIT_SECONDS 600

struct export_options {
	const char *file;	/* the archive's name, in "traces" */
	/* a merged archive's inputs (export_hosts.h); NULL: none */
	const struct export_hosts *hosts;
	size_t chunk_bytes;	/* 0: EXPORT_CHUNK_BYTES_DEFAULT */
	/* every few thousand records, with the input bytes read */
	void (*progress)(void *ctx, uint64_t bytes_read);
	void *progress_ctx;
};

struct export_result {
	bool already;		/* found complete: nothing sent */
	bool waited; /* for another export of it, which held it */
	bool replaced_partial;	/* a cut-short export was deleted first */
	uint64_t count[EXPORT_EVENT_TABLES];
	uint64_t left_out;	/* duration records that made no slice */
};

/*
 * Creates the database and the tables where absent: 0, or a
 * clickhouse_http.h error (said in ch->error), or -ENOMEM.
 */
int export_tables_create(struct ch_client *ch);

/* A trace id as the host record gives it: 32 lowercase hex digits. */
bool export_trace_id_ok(const char *id);

/*
 * Reads r to its end into the tables: 0 (stored, or already there), a
 * clickhouse_http.h error, -ETIMEDOUT (also: a partial export's deletion
 * did not finish, another export held the archive until the deadline),
 * -ENOMEM, -EIO (no random claim id), or the reader's -errno. hc: the archive's host and
 * clock, with a trace id export_trace_id_ok() takes.
 */
int export_archive(struct ch_client *ch, struct fxt_reader *r,
		   const struct fxt_host_clock *hc,
		   const struct export_options *opt, struct export_result *res);

#endif /* FXT_EXPORT_ARCHIVE_H */
