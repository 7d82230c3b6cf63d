/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The losses of a trace's stack samples (include/fxt/stacks_losses.h)
 * gathered from capture (samples lost whole) and the stacks (walks cut,
 * mappings and names lost), and said in the three places a user looks:
 * rows of tracectl status and stop (FXT_CTL_PROVIDER_LOSS), the journal
 * and the archive's record at stop (a snapshot's at its end).
 */
#ifndef FXT_KERNEL_LOSSES_H
#define FXT_KERNEL_LOSSES_H

#include <stddef.h>
#include <stdint.h>

#include "control_proto.h"
#include "kernel_session.h"
#include "stacks.h"

/* The record's words at most (header, every name at its longest). */
#define KERNEL_LOSSES_RECORD_WORDS \
	(1 + FXT_STACK_LOSS_COUNT * (2 + (FXT_STACK_LOSSES_NAME_MAX + 7) / 8))

/*
 * Capture's and the stacks' counts, into *l (zeroed here); snapshot: the
 * walks of the last snapshot (stacks_losses()).
 */
void kernel_losses_read(const struct kernel_session_stats *st,
			const struct stacks *s, bool snapshot,
			struct stacks_losses *l);

/* Said in the journal at stop, those that are not zero. */
void kernel_losses_log(const struct stacks_losses *l);

/* The archive's record into rec (KERNEL_LOSSES_RECORD_WORDS); its words. */
size_t kernel_losses_record(const struct stacks_losses *l, uint64_t *rec);

/* One row per reason, into out (room for FXT_STACK_LOSS_COUNT). */
size_t kernel_losses_rows(const struct stacks_losses *l, uint32_t id,
			  struct fxt_ctl_provider *out);

#endif /* FXT_KERNEL_LOSSES_H */
