/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel:mem's values at start: the RSS counters of the processes that
 * exist when capture starts, read from /proc, as the "mem.rss" counter
 * records of include/fxt/kmem.h. The programs write a counter only when
 * it changes: without these, a process whose memory holds still would
 * have none.
 */
#ifndef FXT_KERNEL_RSS_H
#define FXT_KERNEL_RSS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_names.h"

/*
 * The counters of a /proc/<pid>/status text in bytes, in the kernel's
 * MM_* order (RssFile, RssAnon, VmSwap, RssShmem, each "N kB"): a bit
 * per counter found in the return value (none: a kernel thread).
 */
unsigned int kernel_rss_parse_status(const char *text, size_t len,
				     uint64_t bytes[4]);

/*
 * Appends to kn, stamped ts, the four counters of every process under
 * proc_root (those that exit meanwhile or have no memory are skipped).
 * 0 or -errno (-ENOENT: proc_root unreadable).
 */
int kernel_rss_dump(struct kernel_names *kn, const char *proc_root,
		    uint64_t ts);

#endif /* FXT_KERNEL_RSS_H */
