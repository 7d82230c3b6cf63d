// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl start: a trace that runs until tracectl stop (or --duration),
 * its archive written by fxtraced to a file the caller opened.
 */
#include <getopt.h>

#include "start_options.h"
#include "start_request.h"
#include "tracectl.h"
#include "usage_error.h"

int cmd_start(int argc, char **argv)
{
	struct start_options o = { 0 };

	if (start_options_parse("start", argc, argv, &o) < 0)
		return TRACECTL_EXIT_USAGE;
	if (o.help) {
		start_options_usage(stdout, "start");
		return TRACECTL_EXIT_OK;
	}
	if (optind < argc) {
		usage_error(argv[0], "unexpected argument '%s' (to trace a command: tracectl record -- COMMAND)",
			    argv[optind]);
		return TRACECTL_EXIT_USAGE;
	}
	return start_request("start", &o);
}
