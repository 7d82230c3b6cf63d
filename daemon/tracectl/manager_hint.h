/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What to do when tracectl cannot reach fxtraced, fitted to the machine:
 * the socket unit where systemd is PID 1, fxtraced itself elsewhere
 * (containers); FXTRACE_SOCKET only when the socket is not the default.
 */
#ifndef FXT_TRACECTL_MANAGER_HINT_H
#define FXT_TRACECTL_MANAGER_HINT_H

#include <stdbool.h>
#include <stdio.h>

/* Whether systemd is PID 1 (sd_booted(): /run/systemd/system exists). */
bool manager_hint_systemd(void);
/* The lines after "cannot reach fxtraced at PATH: ..." on out. */
void manager_hint_unreachable(FILE *out, const char *path);

#endif /* FXT_TRACECTL_MANAGER_HINT_H */
