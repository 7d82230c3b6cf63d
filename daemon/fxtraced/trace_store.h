/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What keeps the running trace for a restart of the manager: the state
 * file (trace_state.h) and the service manager's descriptor store, where
 * under systemd its archive, its kernel capture and its triggers'
 * snapshot directory wait (without NOTIFY_SOCKET these do nothing).
 */
#ifndef FXT_TRACE_STORE_H
#define FXT_TRACE_STORE_H

struct manager;
struct trace;
struct trace_state;

void trace_store_archive(struct trace *t);
void trace_store_kernel(struct trace *t);
/* The armed triggers' snapshot directory (trigger.h). */
void trace_store_triggers_dir(struct trace *t, int dir_fd);
void trace_unstore_kernel(const struct trace *t);
void trace_unstore_all(const struct trace *t);
/*
 * Writes st, what a restarted manager resumes m's trace from, to the
 * state file; a failure is logged once, until a write works again.
 */
void trace_store_state(struct manager *m, struct trace_state *st);

#endif /* FXT_TRACE_STORE_H */
