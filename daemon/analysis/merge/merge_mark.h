/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The merged archive's own records (<fxt/host_clock.h>): a section of
 * the manager's provider, before the inputs' records, with a host record
 * of its own trace id, the first input's clock readings (the output's
 * clock is that input's), and a "merge" record per input naming it and
 * its trace id. So a reader of the merge (summary, export) finds one
 * trace, not the first input's again, and what it was made of. After
 * the inputs' records, the section again with each input's CPU numbers
 * in the output ("merge_cpus"), so that the export can tell whose CPU a
 * scheduling record's is.
 */
#ifndef FXT_MERGE_MARK_H
#define FXT_MERGE_MARK_H

#include <stddef.h>

#include "merge_records.h"

/* trace_id: 32 hex (fxt_merge_options). 0 or the writer's -errno. */
int merge_out_mark(struct merge_out *o, const struct merge_host *hosts,
		   size_t n, const char *trace_id);
/* After every input's records (their CPUs known): 0 or the writer's -errno. */
int merge_out_cpus(struct merge_out *o, const struct merge_host *hosts,
		   size_t n);

#endif /* FXT_MERGE_MARK_H */
