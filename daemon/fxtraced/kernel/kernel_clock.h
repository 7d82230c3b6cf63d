/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The clock of the kernel side's records. The module and the BPF program
 * stamp them with the kernel's CLOCK_BOOTTIME, which no time namespace
 * shifts; the manager's own clock_gettime(CLOCK_BOOTTIME), its
 * providers' and its host records' are those of its time namespace
 * (unshare --time, a restored container): the kernel's plus the
 * namespace's boottime offset. The session reads that offset once and
 * adds it to every time a kernel record holds as it reads the rings, so
 * that an archive has one clock.
 */
#ifndef FXT_KERNEL_CLOCK_H
#define FXT_KERNEL_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/*
 * The boottime line of a /proc/PID/timens_offsets text (len bytes,
 * "boottime <seconds> <nanoseconds>"), in ns: 0 or -EINVAL.
 */
int kernel_clock_parse_offsets(const char *text, size_t len,
			       int64_t *boottime_ns);

/*
 * The boottime offset of this process's time namespace from path
 * (/proc/self/timens_offsets); 0 when the kernel has no time namespaces
 * (no such file). 0 or -errno.
 */
int kernel_clock_read_offset(const char *path, int64_t *boottime_ns);

/*
 * The word of a record's timestamp, 0 when it has none: word 1 of
 * events, scheduling and log records, word 2 of the kernel's raw stack
 * samples (include/fxt/ksample.h). rec holds words words, at least 1;
 * a timed type too short for its timestamp still answers its word.
 */
size_t kernel_record_ts_word(const uint64_t *rec, size_t words);

/*
 * Adds offset_ns to each time of the whole records in buf (words words):
 * their timestamps and the wakeup_ts argument of sched_latency
 * (include/fxt/sched.h). A size that overruns buf ends the walk.
 */
void kernel_clock_shift(uint64_t *buf, size_t words, int64_t offset_ns);

#endif /* FXT_KERNEL_CLOCK_H */
