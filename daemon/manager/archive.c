// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "archive.h"
#include "fxt_writer.h"

#define ARCHIVE_TICKS_PER_SECOND 1000000000ull
#define ARCHIVE_NAME_MAX 255u

struct archive {
	int fd;
	int error;	/* the first write error; later writes are refused */
	uint64_t bytes;
	bool created;	/* by archive_open(), not there before */
	struct archive_owner owner;
};

static int write_all(struct archive *a, const void *data, size_t len)
{
	const char *p = data;

	if (a->error)
		return a->error;
	while (len) {
		ssize_t n = write(a->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			a->error = n < 0 ? -errno : -EIO;
			return a->error;
		}
		p += n;
		len -= (size_t)n;
		a->bytes += (uint64_t)n;
	}
	return 0;
}

static int write_word(struct archive *a, uint64_t w)
{
	return write_all(a, &w, sizeof(w));
}

struct saved_rights {
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;		/* -1: groups not changed */
	gid_t *groups;
};

/*
 * Takes owner's file-system rights for this thread: setfsuid() and
 * setfsgid() change only those, and the raw setgroups system call only
 * this thread's groups (glibc's would change every thread's), so that
 * neither our own supplementary groups leak into the open nor the
 * controller's are missing. Unprivileged, none of it can change, and
 * needs not: we then have no more rights than the controller.
 */
static int become(const struct archive_owner *o, struct saved_rights *s)
{
	int n = getgroups(0, NULL);

	s->ngroups = -1;
	s->groups = NULL;
	if (n < 0)
		return -errno;
	s->groups = calloc((size_t)n + 1, sizeof(gid_t));
	if (!s->groups)
		return -ENOMEM;
	n = getgroups(n, s->groups);
	if (n >= 0 &&
	    syscall(SYS_setgroups, (size_t)(o->ngroups > 0 ? o->ngroups : 0),
		    o->groups) == 0)
		s->ngroups = n;
	else if (n < 0 || errno != EPERM) {
		int r = -errno;

		free(s->groups);
		s->groups = NULL;
		return r;
	}
	s->fsgid = (gid_t)setfsgid(o->gid);
	s->fsuid = (uid_t)setfsuid(o->uid);
	return 0;
}

static void restore(struct saved_rights *s)
{
	(void)setfsuid(s->fsuid);
	(void)setfsgid(s->fsgid);
	if (s->ngroups >= 0)
		(void)syscall(SYS_setgroups, (size_t)s->ngroups, s->groups);
	free(s->groups);
}

/*
 * Non-blocking, so that a FIFO cannot hold the manager in open(); O_EXCL
 * first, to know whether we created the file (then it is ours to remove
 * if the start fails). Anything but a regular file is refused.
 */
static int open_regular(const char *path, bool *created)
{
	int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	struct stat st;
	int fd;

	fd = open(path, flags | O_CREAT | O_EXCL, 0644);
	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, flags);
	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (!*created && ftruncate(fd, 0) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	(void)fcntl(fd, F_SETFL, O_WRONLY);
	return fd;
}

int archive_open(const char *path, const struct archive_owner *owner,
		 struct archive **ret)
{
	struct saved_rights saved;
	struct archive *a;
	int r;

	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->owner = *owner;
	r = become(owner, &saved);
	if (r < 0) {
		free(a);
		return r;
	}
	a->fd = open_regular(path, &a->created);
	restore(&saved);
	if (a->fd < 0) {
		r = a->fd;
		free(a);
		return r;
	}
	r = write_word(a, fxt_magic_record());
	if (r < 0) {
		archive_close(a);
		return r;
	}
	*ret = a;
	return 0;
}

void archive_discard(struct archive *a, const char *path)
{
	struct saved_rights saved;
	struct stat ours, now;

	if (!a || !a->created || fstat(a->fd, &ours) < 0)
		return;
	if (become(&a->owner, &saved) < 0)
		return;
	/* Only if the name still is the file we created. */
	if (lstat(path, &now) == 0 && now.st_dev == ours.st_dev &&
	    now.st_ino == ours.st_ino)
		(void)unlink(path);
	restore(&saved);
}

int archive_close(struct archive *a)
{
	int r;

	if (!a)
		return 0;
	r = a->error;
	if (close(a->fd) < 0 && !r)
		r = -errno;
	free(a);
	return r;
}

/* The manager's own records, encoded by the writer, then appended. */
static int write_records(struct archive *a, struct fxt_writer *w)
{
	int r = fxt_writer_error(w);

	if (!r)
		r = write_all(a, fxt_writer_data(w), fxt_writer_size(w));
	fxt_writer_release(w);
	return r;
}

int archive_begin_section(struct archive *a, uint32_t id, const char *name,
			  bool *visited, bool with_init)
{
	struct fxt_writer w;
	int r;

	fxt_writer_init(&w);
	if (*visited)
		fxt_write_provider_section(&w, id);
	else
		fxt_write_provider_info(&w, id, name,
					strnlen(name, ARCHIVE_NAME_MAX));
	if (with_init)
		fxt_write_init(&w, ARCHIVE_TICKS_PER_SECOND);
	r = write_records(a, &w);
	if (r < 0)
		return r;
	*visited = true;
	return 0;
}

int archive_write_overflow(struct archive *a, uint32_t id)
{
	struct fxt_writer w;

	fxt_writer_init(&w);
	fxt_write_provider_event(&w, id, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW);
	return write_records(a, &w);
}

int archive_write(struct archive *a, const void *data, size_t len)
{
	return write_all(a, data, len);
}

uint64_t archive_bytes(const struct archive *a)
{
	return a->bytes;
}
