/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The file a process maps, opened as its owner could open it: the
 * manager runs as root and the path comes from another user's process,
 * in that process's root and mount namespace. What the owner could not
 * read is not opened at all (its symbols would reach an archive other
 * users read); no symlink is followed, no device or FIFO is ever opened
 * for reading (an O_PATH handle is checked first), and no FUSE file is
 * touched (its owner's process answers each request, or never).
 */
#ifndef FXT_SYMBOLS_PROC_OPEN_H
#define FXT_SYMBOLS_PROC_OPEN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define PROC_OWNER_GROUPS_MAX 64

/* Whose rights a file is opened with. */
struct proc_owner {
	uid_t uid;
	gid_t gid;
	size_t ngroups;
	gid_t groups[PROC_OWNER_GROUPS_MAX];
};

/*
 * The real user, group and supplementary groups of pid, from
 * proc/PID/status: the person who started it (a set-user-ID program
 * started by a user is that user's). -errno (-ESRCH: gone); -E2BIG with
 * more groups than PROC_OWNER_GROUPS_MAX.
 */
int proc_owner_read(const char *proc, uint32_t pid, struct proc_owner *o);

/* Any user at all (nobody, nogroup): for a process gone, whose owner is
 * not known any more, only what every user may read is opened.
 */
void proc_owner_anyone(struct proc_owner *o);

struct proc_open_request {
	const char *proc; /* "/proc" */
	uint32_t pid; /* 0: the process is gone; only path is tried */
	uint64_t start, end; /* the mapping, for map_files */
	const char *path; /* as the process saw it */
	const struct proc_owner *owner;
	/* The mapped file's identity when the kernel gave it (no build id). */
	bool check_inode;
	uint64_t dev; /* makedev() of the mapping's major and minor */
	uint64_t ino;
};

/*
 * An O_RDONLY, close-on-exec fd of the mapped file: through
 * proc/PID/map_files/START-END (the mapping itself), else path in
 * proc/PID/root without following any symlink, else (pid gone or its
 * root refused) path in this process's root. Opened with the owner's
 * file system rights where this process may take them (root), else
 * with its own (an unprivileged manager reads what it may read itself).
 * -EACCES: the owner may not read it; -EINVAL: not a regular file;
 * -EREMOTE: on FUSE; -ESTALE: not the mapped file; -errno else.
 */
int proc_open_mapped(const struct proc_open_request *rq);

struct proc_maps_line;

/*
 * The same for the file of line m of pid's proc/PID/maps, its identity
 * checked: what a reader of a live process's maps opens.
 */
int proc_open_maps_line(const char *proc, uint32_t pid,
			const struct proc_maps_line *m,
			const struct proc_owner *owner);

#endif /* FXT_SYMBOLS_PROC_OPEN_H */
