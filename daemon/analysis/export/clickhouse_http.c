// SPDX-License-Identifier: GPL-2.0-only
/* ClickHouse over HTTP with libcurl: see clickhouse_http.h. */
#define _GNU_SOURCE /* asprintf, memrchr */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "clickhouse_http.h"

/* A stalled server: the transfer is given up after this long below 1 B/s. */
#define CH_STALL_SECONDS 300L
#define CH_CONNECT_SECONDS 10L

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void ch_client_set_deadline(struct ch_client *ch, long seconds)
{
	ch->deadline_s = seconds;
	ch->deadline_ms = seconds > 0 ? now_ms() + (uint64_t)seconds * 1000u :
					0;
}

long ch_client_time_left(const struct ch_client *ch)
{
	uint64_t now = now_ms();

	if (!ch->deadline_ms)
		return LONG_MAX;
	return now >= ch->deadline_ms ? 0 :
					(long)((ch->deadline_ms - now) / 1000u);
}

/* Where a URL's query string puts a credential: its value hidden. */
static bool secret_key(const char *p, size_t len)
{
	return (len == 8 && !strncmp(p, "password", 8)) ||
	       (len == 4 && !strncmp(p, "user", 4));
}

char *ch_url_redacted(const char *url)
{
	const char *sep = strstr(url, "://");
	const char *host = sep ? sep + 3 : url, *p, *at;
	size_t hostlen = strcspn(host, "/?#");
	char *out = malloc(3 * strlen(url) + 8), *o;

	if (!out)
		return NULL;
	o = out;
	at = memrchr(host, '@', hostlen);
	o = mempcpy(o, url, (size_t)(host - url));
	if (at) {
		o = mempcpy(o, "***", 3);
		host = at;
	}
	p = strchr(host, '?');
	o = mempcpy(o, host, p ? (size_t)(p - host) : strlen(host));
	while (p && *p) {
		size_t part = strcspn(p + 1, "&#") + 1;
		const char *eq = memchr(p + 1, '=', part - 1);

		if (eq && secret_key(p + 1, (size_t)(eq - p - 1))) {
			o = mempcpy(o, p, (size_t)(eq + 1 - p));
			o = mempcpy(o, "***", 3);
		} else {
			o = mempcpy(o, p, part);
		}
		p += part;
		if (*p == '#') {
			o = mempcpy(o, p, strlen(p));
			break;
		}
	}
	*o = '\0';
	return out;
}

int ch_identifier_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n > 64 || isdigit((unsigned char)name[0]))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return 0;
	return 1;
}

/* One line of text from the server or libcurl, printable ASCII only. */
static void set_error(struct ch_client *ch, const char *prefix,
		      const char *text, size_t len)
{
	size_t n = (size_t)snprintf(ch->error, sizeof(ch->error), "%s", prefix);
	size_t i;

	if (n >= sizeof(ch->error))
		return;
	for (i = 0; i < len && n + 1 < sizeof(ch->error); i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n' || c == '\r')
			break;
		ch->error[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	ch->error[n] = '\0';
}

/* Where the URL points, without credentials: "host:port". */
static int url_where(struct ch_client *ch)
{
	char *scheme = NULL, *host = NULL, *port = NULL;
	CURLU *u = curl_url();
	int ret = -EINVAL;

	if (!u)
		return -ENOMEM;
	if (curl_url_set(u, CURLUPART_URL, ch->url, 0) ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT))
		goto out;
	if (strcmp(scheme, "http") && strcmp(scheme, "https"))
		goto out;
	if (asprintf(&ch->where, "%s:%s", host, port) < 0) {
		ch->where = NULL;
		ret = -ENOMEM;
		goto out;
	}
	ret = 0;
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return ret;
}

int ch_client_init(struct ch_client *ch, const char *url,
		   const char *database)
{
	static int global_done;
	int ret;

	memset(ch, 0, sizeof(*ch));
	if (!global_done) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT))
			return -ENOMEM;
		global_done = 1;
	}
	if (!ch_identifier_ok(database)) {
		snprintf(ch->error, sizeof(ch->error),
			 "the database name must be letters, digits and '_'");
		return -EINVAL;
	}
	ch->url = strdup(url);
	ch->database = strdup(database);
	ch->curl = curl_easy_init();
	if (!ch->url || !ch->database || !ch->curl)
		return -ENOMEM;
	ret = url_where(ch);
	if (ret == -EINVAL)
		snprintf(ch->error, sizeof(ch->error),
			 "not an http:// or https:// URL");
	return ret;
}

int ch_client_init_like(struct ch_client *ch, const struct ch_client *like)
{
	int ret = ch_client_init(ch, like->url, like->database);

	ch->timeout_s = like->timeout_s;
	ch->deadline_ms = like->deadline_ms;
	ch->deadline_s = like->deadline_s;
	return ret;
}

