/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Logging for the daemons: one line per message on stderr with the
 * sd-daemon priority prefix, which journald turns into the priority when
 * the daemon runs under systemd. Only the boundary logs (main, event
 * handlers); helpers return -errno.
 */
#ifndef FXT_COMMON_LOG_H
#define FXT_COMMON_LOG_H

#include <errno.h>
#include <syslog.h>

void log_level_set(int max_level);
void log_write(int level, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
