/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:power counters on the CPU tracks of json_sched.h, kernel:block
 * requests on a track of their own (json_kdev.c).
 */
#ifndef FXT_CONVERT_JSON_KDEV_H
#define FXT_CONVERT_JSON_KDEV_H

#include <stdbool.h>

#include "json_emit.h"

/* Writes rec if it is one of them; false if not (nothing written). */
bool conv_kdev_event(struct converter *c, const struct fxt_record *rec);

#endif /* FXT_CONVERT_JSON_KDEV_H */