void ch_client_done(struct ch_client *ch)
{
	if (ch->curl)
		curl_easy_cleanup(ch->curl);
	free(ch->url);
	free(ch->where);
	free(ch->database);
	memset(ch, 0, sizeof(*ch));
}

static size_t on_answer(char *data, size_t size, size_t n, void *ctx)
{
	struct ch_client *ch = ctx;
	size_t len = size * n, room = sizeof(ch->answer) - 1 - ch->answer_len;

	memcpy(ch->answer + ch->answer_len, data, len < room ? len : room);
	ch->answer_len += len < room ? len : room;
	ch->answer[ch->answer_len] = '\0';
	return len;
}

/* The statement's URL: the one given, the database, the query escaped. */
static char *statement_url(struct ch_client *ch, const char *sql,
			   int with_database)
{
	const char *sep = strchr(ch->url, '?') ? "&" : "?";
	char *q = NULL, *url;

	if (sql) {
		q = curl_easy_escape(ch->curl, sql, 0);
		if (!q)
			return NULL;
	}
	if (asprintf(&url, "%s%s%s%s%s%s%s", ch->url, sep,
		     with_database ? "database=" : "",
		     with_database ? ch->database : "",
		     with_database && q ? "&" : "", q ? "query=" : "",
		     q ? q : "") < 0)
		url = NULL;
	curl_free(q);
	return url;
}

/* The request's whole time: its own limit, or less before the deadline. */
static long request_ms(const struct ch_client *ch, bool *by_deadline)
{
	long s = ch->timeout_s > 0 ? ch->timeout_s : CH_TIMEOUT_DEFAULT;
	long ms = s * 1000;
	uint64_t now = now_ms();

	*by_deadline = false;
	if (ch->deadline_ms && ch->deadline_ms - now < (uint64_t)ms) {
		*by_deadline = true;
		ms = now >= ch->deadline_ms ? 0 : (long)(ch->deadline_ms - now);
	}
	return ms;
}

static int timed_out(struct ch_client *ch, bool by_deadline)
{
	if (by_deadline)
		snprintf(ch->error, sizeof(ch->error),
			 "the archive's time limit of %ld s is up",
			 ch->deadline_s);
	else
		snprintf(ch->error, sizeof(ch->error),
			 "no whole answer within %ld s (a request's limit)",
			 ch->timeout_s > 0 ? ch->timeout_s :
					     CH_TIMEOUT_DEFAULT);
	return -ETIMEDOUT;
}

/* A timeout of the whole request (not of the connection, nor a stall). */
static bool whole_time_spent(struct ch_client *ch, long ms)
{
	curl_off_t us = 0;

	curl_easy_getinfo(ch->curl, CURLINFO_TOTAL_TIME_T, &us);
	return us / 1000 + 1000 >= ms;
}

static void setup_request(struct ch_client *ch, const char *url,
			  const void *body, size_t len, long timeout_ms)
{
	CURL *c = ch->curl;

	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_answer);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, ch);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, CH_CONNECT_SECONDS);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, CH_STALL_SECONDS);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
}

int ch_exec(struct ch_client *ch, const char *sql, const void *body,
	    size_t len, int with_database)
{
	bool by_deadline;
	long status = 0, ms = request_ms(ch, &by_deadline);
	CURLcode rc;
	char *url;

	ch->answer_len = 0;
	ch->answer[0] = '\0';
	if (!ms)
		return timed_out(ch, true);
	url = statement_url(ch, body ? sql : NULL, with_database);
	if (!url)
		return -ENOMEM;
	if (!body) {
		body = sql;
		len = strlen(sql);
	}
	setup_request(ch, url, body, len, ms);
	rc = curl_easy_perform(ch->curl);
	free(url);
	if (rc == CURLE_OPERATION_TIMEDOUT && whole_time_spent(ch, ms))
		return timed_out(ch, by_deadline);
	if (rc != CURLE_OK) {
		const char *why = curl_easy_strerror(rc);

		set_error(ch, "", why, strlen(why));
		return -ECONNREFUSED;
	}
	ch->bytes_sent += len;
	curl_easy_getinfo(ch->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		set_error(ch, "", ch->answer, ch->answer_len);
		if (!ch->error[0])
			snprintf(ch->error, sizeof(ch->error),
				 "HTTP status %ld", status);
		return -EREMOTEIO;
	}
	return 0;
}

int ch_answer_u64(const struct ch_client *ch, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)ch->answer[0]))
		return -EREMOTEIO;
	errno = 0;
	*v = strtoull(ch->answer, &end, 10);
	if (errno || (*end && *end != '\n'))
		return -EREMOTEIO;
	return 0;
}
