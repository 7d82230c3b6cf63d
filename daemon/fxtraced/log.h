/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Logging for the daemons. Under systemd (stderr is the journal stream
 * named by $JOURNAL_STREAM) each message goes to the journal with its
 * priority and structured fields (FXT_TRACE_ID=, FXT_OUTPUT=,
 * FXT_PROVIDER_NAME=, FXT_PROVIDER_PID=); otherwise one line on stderr
 * with the sd-daemon priority prefix. Only the boundary logs (main, event
 * handlers); helpers return -errno.
 */
#ifndef FXT_COMMON_LOG_H
#define FXT_COMMON_LOG_H

#include <errno.h>
#include <sys/types.h>
#include <syslog.h>

/* The journal fields of one message; NULL or 0: left out. */
struct log_fields {
	const char *trace_id;
	const char *output;
	const char *provider_name;
	pid_t provider_pid;
};

void log_level_set(int max_level);
void log_full(int level, int error, const struct log_fields *fields,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define log_write(level, error, ...) log_full((level), (error), NULL, __VA_ARGS__)

/* Logs with strerror(-r) appended ("%m" style) and returns r (< 0). */
#define log_error_errno(r, ...) log_errno_at(LOG_ERR, (r), __VA_ARGS__)
#define log_warning_errno(r, ...) log_errno_at(LOG_WARNING, (r), __VA_ARGS__)
#define log_errno_at(level, r, ...)                                        \
	({                                                                 \
		int _r = (r);                                              \
		log_write((level), _r < 0 ? -_r : _r, __VA_ARGS__);        \
		_r < 0 ? _r : -_r;                                         \
	})
#define log_error(...) log_write(LOG_ERR, 0, __VA_ARGS__)
#define log_warning(...) log_write(LOG_WARNING, 0, __VA_ARGS__)
#define log_notice(...) log_write(LOG_NOTICE, 0, __VA_ARGS__)
#define log_info(...) log_write(LOG_INFO, 0, __VA_ARGS__)
#define log_debug(...) log_write(LOG_DEBUG, 0, __VA_ARGS__)

#endif /* FXT_COMMON_LOG_H */
