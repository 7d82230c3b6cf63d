// SPDX-License-Identifier: GPL-2.0-only
/* The archive's file, made and put in place: see archive_output.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive_output.h"
#include "cleanup.h"

int archive_output_resolve(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX];

	if (path[0] == '/') {
		if (strlen(path) >= len)
			return -ENAMETOOLONG;
		strcpy(out, path);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	if ((size_t)snprintf(out, len, "%s/%s", cwd, path) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The archive is written to a hidden file beside the output, created here
 * with the caller's own rights; the stop renames it into place once it is
 * complete (archive_output_publish()), so a failed start or trace never
 * truncates, replaces or removes a file at the output. Not O_TMPFILE: a
 * trace that ends with no controller there (its duration ran out, the
 * manager shut down) must still leave its archive on disk.
 */
int archive_output_create(const char *path, char *name, size_t name_len)
{
	const char *base = strrchr(path, '/') + 1;	/* path is absolute */
	char tmp[PATH_MAX];
	struct stat st;
	mode_t mask;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return -EINVAL;
	if ((size_t)snprintf(name, name_len, ".%s.XXXXXX", base) >= name_len ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%.*s%s", (int)(base - path),
			     path, name) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	strcpy(name, tmp + (base - path));
	return fd;
}

void archive_output_temp_path(const char *output, const char *name, char *buf,
			      size_t len)
{
	const char *base = strrchr(output, '/');

	snprintf(buf, len, "%.*s%s", base ? (int)(base + 1 - output) : 0,
		 output, name);
}

void archive_output_discard(const char *path, int fd)
{
	struct stat ours, now;

	if (fstat(fd, &ours) == 0 && lstat(path, &now) == 0 &&
	    now.st_dev == ours.st_dev && now.st_ino == ours.st_ino)
		(void)unlink(path);
}

static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	_cleanup_close_ int fd = -1;

	archive_output_temp_path(path, ".", dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		(void)fsync(fd);
}

/*
 * The convention of perf record: the file replaced is kept as FILE.old
 * (an older FILE.old goes). 0, or -errno when it cannot be kept: then
 * nothing is replaced.
 */
static int keep_old(const char *output)
{
	char old[PATH_MAX + 8];

	snprintf(old, sizeof(old), "%s.old", output);
	if (access(output, F_OK) < 0)
		return 0;
	if (unlink(old) < 0 && errno != ENOENT)
		return -errno;
	/* A second name first: output never stops existing. */
	if (link(output, old) < 0 && rename(output, old) < 0)
		return -errno;
	return 0;
}

/*
 * Puts the finished archive in place with the stopper's own rights. A
 * complete one replaces the output atomically (rename), the file that was
 * there kept as FILE.old; an incomplete one takes the output only where
 * no file is. 0: the output holds the archive; 1: it waits at its hidden
 * name for its owner's stop; -1: it stays at its hidden name, or is gone
 * (said why).
 */
int archive_output_publish(const char *cmd, const struct fxt_ctl_result *res,
			   int error)
{
	char temp[PATH_MAX];
	struct stat st;

	archive_output_temp_path(res->output, res->temp_name, temp,
				 sizeof(temp));
	if (res->owner_uid != getuid()) {
		printf("The archive is at %s: uid %u started this trace; its tracectl stop puts it at %s\n",
		       temp, res->owner_uid, res->output);
		return 1;
	}
	if (lstat(temp, &st) < 0) {
		fprintf(stderr, "tracectl %s: the archive's file %s was removed during the trace: nothing was written to %s\n",
			cmd, temp, res->output);
		return -1;
	}
	if (!error) {
		int r = keep_old(res->output);

		if (r < 0) {
			fprintf(stderr, "tracectl %s: cannot keep %s as %s.old: %s; %s was left as it was, the archive is at %s\n",
				cmd, res->output, res->output, strerror(-r),
				res->output, temp);
			return -1;
		}
		if (rename(temp, res->output) == 0) {
			sync_dir(res->output);
			return 0;
		}
	} else if (link(temp, res->output) == 0) {
		(void)unlink(temp);
		sync_dir(res->output);
		return 0;
	} else if (errno == EEXIST) {
		fprintf(stderr, "tracectl %s: the archive is incomplete; %s was left as it was, the archive is at %s\n",
			cmd, res->output, temp);
		return -1;
	}
	fprintf(stderr, "tracectl %s: cannot put the archive at %s: %s; it is at %s\n",
		cmd, res->output, strerror(errno), temp);
	return -1;
}
