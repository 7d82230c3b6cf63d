/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stopping the trace (tracectl stop, record): the table of what the
 * archive holds per provider, with what to do about its drops, then the
 * archive put in place (archive_output.h) and the outcome said.
 */
#ifndef FXT_TRACECTL_STOP_REQUEST_H
#define FXT_TRACECTL_STOP_REQUEST_H

#include <stdint.h>

#include "control_client.h"

/*
 * Stops the trace, waiting at most timeout_ns (0: for ever) for the
 * archive. keep (unless NULL) gets the reply's providers, the caller's to
 * free. TRACECTL_EXIT_FAIL when the archive is incomplete or not at the
 * output, else TRACECTL_EXIT_OK.
 */
int stop_request(const char *cmd, struct control_reply *keep,
		 uint64_t timeout_ns);

#endif /* FXT_TRACECTL_STOP_REQUEST_H */
