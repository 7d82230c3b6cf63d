// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl export --watch DIR: each snapshot of the flight recorder into
 * ClickHouse as it appears. fxtraced links a snapshot into the directory
 * only once it is whole (O_TMPFILE), so its appearance (inotify) is the
 * moment to read it. While the server is away (or refuses), the
 * directory is tried again with a growing pause; the server remembers
 * what is stored (by trace id), this process only what it tried, so a
 * restart costs a question per archive, not a copy.
 */
#define _GNU_SOURCE /* asprintf */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "cmd_export.h"
#include "tracectl.h"

/* Archives remembered as tried (more are asked of the server again). */
#define WATCH_KNOWN_MAX 4096u
#define WATCH_RETRY_FIRST_MS 1000
#define WATCH_RETRY_MAX_MS 60000

struct known_archive {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	bool seen;		/* in the directory at this scan */
};

struct watch {
	struct exporter *e;
	const char *dir;
	struct known_archive known[WATCH_KNOWN_MAX];
	unsigned int nknown;
	bool retry;		/* something failed that may work later */
};

/* Snapshot names: NAME-<time>.fxt of plain characters (safe to print). */
static bool archive_name(const char *name)
{
	size_t i, n = strlen(name);

	if (n < 5 || n > 200 || strcmp(name + n - 4, ".fxt") || name[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!(name[i] >= 'a' && name[i] <= 'z') &&
		    !(name[i] >= 'A' && name[i] <= 'Z') &&
		    !(name[i] >= '0' && name[i] <= '9') &&
		    !strchr("._-+:", name[i]))
			return false;
	return true;
}

static struct known_archive *find_known(struct watch *w, const struct stat *st)
{
	unsigned int i;

	for (i = 0; i < w->nknown; i++) {
		struct known_archive *k = &w->known[i];

		if (k->dev == st->st_dev && k->ino == st->st_ino &&
		    k->size == st->st_size &&
		    k->mtime.tv_sec == st->st_mtim.tv_sec &&
		    k->mtime.tv_nsec == st->st_mtim.tv_nsec)
			return k;
	}
	return NULL;
}

static void remember(struct watch *w, const struct stat *st)
{
	struct known_archive *k;

	if (w->nknown == WATCH_KNOWN_MAX)
		return;
	k = &w->known[w->nknown++];
	k->dev = st->st_dev;
	k->ino = st->st_ino;
	k->size = st->st_size;
	k->mtime = st->st_mtim;
	k->seen = true;
}

/* Archives gone from the directory are forgotten. */
static void forget_unseen(struct watch *w)
{
	unsigned int i, n = 0;

	for (i = 0; i < w->nknown; i++)
		if (w->known[i].seen)
			w->known[n++] = w->known[i];
	w->nknown = n;
	for (i = 0; i < n; i++)
		w->known[i].seen = false;
}

/* One archive: -ECONNREFUSED when the server is away (stop the scan). */
static int try_archive(struct watch *w, int dfd, const char *name)
{
	_cleanup_free_ char *path = NULL;
	struct known_archive *k;
	struct stat st;
	int ret;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode))
		return 0;
	k = find_known(w, &st);
	if (k) {
		k->seen = true;
		return 0;
	}
	if (asprintf(&path, "%s/%s", w->dir, name) < 0)
		return -ENOMEM;
	ret = export_file(w->e, path);
	if (ret == -ENOENT)	/* removed meanwhile: the rotation's */
		return 0;
	if (ret == -ECONNREFUSED || ret == -EREMOTEIO || ret == -ETIMEDOUT ||
	    ret == -ENOMEM) {
		/* a table dropped meanwhile is created again at the next try */
		if (ret == -EREMOTEIO)
			w->e->tables_ready = false;
		w->retry = true;
		return ret == -ECONNREFUSED ? ret : 0;
	}
	/* Stored, or an archive that cannot be: not tried again. */
	remember(w, &st);
	return 0;
}

static int scan(struct watch *w)
{
	_cleanup_close_ int dfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	w->retry = false;
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		fprintf(stderr, "tracectl export: %s: %s\n", w->dir,
			strerror(errno));
		return -errno;
	}
	dfd = -1;
	while ((de = readdir(d))) {
		if (!archive_name(de->d_name))
			continue;
		if (try_archive(w, dirfd(d), de->d_name) == -ECONNREFUSED)
			break;
	}
	if (!w->retry)
		forget_unseen(w);
	closedir(d);
	return 0;
}

static int watch_fds(const char *dir, int *ifd, int *sfd)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	*sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	*ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (*sfd < 0 || *ifd < 0)
		return -errno;
	if (inotify_add_watch(*ifd, dir, IN_CREATE | IN_MOVED_TO | IN_ONLYDIR |
				      IN_DELETE_SELF | IN_MOVE_SELF) < 0)
		return -errno;
	return 0;
}

/* Reads what is pending on fd (the events only say: look again). */
static void drain(int fd)
{
	char buf[4096];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

int export_watch(struct exporter *e, const char *dir)
{
	_cleanup_close_ int ifd = -1, sfd = -1;
	_cleanup_free_ struct watch *w = calloc(1, sizeof(*w));
	int pause_ms = WATCH_RETRY_FIRST_MS, ret;

	if (!w) {
		fprintf(stderr, "tracectl export: out of memory\n");
		return TRACECTL_EXIT_FAIL;
	}
	w->e = e;
	w->dir = dir;
	ret = watch_fds(dir, &ifd, &sfd);
	if (ret) {
		fprintf(stderr, "tracectl export: cannot watch %s: %s\n", dir,
			strerror(-ret));
		return TRACECTL_EXIT_FAIL;
	}
	for (;;) {
		struct pollfd p[2] = { { ifd, POLLIN, 0 }, { sfd, POLLIN, 0 } };

		if (scan(w))
			return TRACECTL_EXIT_FAIL;
		if (w->retry)
			fprintf(stderr, "tracectl export: trying %s again in "
					"%d s\n", dir, pause_ms / 1000);
		if (poll(p, 2, w->retry ? pause_ms : -1) < 0 && errno != EINTR)
			return TRACECTL_EXIT_FAIL;
		if (p[1].revents)
			return TRACECTL_EXIT_OK;
		if (p[0].revents)
			drain(ifd);
		if (!w->retry)
			pause_ms = WATCH_RETRY_FIRST_MS;
		else if (!p[0].revents && pause_ms < WATCH_RETRY_MAX_MS)
			pause_ms *= 2;
	}
}
