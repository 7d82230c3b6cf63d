/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An answer on its way to the controller that asked. The trace, the
 * snapshots and the triggers answer through this, given by the
 * controller with its request (controller_send() behind it), and never
 * call controller.c themselves.
 */
#ifndef FXT_REPLY_H
#define FXT_REPLY_H

#include <stddef.h>

/* Sends or queues one message to ctx: 0, or -errno if it is gone. */
typedef int (*reply_fn)(void *ctx, const void *msg, size_t len);

#endif /* FXT_REPLY_H */
