/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fresh trace id (<fxt/host_clock.h>: 32 lowercase hex, random), as
 * the manager gives a trace, a snapshot and tracectl merge an archive:
 * sd_id128_randomize(), written by sd_id128_to_string().
 */
#ifndef FXT_COMMON_TRACE_ID_H
#define FXT_COMMON_TRACE_ID_H

#include <fxt/host_clock.h>

/* id gets a fresh one: 0, or -errno (no randomness to be had). */
int trace_id_new(char id[FXT_HOST_TRACE_ID_LEN + 1]);

#endif /* FXT_COMMON_TRACE_ID_H */
