/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names of the tasks that exist when capture starts, read from /proc and
 * kept as thread and process kernel object records (include/fxt/sched.h)
 * until the session writes them ahead of the kernel records.
 */
#ifndef FXT_KERNEL_NAMES_H
#define FXT_KERNEL_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

struct kernel_names {
	__u64 *words;
	size_t len;		/* words held */
	size_t cap;
	uint64_t records;
};

/*
 * Appends a process record per /proc/<pid> and a thread record per
 * /proc/<pid>/task/<tid> (tasks that exit meanwhile are skipped), plus
 * the idle task 0. Returns 0 or -errno (-ENOENT: proc_root unreadable).
 */
int kernel_names_dump(struct kernel_names *kn, const char *proc_root);
int kernel_names_add_thread(struct kernel_names *kn, uint64_t tid,
			    uint64_t tgid, const char *name);
int kernel_names_add_process(struct kernel_names *kn, uint64_t pid,
			     const char *name);
/* Appends a whole record of words words (kept with the names); 0 or -ENOMEM. */
int kernel_names_add_record(struct kernel_names *kn, const __u64 *w,
			    size_t words);
void kernel_names_clear(struct kernel_names *kn);
void kernel_names_free(struct kernel_names *kn);

#endif /* FXT_KERNEL_NAMES_H */
