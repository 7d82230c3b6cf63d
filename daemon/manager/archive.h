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
#include <sys/types.h>

struct archive;

#define ARCHIVE_GROUPS_MAX 256

/* Whose file-system rights the archive is opened with. */
struct archive_owner {
	uid_t uid;
	gid_t gid;
	/* Supplementary groups (SO_PEERGROUPS); -1: unknown, keep none. */
	int ngroups;
	gid_t groups[ARCHIVE_GROUPS_MAX];
};

/*
 * Creates (truncates) path with the file-system rights of owner (the
 * controller that asked: group "tracing" must not let anyone overwrite
 * what root may), refuses anything but a regular file (a FIFO would block
 * the manager), and writes the magic number record.
 */
int archive_open(const char *path, const struct archive_owner *owner,
		 struct archive **ret);
/*
 * After a failed start: removes the archive if archive_open() created it
 * (never a file that was there before), again with the owner's rights.
 */
void archive_discard(struct archive *a, const char *path);
/* Flushes and closes; returns the first write error, if any. */
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
