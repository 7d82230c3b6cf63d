// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening another user's mapped file (proc_open.h). The owner's rights
 * are taken for this thread alone, with the raw system calls: glibc's
 * setgroups() would change every thread's; setfsuid() and setfsgid()
 * are per thread by nature. Only the file system user changes: the
 * capabilities that are not about files (CAP_SYS_ADMIN, which map_files
 * asks for) stay. They are put back before anything else runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cleanup.h"
#include "line_read.h"
#include "mount_table.h"
#include "proc_maps_line.h"
#include "proc_open.h"

#define STATUS_LINE_MAX 4096
#define SAVED_GROUPS_MAX 256
/* nobody and nogroup (Debian's base-passwd). */
#define ANYONE_UID 65534
#define ANYONE_GID 65534

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);

static int parse_ids(const char *s, unsigned long *out, size_t max, size_t *n)
{
	char *end;

	*n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n')
			return 0;
		if (*n == max)
			return -E2BIG;
		errno = 0;
		out[(*n)++] = strtoul(s, &end, 10);
		if (errno || end == s)
			return -EINVAL;
		s = end;
	}
}

/* One "Name:\tvalues" line of status into ids; 1 when it was that line. */
static int status_field(const char *line, const char *name, unsigned long *ids,
			size_t max, size_t *n)
{
	size_t len = strlen(name);
	int r;

	if (strncmp(line, name, len))
		return 0;
	r = parse_ids(line + len, ids, max, n);
	return r < 0 ? r : 1;
}

static int owner_fill(struct proc_owner *o, const unsigned long *uid, size_t nu,
		      const unsigned long *gid, size_t ng,
		      const unsigned long *groups, size_t ngroups)
{
	size_t i;

	if (nu < 1 || ng < 1 || uid[0] > UINT32_MAX - 1 ||
	    gid[0] > UINT32_MAX - 1)
		return -EINVAL;
	o->uid = (uid_t)uid[0];
	o->gid = (gid_t)gid[0];
	o->ngroups = ngroups;
	for (i = 0; i < ngroups; i++) {
		if (groups[i] > UINT32_MAX - 1)
			return -EINVAL;
		o->groups[i] = (gid_t)groups[i];
	}
	return 0;
}

