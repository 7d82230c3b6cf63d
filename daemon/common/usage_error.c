// SPDX-License-Identifier: GPL-2.0-only
/* Usage errors in one style: see usage_error.h. */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usage_error.h"

void usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see '%s --help'\n", prog);
}

/* Whether getopt's last '?' was a known option missing its value. */
static bool missing_value(const char *optstring)
{
	const char *p;

	if (optopt >= 256) /* a long option of its own value */
		return true;
	if (optopt <= 0 || optopt == ':' || optopt == '+' || optopt == '-')
		return false;
	p = strchr(optstring, optopt);
	return p && p[1] == ':';
}

void usage_bad_option(const char *prog, char *const *argv,
		      const char *optstring)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (optopt && !strncmp(arg, "--", 2) && strchr(arg, '='))
		usage_error(prog, "option '%.*s' takes no value",
			    (int)(strchr(arg, '=') - arg), arg);
	else if (missing_value(optstring))
		usage_error(prog, "option '%s' needs a value", arg);
	else if (optopt > 0 && optopt < 256)
		usage_error(prog, "unknown option '-%c'", optopt);
	else
		usage_error(prog, "unknown option '%s'", arg);
}

void usage_version_exit(const char *name, const char *version)
{
	printf("%s %s\n", name, version);
	exit(fflush(stdout) ? EXIT_FAILURE : EXIT_SUCCESS);
}
