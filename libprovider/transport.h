/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The link to the trace manager (transport.c). */
#ifndef FXT_PROVIDER_TRANSPORT_H
#define FXT_PROVIDER_TRANSPORT_H

/* Start the background thread that connects, if not done yet. */
void fxt_transport_ensure_started(void);
/*
 * The same, then, with $FXTRACE_START_WAIT_MS, wait until its first
 * connection attempt settled (a trace joined, or none to join) or the
 * process's one deadline passed, whichever thread calls first. Never
 * inside a write (a stop waits for those).
 */
void fxt_transport_join(void);

/* Sends a TRIGGER if a trace runs here; 0 or -errno, never blocks. */
int fxt_transport_send_trigger(const char *name);

#endif /* FXT_PROVIDER_TRANSPORT_H */
