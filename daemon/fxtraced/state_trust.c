// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "state_trust.h"

/* mkstemp's XXXXXX */
#define HIDDEN_SUFFIX_LEN 6

static int refuse(int error, char *why, size_t why_len, const char *clause)
{
	snprintf(why, why_len, "%s", clause);
	return error;
}

static int refuse_errno(char *why, size_t why_len)
{
	int r = -errno;

	return refuse(r, why, why_len, strerror(-r));
}

/*
 * A symbolic link at path is followed only where no other user could
 * have put it or could change it: the link is root's or ours, in a
 * directory that no other user can write. systemd makes one of those for
 * RuntimeDirectory= with DynamicUser= (/run/fxtrace/state to
 * /run/private/...); another user's link is refused.
 */
static int link_trusted(const char *path, char *why, size_t why_len)
{
	_cleanup_free_ char *copy = strdup(path);
	struct stat lsb, psb;
	char *slash;

	if (!copy)
		return -ENOMEM;
	if (lstat(path, &lsb) < 0)
		return refuse_errno(why, why_len);
	if (lsb.st_uid != 0 && lsb.st_uid != geteuid()) {
		snprintf(why, why_len, "it is a symbolic link of uid %u",
			 (unsigned int)lsb.st_uid);
		return -EPERM;
	}
	slash = strrchr(copy, '/');
	if (!slash)
		return refuse(-EPERM, why, why_len, "it is a symbolic link");
	slash[slash == copy] = '\0';
	if (stat(copy, &psb) < 0)
		return refuse_errno(why, why_len);
	if ((psb.st_uid != 0 && psb.st_uid != geteuid()) ||
	    (psb.st_mode & (S_IWGRP | S_IWOTH)))
		return refuse(-EPERM, why, why_len,
			      "it is a symbolic link in a directory other users can write");
	return 0;
}

static int open_dir(const char *path, char *why, size_t why_len)
{
	struct stat lsb;
	int fd, r;

	fd = open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0 || (errno != ELOOP && errno != ENOTDIR))
		return fd < 0 ? refuse_errno(why, why_len) : fd;
	if (lstat(path, &lsb) < 0 || !S_ISLNK(lsb.st_mode))
		return refuse(-ENOTDIR, why, why_len, "it is not a directory");
	r = link_trusted(path, why, why_len);
	if (r < 0)
		return r;
	fd = open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	return fd < 0 ? refuse_errno(why, why_len) : fd;
}

int state_dir_open(const char *path, char *why, size_t why_len)
{
	_cleanup_close_ int fd = -1;
	struct stat sb;

	fd = open_dir(path, why, why_len);
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb) < 0)
		return refuse_errno(why, why_len);
	if (sb.st_uid != geteuid()) {
		snprintf(why, why_len, "it is owned by uid %u, not uid %u (fxtraced's)",
			 (unsigned int)sb.st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if (sb.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, why_len, "it is writable by %s (mode %04o)",
			 sb.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned int)(sb.st_mode & 07777));
		return -EPERM;
	}
	return TAKE_FD(fd);
}

bool state_hidden_name_valid(const char *output, const char *name)
{
	const char *base = strrchr(output, '/');
	size_t len, i;

	if (!base || !base[1])
		return false;
	base++;
	len = strlen(base);
	if (name[0] != '.' || strncmp(name + 1, base, len) ||
	    name[len + 1] != '.')
		return false;
	name += len + 2;
	for (i = 0; i < HIDDEN_SUFFIX_LEN; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;
	return !name[HIDDEN_SUFFIX_LEN];
}

int state_archive_check(int fd, const struct trace_state *st, char *why,
			size_t why_len)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0)
		return refuse_errno(why, why_len);
	if (!S_ISREG(sb.st_mode))
		return refuse(-EPERM, why, why_len, "it is not a regular file");
	if (sb.st_dev != st->archive_dev || sb.st_ino != st->archive_ino)
		return refuse(-ESTALE, why, why_len,
			      "it is not the file the trace started with");
	if (sb.st_uid != st->owner) {
		snprintf(why, why_len, "it is owned by uid %u, not uid %u that started the trace",
			 (unsigned int)sb.st_uid, (unsigned int)st->owner);
		return -EPERM;
	}
	return 0;
}

/* The output's directory, as the path names it (its own links followed). */
static int open_output_dir(const char *output)
{
	const char *base = strrchr(output, '/');
	_cleanup_free_ char *dir = NULL;
	int fd;

	if (!base)
		return -EINVAL;
	dir = base == output ? strdup("/") : strndup(output, base - output);
	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}


int state_archive_open(const struct trace_state *st, char *why,
		       size_t why_len)
{
	_cleanup_close_ int dir_fd = -1, fd = -1;
	int r;

	if (!memchr(st->req.output, '\0', sizeof(st->req.output)) ||
	    !memchr(st->req.temp_name, '\0', sizeof(st->req.temp_name)) ||
	    !state_hidden_name_valid(st->req.output, st->req.temp_name))
		return refuse(-EPERM, why, why_len,
			      "it is not a name tracectl gives an archive beside its output");
	dir_fd = open_output_dir(st->req.output);
	if (dir_fd < 0)
		return refuse(dir_fd, why, why_len, strerror(-dir_fd));
	fd = openat(dir_fd, st->req.temp_name, O_RDWR | O_CLOEXEC |
		    O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ELOOP)
		return refuse(-EPERM, why, why_len, "it is a symbolic link");
	if (fd < 0)
		return refuse_errno(why, why_len);
	r = state_archive_check(fd, st, why, why_len);
	return r < 0 ? r : TAKE_FD(fd);
}

int state_triggers_dir_check(int fd, const struct trace_state *st,
			     char *why, size_t why_len)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0) {
		int r = -errno;

		snprintf(why, why_len, "cannot be examined: %s", strerror(-r));
		return r;
	}
	if (!S_ISDIR(sb.st_mode) || sb.st_dev != st->triggers_dir_dev ||
	    sb.st_ino != st->triggers_dir_ino)
		return refuse(-ESTALE, why, why_len,
			      "is not the one they were armed with");
	if (sb.st_uid != st->triggers_owner && sb.st_uid != 0) {
		snprintf(why, why_len, "is owned by uid %u, neither uid %u that armed them nor root",
			 (unsigned int)sb.st_uid,
			 (unsigned int)st->triggers_owner);
		return -EPERM;
	}
	if (sb.st_mode & S_IWOTH) {
		snprintf(why, why_len, "is writable by others (mode %04o)",
			 (unsigned int)(sb.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}
