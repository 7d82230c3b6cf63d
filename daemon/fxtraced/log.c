// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* CODE_FILE= would name this file, never the caller: leave it out. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "log.h"

#define LOG_FIELDS_MAX 8
#define LOG_FIELD_MAX 4200

static int log_max_level = LOG_INFO;

void log_level_set(int max_level)
{
	log_max_level = max_level;
}

/*
 * systemd connects stderr to the journal and says so in $JOURNAL_STREAM
 * ("device:inode" of that stream); a redirected stderr no longer matches.
 */
static bool to_journal(void)
{
	static int cached = -1;
	const char *e;
	struct stat st;
	unsigned long long dev, ino;

	if (cached >= 0)
		return cached;
	e = getenv("JOURNAL_STREAM");
	cached = e && sscanf(e, "%llu:%llu", &dev, &ino) == 2 &&
		 fstat(STDERR_FILENO, &st) == 0 && st.st_dev == dev &&
		 st.st_ino == ino;
	return cached;
}

/*
 * Paths and names in messages come from controllers and providers: a
 * newline in one must not start a line of its own, with a priority
 * prefix of its choosing.
 */
static void defuse(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			*s = '?';
}

static void add(struct iovec *iov, int *n, char (*buf)[LOG_FIELD_MAX],
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(struct iovec *iov, int *n, char (*buf)[LOG_FIELD_MAX],
		const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf[*n], LOG_FIELD_MAX, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	defuse(buf[*n]);
	iov[*n].iov_base = buf[*n];
	iov[*n].iov_len = strlen(buf[*n]);
	(*n)++;
}

static void send_journal(int level, int error, const struct log_fields *f,
			 const char *line)
{
	static char buf[LOG_FIELDS_MAX][LOG_FIELD_MAX];
	struct iovec iov[LOG_FIELDS_MAX];
	int n = 0;

	if (error)
		add(iov, &n, buf, "MESSAGE=%s: %s", line, strerror(error));
	else
		add(iov, &n, buf, "MESSAGE=%s", line);
	add(iov, &n, buf, "PRIORITY=%d", level);
	add(iov, &n, buf, "SYSLOG_IDENTIFIER=fxtraced");
	if (error)
		add(iov, &n, buf, "ERRNO=%d", error);
	if (f && f->trace_id)
		add(iov, &n, buf, "FXT_TRACE_ID=%s", f->trace_id);
	if (f && f->output)
		add(iov, &n, buf, "FXT_OUTPUT=%s", f->output);
	if (f && f->provider_name)
		add(iov, &n, buf, "FXT_PROVIDER_NAME=%s", f->provider_name);
	if (f && f->provider_pid > 0)
		add(iov, &n, buf, "FXT_PROVIDER_PID=%d", (int)f->provider_pid);
	(void)sd_journal_sendv(iov, n);
}

void log_full(int level, int error, const struct log_fields *fields,
	      const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (level > log_max_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	defuse(line);
	if (to_journal())
		send_journal(level, error, fields, line);
	else if (error)
		fprintf(stderr, "<%d>fxtraced: %s: %s\n", level, line,
			strerror(error));
	else
		fprintf(stderr, "<%d>fxtraced: %s\n", level, line);
}
