/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace archive: the magic number record, then provider sections. The
 * manager, not the providers, writes every metadata record and each
 * section's initialization record (1 tick = 1 ns of CLOCK_BOOTTIME).
 */
#ifndef FXT_ARCHIVE_H
#define FXT_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct archive;

/*
 * Takes fd (on success only), the archive the controller opened with its
 * own rights; refuses anything but a regular file (-EINVAL) and a
 * descriptor not open for writing (-EBADF). Writes nothing yet.
 */
int archive_open(int fd, struct archive **ret);
/*
 * Once the trace has started: truncates the file (a failed start leaves
 * it as it was) and writes the magic number record.
 */
int archive_begin(struct archive *a);
/* Syncs and closes; 0 or the error of fsync() or close(). */
int archive_close(struct archive *a);

/*
 * Starts a section of provider id: provider info (with its name) on the
 * first visit, provider section afterwards; then, unless the provider
 * writes its own (the kernel does), the initialization record.
 */
int archive_begin_section(struct archive *a, uint32_t id, const char *name,
			  bool *visited, bool with_init);
/* Provider event metadata: the provider's buffer overflowed. */
int archive_write_overflow(struct archive *a, uint32_t id);
/*
 * Whole records of the current section. A write that fails leaves the
 * file as it was before it (the archive stays valid); the next is tried
 * again.
 */
int archive_write(struct archive *a, const void *data, size_t len);
/* The archive's length: a mark to cut back to. */
uint64_t archive_bytes(const struct archive *a);
/* Drops what was written after mark (a unit that could not be whole). */
int archive_cut_back(struct archive *a, uint64_t mark);
/*
 * The first write error (0: none): the archive lacks what failed.
 * *failing: the last write failed too; *removed: the file has no name.
 */
int archive_error(const struct archive *a, bool *failing, bool *removed);

#endif /* FXT_ARCHIVE_H */
