/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:mem probes (include/fxt/kmem.h): RSS counters, reclaim stalls
 * and OOM kills, registered by fxt_probes.c's table.
 */
#ifndef FXT_MEM_H
#define FXT_MEM_H

#include <linux/types.h>

#include "fxt_session.h"

struct mm_struct;
struct task_struct;

/* The state of processes and threads; before the probes are registered. */
int fxt_mem_start(void);
/* Frees it; once no probe runs any more. */
void fxt_mem_stop(void);

#ifdef FXT_RSS_STAT_HAS_COUNT
void fxt_probe_rss_stat(void *data, struct mm_struct *mm, int member,
			long count);
#else
void fxt_probe_rss_stat(void *data, struct mm_struct *mm, int member);
#endif
/* On sched_process_exit, beside kernel:proc's probe. */
void fxt_probe_mem_exit(void *data, struct task_struct *task);
void fxt_probe_direct_reclaim_begin(void *data, int order, gfp_t gfp_flags);
void fxt_probe_direct_reclaim_end(void *data, unsigned long nr_reclaimed);
void fxt_probe_memcg_reclaim_begin(void *data, int order, gfp_t gfp_flags);
void fxt_probe_memcg_reclaim_end(void *data, unsigned long nr_reclaimed);
#ifdef FXT_HAVE_MARK_VICTIM_TASK
void fxt_probe_mark_victim(void *data, struct task_struct *task, uid_t uid);
#endif

#endif /* FXT_MEM_H */
