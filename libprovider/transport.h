/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The link to the trace manager (transport.c). */
#ifndef FXT_PROVIDER_TRANSPORT_H
#define FXT_PROVIDER_TRANSPORT_H

/* Start the background thread that connects, if not done yet. */
void fxt_transport_ensure_started(void);

/* Sends a TRIGGER if a trace runs here; 0 or -errno, never blocks. */
int fxt_transport_send_trigger(const char *name);

#endif /* FXT_PROVIDER_TRANSPORT_H */
