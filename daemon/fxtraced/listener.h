/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The listening socket: socket-activated or bound here; each connection
 * becomes a provider or a controller according to its first message.
 */
#ifndef FXT_LISTENER_H
#define FXT_LISTENER_H

struct manager;

int listener_open(struct manager *m, const char *path);
void listener_close(struct manager *m);

#endif /* FXT_LISTENER_H */
