/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One style for every usage error of fxtrace's programs: one line on
 * stderr that names the mistake and the --help to read,
 *   tracectl start: unknown option '--mdoe'; see 'tracectl start --help'
 * and exit status 2 (the caller's). getopt's own messages are turned off
 * (opterr = 0) and said so instead.
 */
#ifndef FXT_COMMON_USAGE_ERROR_H
#define FXT_COMMON_USAGE_ERROR_H

/* The value of the long option --version in every program's option table. */
#define USAGE_OPT_VERSION 0x1200
#define USAGE_VERSION_LONGOPT                                   \
	{                                                       \
		"version", no_argument, NULL, USAGE_OPT_VERSION \
	}

/* "PROG: WHAT; see 'PROG --help'": prog is e.g. "tracectl start". */
void usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * What getopt_long() (called with opterr 0) found wrong, as usage_error():
 * an unknown option, or one whose value is missing. optstring is the one
 * given to getopt_long().
 */
void usage_bad_option(const char *prog, char *const *argv,
		      const char *optstring);
/* Prints "NAME VERSION" on stdout and exits 0 (--version). */
__attribute__((noreturn)) void usage_version_exit(const char *name,
						  const char *version);

#endif /* FXT_COMMON_USAGE_ERROR_H */
