/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A client of ClickHouse's HTTP interface, through libcurl: one keep-alive
 * connection, a statement per POST. Statements are fixed text of the
 * exporter's own (names validated, trace ids in their checked 32-hex
 * form); data goes as a RowBinary body, never into SQL.
 *
 * Failures come in two kinds the caller treats differently:
 *   -ECONNREFUSED  the server could not be reached or the transfer broke
 *                  (down, wrong port, network): worth retrying later;
 *   -EREMOTEIO     the server answered with an error (a refused insert, a
 *                  read-only user, a broken table): it will say it again;
 *   -ETIMEDOUT     no whole answer in time: a request's time limit
 *                  (timeout_s) or the deadline (of an archive) passed.
 * Either way ch->error holds one printable line saying what happened.
 */
#ifndef FXT_EXPORT_CLICKHOUSE_HTTP_H
#define FXT_EXPORT_CLICKHOUSE_HTTP_H

#include <stddef.h>
#include <stdint.h>

/* An answer of the server kept for the caller, at most this long. */
#define CH_ANSWER_MAX 4096u
#define CH_ERROR_MAX 320u
/* A request's whole time, seconds (tracectl export --timeout). */
#define CH_TIMEOUT_DEFAULT 300L

struct ch_client {
	void *curl;		/* CURL * */
	char *url;		/* as given */
	char *where;		/* "host:port", for messages (no credentials) */
	char *database;
	char answer[CH_ANSWER_MAX];
	size_t answer_len;	/* truncated at CH_ANSWER_MAX - 1 */
	char error[CH_ERROR_MAX];
	uint64_t bytes_sent;
	long timeout_s; /* per request, whole; 0: CH_TIMEOUT_DEFAULT */
	uint64_t deadline_ms; /* CLOCK_MONOTONIC; 0: none */
	long deadline_s; /* what the deadline was set to, for messages */
};

/*
 * url: http:// or https:// (user:password@ allowed); database: a plain
 * identifier. 0, or -EINVAL (bad URL or name, said in ch->error), or
 * -ENOMEM. ch_client_done() in either case.
 */
int ch_client_init(struct ch_client *ch, const char *url,
		   const char *database);
void ch_client_done(struct ch_client *ch);
/* A connection of its own to ch's server, with ch's limits: as init. */
int ch_client_init_like(struct ch_client *ch, const struct ch_client *like);

/* No request may end later than seconds from now (0: no deadline). */
void ch_client_set_deadline(struct ch_client *ch, long seconds);
/* Seconds left before the deadline (LONG_MAX without one; 0 when past). */
long ch_client_time_left(const struct ch_client *ch);

/*
 * url with its credentials hidden, for messages: user:password@ and the
 * values of ?password= and ?user= become "***"; malloc'd, NULL on ENOMEM.
 */
char *ch_url_redacted(const char *url);

/*
 * Runs sql; with a body (len > 0 or body != NULL), sql is an INSERT ...
 * FORMAT RowBinary and body its rows. with_database: in ch->database
 * (false for CREATE DATABASE). The answer's text is in ch->answer. 0 or
 * one of the errors above.
 */
int ch_exec(struct ch_client *ch, const char *sql, const void *body,
	    size_t len, int with_database);

/* An answer of one unsigned number ("3\n"): 0, or -EREMOTEIO. */
int ch_answer_u64(const struct ch_client *ch, uint64_t *v);

/* A plain identifier: [A-Za-z_][A-Za-z0-9_]*, at most 64 characters. */
int ch_identifier_ok(const char *name);

#endif /* FXT_EXPORT_CLICKHOUSE_HTTP_H */
