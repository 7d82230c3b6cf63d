/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inserts sent while the next rows are made: EXPORT_SENDERS threads, each
 * with a connection of its own, take filled chunks from a short queue, so
 * that the server inserts into several tables at once and the archive is
 * read meanwhile. Memory stays bounded: at most EXPORT_QUEUE chunks wait
 * and EXPORT_SENDERS are in flight; a full queue makes the reader wait.
 * The first failure stops the sending; it is kept with its message.
 */
#ifndef FXT_EXPORT_SENDER_H
#define FXT_EXPORT_SENDER_H

#include <pthread.h>
#include <stdbool.h>

#include "clickhouse_http.h"
#include "export_schema.h"
#include "rowbinary.h"

#define EXPORT_SENDERS 2
#define EXPORT_QUEUE 2

struct export_job {
	enum export_table table;
	struct rowbinary rows;
};

struct export_sender {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	pthread_t threads[EXPORT_SENDERS];
	struct ch_client clients[EXPORT_SENDERS];
	unsigned int nthreads;
	struct export_job queue[EXPORT_QUEUE];
	unsigned int head, queued, busy;
	/* emptied buffers, for the next chunk */
	struct rowbinary spare[EXPORT_QUEUE + EXPORT_SENDERS];
	unsigned int nspare;
	bool stopping;
	int error;		/* the first failure, 0 if none */
	char message[CH_ERROR_MAX];
};

/*
 * Senders with connections like ch's: 0, or -ENOMEM (or a thread error).
 * export_sender_stop() in either case.
 */
int export_sender_start(struct export_sender *s, const struct ch_client *ch);
/*
 * Queues b's rows for table t and gives b an empty buffer: 0, or the
 * first failure of any send (a clickhouse_http.h error).
 */
int export_sender_send(struct export_sender *s, enum export_table t,
		       struct rowbinary *b);
/* Waits until everything queued is sent: 0 or the first failure. */
int export_sender_flush(struct export_sender *s);
/* After a failure: its message ("" if none). */
const char *export_sender_message(const struct export_sender *s);
void export_sender_stop(struct export_sender *s);

#endif /* FXT_EXPORT_SENDER_H */
