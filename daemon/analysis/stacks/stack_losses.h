/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the stack records of an archive lost or lacked, said in one line
 * for the user (tracectl's commands write it to stderr): the counts of
 * stack_tables.h and stack_profile.h, the figures shown meanwhile with
 * "[missing ...]" names or without the samples concerned. And what the
 * manager lost while recording them (its "fxtrace:stack_losses" record,
 * struct stack_capture_losses), shown by the summary and the report.
 */
#ifndef FXT_STACK_LOSSES_H
#define FXT_STACK_LOSSES_H

#include <stdbool.h>

#include "stack_profile.h"
#include "stack_tables.h"
#include "text_out.h"

#define STACK_LOSSES_TEXT_MAX 512u

/*
 * "stack records: N ..., M ...; the archive is damaged or incomplete"
 * into buf (STACK_LOSSES_TEXT_MAX bytes), and true, if anything was lost.
 */
bool stack_losses_text(char *buf, const struct stack_table_stats *t,
		       const struct stack_profile_stats *p);

/*
 * The same counts as JSON members, each after a comma: samples_dropped,
 * samples_malformed, samples_without_stack, entries_malformed,
 * entries_duplicate, entries_dropped, missing_frames, missing_mappings,
 * functions_dropped, frames_cut (convert's and summary's objects).
 */
void stack_losses_json(struct text_out *w, const struct stack_table_stats *t,
		       const struct stack_profile_stats *p);

/*
 * The manager's count, into buf (STACK_LOSSES_TEXT_MAX bytes): "none",
 * or "REASON N, ..." of the reasons not zero (names of
 * include/fxt/stacks_losses.h; "unknown reasons N" for a later
 * manager's). False when the archive holds no such record.
 */
bool stack_capture_text(char *buf, const struct stack_capture_losses *c);

/*
 * The same as a JSON member after a comma: "stack_losses":{"recorded":
 * true|false, then every reason by name, then "unknown"}.
 */
void stack_capture_json(struct text_out *w,
			const struct stack_capture_losses *c);

#endif /* FXT_STACK_LOSSES_H */
