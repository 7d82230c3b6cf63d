/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The listening socket: socket-activated or bound here; each connection
 * becomes a provider or a controller according to its first message.
 */
#ifndef FXT_LISTENER_H
#define FXT_LISTENER_H

struct manager;

/* What the listener tells the manager that owns it (manager.c sets it). */
struct listener_events {
	/* A connection that had not said what it is went away. */
	void (*gone)(struct manager *m);
};

int listener_open(struct manager *m, const char *path);
void listener_close(struct manager *m);

#endif /* FXT_LISTENER_H */
