/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The interrupts and memory stalls of why_sched.h: kernel:irq and
 * kernel:mem begin/end pairs, paired per thread as they come, kept when
 * they touch a window.
 */
#ifndef FXT_WHY_OVERLAY_H
#define FXT_WHY_OVERLAY_H

#include "why_sched.h"

/* An event record of the archive; 0 or -ENOMEM. */
int why_overlay_take(struct why_sched *ws, const struct fxt_record *rec);
/* Sorts them. */
void why_overlay_finish(struct why_sched *ws);
void why_overlay_free(struct why_sched *ws);

#endif /* FXT_WHY_OVERLAY_H */
