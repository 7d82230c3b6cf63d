/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The directory trigger snapshots go to is the controller's: nobody else
 * may create, rename or remove files in it, or a snapshot written with
 * the manager's rights (root's, often) could be renamed away, replaced,
 * or another file taken for it. tracectl checks it to refuse a start
 * with a clear message; the manager checks it again, trusting no
 * controller to have done so.
 */
#ifndef FXT_COMMON_SNAPSHOT_DIR_H
#define FXT_COMMON_SNAPSHOT_DIR_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * st: the directory's fstat (opened with O_NOFOLLOW: its last component
 * is no symbolic link). It is owner's or root's, not writable by other
 * users, and writable by its group only when that is the group tracing
 * (FXT_CTL_GROUP: the manager's, whose members control traces anyway;
 * the flight recorder's directory is root:tracing 2770). 0, or -EPERM
 * with what is wrong and what to do in why.
 */
int snapshot_dir_check(const struct stat *st, uid_t owner, char *why,
		       size_t why_len);

#endif /* FXT_COMMON_SNAPSHOT_DIR_H */
