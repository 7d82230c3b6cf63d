// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl stop: ends the trace and puts its archive in place, or puts in
 * place the archive of a trace that ended by itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "stop_request.h"
#include "tracectl.h"
#include "usage_error.h"

/* How long a stop waits for the archive by default. */
#define STOP_TIMEOUT_DEFAULT_NS (300ull * 1000000000u)

int cmd_stop(int argc, char **argv)
{
	uint64_t timeout_ns = STOP_TIMEOUT_DEFAULT_NS;

	if (tracectl_help_or_version(argc, argv)) {
		printf("Usage: tracectl stop [--timeout TIME]\n"
		       "Stops the running trace; fxtraced writes the archive and tracectl\n"
		       "prints, per provider, its records, bytes and drops, then renames\n"
		       "the archive into place (a file there is kept as FILE.old). Only\n"
		       "the uid that started the trace does; for others the archive waits\n"
		       "for that uid's stop. After a trace that ended by itself, stop puts\n"
		       "its archive in place. Exits 1 when the archive is incomplete.\n\n"
		       "  --timeout TIME  wait at most TIME for the archive to be written\n"
		       "                  (default 5min; 0: for ever); past it, the trace\n"
		       "                  is stopped and the next stop puts the archive\n"
		       "                  in place\n\n"
		       "Examples:\n  sudo tracectl stop\n"
		       "  tracectl stop --timeout 30s\n"
		       "  FXTRACE_SOCKET=/tmp/fxt.sock tracectl stop\n");
		return TRACECTL_EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "--timeout")) {
		if (parse_duration_ns(argv[2], &timeout_ns) < 0) {
			usage_error(argv[0], "--timeout %s: give a time, e.g. 30s, or 0 to wait for ever",
				    argv[2]);
			return TRACECTL_EXIT_USAGE;
		}
	} else if (argc == 2 && !strcmp(argv[1], "--timeout")) {
		usage_error(argv[0], "option '--timeout' needs a value");
		return TRACECTL_EXIT_USAGE;
	} else if (argc > 1) {
		return tracectl_stray(argv[0], argv[strcmp(argv[1], "--timeout") ? 1 : 3]);
	}
	return stop_request("stop", NULL, timeout_ns);
}
