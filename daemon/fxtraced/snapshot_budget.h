/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The disk budget of a trace's trigger snapshots (tracectl start
 * --snapshot-max-bytes, --snapshot-max-files): the snapshots its triggers
 * wrote and still keep in their directory, oldest first. A snapshot that
 * would go over the budget makes room by removing the oldest of them: a
 * flight recorder is there to explain the latest problem, and one that
 * stopped writing snapshots once full would, on a machine that runs for
 * months, keep only the first ones. Only a file the trace linked is ever
 * removed, and only while its name still is that file (device, inode
 * and change time, as an inode number may be reused): never another
 * file of the directory, nor one its owner replaced or changed, which
 * then no longer counts. A
 * snapshot larger than the whole budget is not kept, nor one for which
 * no room could be made: the budget is a bound, never exceeded.
 */
#ifndef FXT_SNAPSHOT_BUDGET_H
#define FXT_SNAPSHOT_BUDGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "control_proto.h"

/*
 * A snapshot's file name, NAME-YYYYmmddTHHMMSS.mmmZ-NN.fxt: a trigger
 * name (63 at most) and 28 more; a longer one is not linked.
 */
#define SNAPSHOT_FILE_NAME_MAX 96

/* A snapshot kept, as the state file keeps it for a restart. */
struct snapshot_kept {
	uint64_t dev, ino;
	uint64_t ctime_ns;	/* after it was linked */
	uint64_t bytes;
	char name[SNAPSHOT_FILE_NAME_MAX];
};

struct snapshot_budget {
	uint64_t max_bytes;
	uint32_t max_files;
	uint32_t nkept;
	uint64_t kept_bytes;
	uint64_t removed_files, removed_bytes, not_kept;
	struct snapshot_kept kept[FXT_CTL_SNAPSHOT_FILES_MAX];	/* oldest first */
};

/*
 * An empty budget of max_bytes and max_files (0: the defaults of
 * control_proto.h, the bytes from the file system of dir_fd).
 */
void snapshot_budget_init(struct snapshot_budget *b, int dir_fd,
			  uint64_t max_bytes, uint32_t max_files);
/*
 * Makes room in dir_fd (named dir in the log) for a snapshot of bytes:
 * forgets the kept files that are no longer there, then removes the
 * oldest until it fits, each logged. 0; -EFBIG when it alone is over the
 * budget; -errno when the oldest could not be removed. Not kept then
 * (counted).
 */
int snapshot_budget_make_room(struct snapshot_budget *b, int dir_fd,
			      const char *dir, uint64_t bytes);
/* The snapshot st (fstat) was linked in the directory as name. */
void snapshot_budget_add(struct snapshot_budget *b, const struct stat *st,
			 const char *name, uint64_t bytes);
/*
 * After a restart: k, kept before it, is kept again if it still is that
 * file in dir_fd (device, inode, change time), regular, owner's or ours,
 * under a plain file name; else forgotten.
 */
void snapshot_budget_restore(struct snapshot_budget *b, int dir_fd,
			     const struct snapshot_kept *k, uid_t owner);
/* Forgets the kept files that are no longer there (for status). */
void snapshot_budget_refresh(struct snapshot_budget *b, int dir_fd);
/* Its status row (FXT_CTL_TRIGGER_BUDGET). */
void snapshot_budget_describe(const struct snapshot_budget *b,
			      struct fxt_ctl_trigger *row);

#endif /* FXT_SNAPSHOT_BUDGET_H */
