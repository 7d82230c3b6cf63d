/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The inputs of a merged archive (tracectl merge), from its "merge"
 * records (<fxt/host_clock.h>), in order; summary_host.h prints them.
 */
#ifndef FXT_SUMMARY_MERGED_H
#define FXT_SUMMARY_MERGED_H

#include <stddef.h>

#include "host_clock.h"

struct summary_merged {
	struct fxt_merge_input *inputs;
	size_t n;
};

/*
 * 0 (rec taken if it is a "merge" record; past FXT_MERGE_INPUTS_MAX,
 * not kept), or -ENOMEM.
 */
int summary_merged_take(struct summary_merged *m, const struct fxt_record *rec);
void summary_merged_free(struct summary_merged *m);

#endif /* FXT_SUMMARY_MERGED_H */
