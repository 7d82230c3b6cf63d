// SPDX-License-Identifier: GPL-2.0-only
/* Inserts sent by threads of their own: see export_sender.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_sender.h"

struct sender_arg {
	struct export_sender *s;
	struct ch_client *ch;
};

static void send_job(struct export_sender *s, struct ch_client *ch,
		     struct export_job *job)
{
	char *insert = export_schema_insert(job->table, ch->database);
	int ret = insert ? ch_exec(ch, insert, job->rows.data, job->rows.len, 1) :
			   -ENOMEM;

	free(insert);
	pthread_mutex_lock(&s->lock);
	if (ret && !s->error) {
		s->error = ret;
		snprintf(s->message, sizeof(s->message), "%s",
			 ret == -ENOMEM ? "out of memory" : ch->error);
	}
	rowbinary_reset(&job->rows);
	if (s->nspare < sizeof(s->spare) / sizeof(s->spare[0]))
		s->spare[s->nspare++] = job->rows;
	else
		rowbinary_free(&job->rows);
	s->busy--;
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
}

static void *sender_main(void *p)
{
	struct export_sender *s = ((struct sender_arg *)p)->s;
	struct ch_client *ch = ((struct sender_arg *)p)->ch;
	struct export_job job;

	free(p);
	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->queued && !s->stopping)
			pthread_cond_wait(&s->changed, &s->lock);
		if (!s->queued)
			break;
		job = s->queue[s->head];
		s->head = (s->head + 1) % EXPORT_QUEUE;
		s->queued--;
		if (s->error) {	/* the export failed: drop the rest */
			rowbinary_free(&job.rows);
			pthread_cond_broadcast(&s->changed);
			continue;
		}
		s->busy++;
		pthread_cond_broadcast(&s->changed);
		pthread_mutex_unlock(&s->lock);
		send_job(s, ch, &job);
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

int export_sender_start(struct export_sender *s, const struct ch_client *ch)
{
	unsigned int i;
	int ret;

	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	for (i = 0; i < EXPORT_SENDERS; i++) {
		struct sender_arg *arg = malloc(sizeof(*arg));

		ret = ch_client_init_like(&s->clients[i], ch);
		if (ret || !arg) {
			free(arg);
			return ret ? ret : -ENOMEM;
		}
		arg->s = s;
		arg->ch = &s->clients[i];
		ret = -pthread_create(&s->threads[i], NULL, sender_main, arg);
		if (ret) {
			free(arg);
			return ret;
		}
		s->nthreads++;
	}
	return 0;
}

int export_sender_send(struct export_sender *s, enum export_table t,
		       struct rowbinary *b)
{
	struct export_job *job;
	int ret;

	pthread_mutex_lock(&s->lock);
	while (s->queued == EXPORT_QUEUE && !s->error)
		pthread_cond_wait(&s->changed, &s->lock);
	ret = s->error;
	if (!ret) {
		job = &s->queue[(s->head + s->queued) % EXPORT_QUEUE];
		job->table = t;
		job->rows = *b;
		s->queued++;
		memset(b, 0, sizeof(*b));
		if (s->nspare)
			*b = s->spare[--s->nspare];
		pthread_cond_broadcast(&s->changed);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int export_sender_flush(struct export_sender *s)
{
	int ret;

	pthread_mutex_lock(&s->lock);
	while ((s->queued || s->busy) && !s->error)
		pthread_cond_wait(&s->changed, &s->lock);
	/* after a failure, what is in flight still ends before the caller goes on */
	while (s->busy)
		pthread_cond_wait(&s->changed, &s->lock);
	ret = s->error;
	pthread_mutex_unlock(&s->lock);
	return ret;
}

const char *export_sender_message(const struct export_sender *s)
{
	return s->message;
}

void export_sender_stop(struct export_sender *s)
{
	unsigned int i;

	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	/* a failure drops what still waits */
	if (s->error)
		while (s->queued) {
			rowbinary_free(&s->queue[s->head].rows);
			s->head = (s->head + 1) % EXPORT_QUEUE;
			s->queued--;
		}
	pthread_cond_broadcast(&s->changed);
	pthread_mutex_unlock(&s->lock);
	for (i = 0; i < s->nthreads; i++)
		pthread_join(s->threads[i], NULL);
	for (i = 0; i < EXPORT_SENDERS; i++)
		ch_client_done(&s->clients[i]);
	for (i = 0; i < s->nspare; i++)
		rowbinary_free(&s->spare[i]);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->changed);
}
