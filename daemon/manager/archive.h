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
/* Syncs and closes; returns the first write error, if any. */
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
/* Whole records of the current section. */
int archive_write(struct archive *a, const void *data, size_t len);
uint64_t archive_bytes(const struct archive *a);

#endif /* FXT_ARCHIVE_H */
