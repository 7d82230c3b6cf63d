/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Starting a trace (tracectl start, record): the archive's hidden file
 * created with the caller's rights and passed to fxtraced with the START
 * request, then the triggers armed; what went wrong said with what to do.
 */
#ifndef FXT_TRACECTL_START_REQUEST_H
#define FXT_TRACECTL_START_REQUEST_H

#include "start_options.h"

/* TRACECTL_EXIT_OK, or TRACECTL_EXIT_FAIL after saying why. */
int start_request(const char *cmd, struct start_options *o);

#endif /* FXT_TRACECTL_START_REQUEST_H */
