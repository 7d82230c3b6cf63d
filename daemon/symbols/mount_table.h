/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which mount a path is on, from a mountinfo file: to keep away from the
 * files of FUSE file systems before touching them. Opening such a file,
 * or stat()ing it, is a request its owner's process answers, or never:
 * a user could hang the manager with a mapped file of their own FUSE
 * mount. Taken once; a mount made later is not seen.
 */
#ifndef FXT_SYMBOLS_MOUNT_TABLE_H
#define FXT_SYMBOLS_MOUNT_TABLE_H

#include <stdbool.h>

struct mount_table;

/* Reads path (normally "/proc/self/mountinfo"); -errno. */
int mount_table_load(const char *path, struct mount_table **ret);

/* Whether path (absolute) is on a FUSE file system (fuse, fuseblk,
 * fuse.*) by the longest mount point holding it. */
bool mount_table_on_fuse(const struct mount_table *m, const char *path);

/*
 * Whether the mount of that id (mountinfo's first field, an fd's
 * "mnt_id" in /proc/self/fdinfo) is FUSE: 1 or 0; -ENOENT when the table
 * has no such mount (made later, or of another mount namespace).
 */
int mount_table_id_on_fuse(const struct mount_table *m, unsigned long id);

void mount_table_free(struct mount_table *m);

static inline void mount_table_freep(struct mount_table **m)
{
	mount_table_free(*m);
}

#endif /* FXT_SYMBOLS_MOUNT_TABLE_H */
