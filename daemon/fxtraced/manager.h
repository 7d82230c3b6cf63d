/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxtraced: one Manager owning the event loop, the listening socket, the
 * connected providers and controllers, and at most one running trace.
 * Each concern has its own file, header and event source:
 *   listener.c      the socket, accepting, telling providers from controllers
 *   provider.c      a provider connection (HELLO, START/STOP, SAVE)
 *   controller.c    a tracectl connection (start, stop, status)
 *   trace.c         the trace: start, stop with its timeout, duration timer
 *   collect.c       a provider's buffer into the archive
 *   archive.c       the archive file and its writer thread
 *   kernel_source.c kernel capture and its event fd
 */
#ifndef FXT_MANAGER_H
#define FXT_MANAGER_H

#include "manager_state.h"

int manager_new(struct manager **ret);
struct manager *manager_free(struct manager *m);
/*
 * state_dir: NULL for the default (set_state_dir() in manager.c); one
 * another uid could write is refused (logged): then no state is kept.
 */
int manager_start(struct manager *m, const char *socket_path,
		  const char *state_dir);
int manager_run(struct manager *m);
void manager_update_status(struct manager *m);
/* After a connection came or went: arms or disarms the idle exit. */
void manager_check_idle(struct manager *m);
void manager_trace_finished(struct manager *m);
void manager_maybe_exit(struct manager *m);

#endif /* FXT_MANAGER_H */
