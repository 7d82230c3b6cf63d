/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The first pass of a merge over one input at the speed of reading it:
 * its host and clock records, without decoding the rest (merge_skim.c).
 */
#ifndef FXT_MERGE_SKIM_H
#define FXT_MERGE_SKIM_H

#include "fxt_merge.h"

/* The manager's records the skim keeps to decode; past it, -EAGAIN. */
#define MERGE_SKIM_KEEP_MAX (4u << 20)

/*
 * h's host and clock records into h->hc: 0; -EAGAIN when the reader's own
 * pass must do it; or -errno with *problem set (a record it cannot hop
 * over: size 0, cut; a read error).
 */
int merge_skim(struct merge_host *h, struct fxt_merge_problem *problem);

#endif /* FXT_MERGE_SKIM_H */