int proc_owner_read(const char *proc, uint32_t pid, struct proc_owner *o)
{
	unsigned long uid[4], gid[4], groups[PROC_OWNER_GROUPS_MAX];
	size_t nu = 0, ng = 0, ngroups = 0, n;
	_cleanup_(fclosep) FILE *f = NULL;
	char path[PATH_MAX], line[STATUS_LINE_MAX];
	int seen = 0, r;

	snprintf(path, sizeof(path), "%s/%" PRIu32 "/status", proc, pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (seen < 3 && line_read(f, line, sizeof(line))) {
		r = status_field(line, "Uid:", uid, 4, &nu);
		if (!r)
			r = status_field(line, "Gid:", gid, 4, &ng);
		if (!r)
			r = status_field(line, "Groups:", groups,
					 PROC_OWNER_GROUPS_MAX, &n);
		if (r < 0)
			return r;
		if (r && !strncmp(line, "Groups:", 7))
			ngroups = n;
		seen += r;
	}
	if (seen < 3)
		return -EINVAL;
	return owner_fill(o, uid, nu, gid, ng, groups, ngroups);
}

void proc_owner_anyone(struct proc_owner *o)
{
	*o = (struct proc_owner){ .uid = ANYONE_UID, .gid = ANYONE_GID };
}

struct saved_creds {
	bool switched;
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t groups[SAVED_GROUPS_MAX];
};

static void creds_leave(struct saved_creds *s)
{
	if (!s->switched)
		return;
	(void)setfsuid(s->fsuid);
	(void)setfsgid(s->fsgid);
	(void)syscall(SYS_setgroups, (size_t)s->ngroups, s->groups);
	s->switched = false;
}

/*
 * This thread's file system rights become the owner's. Where this
 * process may not take them (no CAP_SETGID: the hardened unit's user),
 * it keeps its own, unless they are root's.
 */
static int creds_enter(const struct proc_owner *o, struct saved_creds *s)
{
	s->switched = false;
	s->ngroups = getgroups(SAVED_GROUPS_MAX, s->groups);
	if (s->ngroups < 0)
		return -errno;
	if (syscall(SYS_setgroups, o->ngroups, o->groups) < 0) {
		if (errno != EPERM)
			return -errno;
		return geteuid() == 0 || setfsuid((uid_t)-1) == 0 ? -EPERM : 0;
	}
	s->switched = true;
	s->fsgid = (gid_t)setfsgid(o->gid);
	s->fsuid = (uid_t)setfsuid(o->uid);
	if ((uid_t)setfsuid((uid_t)-1) != o->uid ||
	    (gid_t)setfsgid((gid_t)-1) != o->gid) {
		creds_leave(s);
		return -EPERM;
	}
	return 0;
}

/*
 * An O_PATH handle of path, no symlink followed. Where openat2() is not
 * to be had (a seccomp filter that knows it not: systemd 252's answers
 * ENOSYS), a path in this process's root falls back to O_NOFOLLOW, which
 * guards the last component only; one in a process's root is refused.
 */
static int openat2_path(int dirfd, const char *path, uint64_t resolve)
{
	struct open_how how = {
		.flags = O_PATH | O_NOFOLLOW | O_CLOEXEC,
		.resolve = resolve | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS && dirfd == AT_FDCWD && !resolve)
		fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/*
 * An O_PATH handle of the mapped file, and the mountinfo its mount is
 * listed in. Nothing is opened for reading: a device or FIFO put in its
 * place has no side effect yet. as_owner: this thread has the owner's
 * rights, and what they may not reach is refused; else (an unprivileged
 * manager, which may not look into other users' processes) the path is
 * taken in this process's root with its own rights.
 */
static int open_handle(const struct proc_open_request *rq, bool as_owner,
		       char *mountinfo, size_t size)
{
	char path[PATH_MAX];
	_cleanup_close_ int root = -1;
	int fd = -ENOENT;

	if (rq->pid) {
		snprintf(path, sizeof(path),
			 "%s/%" PRIu32 "/map_files/%" PRIx64 "-%" PRIx64,
			 rq->proc, rq->pid, rq->start, rq->end);
		/* A link the kernel resolves to the mapping's file itself. */
		fd = open(path, O_PATH | O_CLOEXEC);
		if (fd < 0) {
			snprintf(path, sizeof(path), "%s/%" PRIu32 "/root",
				 rq->proc, rq->pid);
			root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
			fd = root < 0 ? -errno :
					openat2_path(root, rq->path,
						     RESOLVE_IN_ROOT);
		}
		snprintf(mountinfo, size, "%s/%" PRIu32 "/mountinfo", rq->proc,
			 rq->pid);
		if (fd >= 0 || (fd == -EACCES && as_owner))
			return fd;
	}
	snprintf(mountinfo, size, "/proc/self/mountinfo");
	return openat2_path(AT_FDCWD, rq->path, 0);
}

/* The mount id of fd, from this process's fdinfo. */
static int fd_mount_id(int fd, unsigned long *id)
{
	_cleanup_(fclosep) FILE *f = NULL;
	char path[64], line[256];

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (line_read(f, line, sizeof(line)))
		if (sscanf(line, "mnt_id: %lu", id) == 1)
			return 0;
	return -ENOENT;
}

/* A regular file, on no FUSE mount, the mapped one if that is known. */
static int check_handle(const struct proc_open_request *rq, int fd,
			const char *mountinfo)
{
	_cleanup_(mount_table_freep) struct mount_table *mounts = NULL;
	unsigned long id;
	struct stat st;
	int r = fd_mount_id(fd, &id);

	if (r < 0)
		return r;
	r = mount_table_load(mountinfo, &mounts);
	if (r < 0)
		return r;
	r = mount_table_id_on_fuse(mounts, id);
	if (r != 0)
		return r < 0 ? -ESTALE : -EREMOTE;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (rq->check_inode &&
	    (st.st_ino != rq->ino || major(st.st_dev) != major(rq->dev) ||
	     minor(st.st_dev) != minor(rq->dev)))
		return -ESTALE;
	return 0;
}

/* The handle reopened for reading: the owner's rights are checked here. */
static int reopen(const struct proc_owner *owner, int handle)
{
	struct saved_creds saved;
	char path[64];
	int fd, r = creds_enter(owner, &saved);

	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", handle);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	r = fd < 0 ? -errno : fd;
	creds_leave(&saved);
	return r;
}

int proc_open_mapped(const struct proc_open_request *rq)
{
	_cleanup_close_ int handle = -1;
	char mountinfo[PATH_MAX];
	struct saved_creds saved;
	int r;

	if (!rq->path || rq->path[0] != '/')
		return -EINVAL;
	r = creds_enter(rq->owner, &saved);
	if (r < 0)
		return r;
	handle = open_handle(rq, saved.switched, mountinfo, sizeof(mountinfo));
	creds_leave(&saved);
	if (handle < 0)
		return handle;
	r = check_handle(rq, handle, mountinfo);
	return r < 0 ? r : reopen(rq->owner, handle);
}

int proc_open_maps_line(const char *proc, uint32_t pid,
			const struct proc_maps_line *m,
			const struct proc_owner *owner)
{
	const struct proc_open_request rq = {
		.proc = proc, .pid = pid, .start = m->start, .end = m->end,
		.path = m->path, .owner = owner, .check_inode = true,
		.dev = m->dev, .ino = m->inode,
	};

	return proc_open_mapped(&rq);
}
