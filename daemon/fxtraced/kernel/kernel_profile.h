/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel session's stack samples (kernel:sample, kernel:offcpu): the
 * sources that resolve them and the ingest that turns the rings' raw
 * records into the archive's form. The session hands every record it
 * writes to kernel_profile_filter(): raw stack records never pass.
 */
#ifndef FXT_KERNEL_PROFILE_H
#define FXT_KERNEL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_session.h"
#include "profile_ingest.h"

struct kernel_profile;

/*
 * For events (FXT_SCHED_EV_*): NULL without stack categories. adopted: a
 * trace taken over from a manager that died, whose ids are in the archive
 * already: ours are of another generation.
 */
int kernel_profile_new(uint32_t events, bool adopted,
		       struct kernel_profile **ret);
void kernel_profile_free(struct kernel_profile *kp);
/* Before each drain of the rings. */
void kernel_profile_refresh(struct kernel_profile *kp);
/*
 * The end's names (a stop, a snapshot) are looked up for this long at
 * most; frames left are unnamed, counted (files_over_budget).
 */
#define KERNEL_PROFILE_SYMBOLS_NS 5000000000ull
void kernel_profile_finishing(struct kernel_profile *kp);
/* The mapping tracker read between drains: false without stacks. */
bool kernel_profile_follow(struct kernel_profile *kp);
/* The main archive's ingest; a snapshot's own (free it). */
struct profile_ingest *kernel_profile_ingest(struct kernel_profile *kp);
int kernel_profile_snapshot_ingest(struct kernel_profile *kp,
				   struct profile_ingest **ret);

/*
 * Whether rec is a raw stack record, which goes to pi (when there is
 * none, it is counted as lost in *lost) and not further: *err then says
 * how its ingest went.
 */
bool kernel_profile_filter(struct profile_ingest *pi, const uint64_t *rec,
			   size_t words, profile_emit_fn emit, void *ctx,
			   uint64_t *lost, int *err);

/* 0, or why kernel frames are "[kernel]": ksyms_load()'s error. */
int kernel_profile_ksyms_error(const struct kernel_profile *kp);
/* 0, or why user frames of programs mapped while tracing are "[unknown]". */
int kernel_profile_tracker_error(const struct kernel_profile *kp);

/* Adds the samples written and lost to the session's counters. */
void kernel_profile_add_stats(const struct kernel_profile *kp,
			      struct kernel_session_stats *st);

#endif /* FXT_KERNEL_PROFILE_H */
