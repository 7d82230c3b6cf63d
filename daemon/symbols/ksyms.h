/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A snapshot of the kernel's text symbols from /proc/kallsyms (or a file
 * of the same format), sorted by address, to name kernel PCs. Only text
 * symbols (t, T, w, W) are kept; a module's symbol is named
 * "name [module]". The snapshot is immutable once loaded.
 */
#ifndef FXT_SYMBOLS_KSYMS_H
#define FXT_SYMBOLS_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ksyms;

/*
 * Reads path (normally "/proc/kallsyms"). Returns 0, or -errno: -EPERM
 * when every address reads as zero (not privileged, or kptr_restrict),
 * -EINVAL when the file holds no text symbol, -ENOMEM.
 */
int ksyms_load(const char *path, struct ksyms **ret);

/*
 * The function holding addr: its name ("pipe_read" or "nvme_irq [nvme]",
 * valid until ksyms_free()) and addr's offset in it. -ENOENT when addr
 * is below the first symbol or past the end of the text it belongs to.
 */
int ksyms_lookup(const struct ksyms *k, uint64_t addr, const char **name,
		 uint64_t *offset);

/* Whether addr is in the scheduler's own text (__sched_text_start ..
 * __sched_text_end): a blocked task's frames above schedule(). */
bool ksyms_in_sched_text(const struct ksyms *k, uint64_t addr);

/*
 * Every text range [start, end) the snapshot covers, sorted: the core
 * kernel's text and each module's. Sets *ranges (valid until
 * ksyms_free()) and returns their number.
 */
size_t ksyms_ranges(const struct ksyms *k, const uint64_t (**ranges)[2]);

/* The number of symbols kept. */
size_t ksyms_count(const struct ksyms *k);

void ksyms_free(struct ksyms *k);

#endif /* FXT_SYMBOLS_KSYMS_H */
