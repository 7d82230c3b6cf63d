/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The link to the trace manager (transport.c). */
#ifndef FXT_PROVIDER_TRANSPORT_H
#define FXT_PROVIDER_TRANSPORT_H

/* Start the background thread that connects, if not done yet. */
void fxt_transport_ensure_started(void);

#endif /* FXT_PROVIDER_TRANSPORT_H */
