/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fxtraced: one manager owning the event loop and all the rest, each
 * object in a file of its own. Who owns whom:
 *
 *   manager (manager.c; its state, which what it owns reads too, in
 *            manager_state.h)
 *     listener      listener.c: the socket; a connection that has not
 *                   said what it is yet, then a provider or a controller
 *     providers     provider.c: a connection with its buffer
 *                   (provider_buffer.c); collect.c writes one into an
 *                   archive
 *     controllers   controller.c: a tracectl connection and its requests
 *     trace         trace.c and trace_*.c: at most one; it owns
 *       archive         archive.c: the file and its writer thread
 *       kernel source   kernel_source.c over kernel/: kernel capture
 *     snapshots     snapshot.c: each with an archive of its own, written
 *                   on after the trace ends
 *     triggers      trigger.c: armed on the running trace, disarmed when
 *                   it stops; their snapshots are snapshot.c's
 *
 * Calls go one way, from the first to the last of: manager, listener,
 * controllers, triggers, snapshots, trace, providers. The listener makes
 * providers and controllers; a controller asks the trace, the snapshots,
 * the triggers and the providers; the triggers take snapshots and read
 * the trace; a snapshot reads the trace's providers and kernel capture;
 * the trace drives the providers, its archive and its kernel source.
 * Nothing calls back up: what
 * an owned object tells the manager goes through the callbacks the
 * manager sets (listener_events, provider_events, controller_events,
 * trace_events), which hands it on; an answer to a controller goes
 * through the reply it gave with its request (reply.h); the kernel
 * capture writes through kernel_write_fn.
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

#endif /* FXT_MANAGER_H */
