// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "trace_state.h"

#define TRACE_STATE_MAGIC 0x4554415453545846ull /* "FXTSTATE" */
/*
 * 3: fxt_ctl_triggers grew latency_ns. 4: it grew the snapshot budget,
 * the state the snapshots kept.
 */
#define TRACE_STATE_VERSION 5u
/* More would be a corrupt file: one uid may not even have this many. */
#define TRACE_STATE_PROVIDERS_MAX (1u << 20)

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

#define TRACE_STATE_TEMP "." TRACE_STATE_FILE ".new"

int trace_state_save(int dir_fd, struct trace_state *st,
		     const struct trace_state_provider *providers, size_t n)
{
	_cleanup_close_ int fd = -1;
	int r;

	st->magic = TRACE_STATE_MAGIC;
	st->version = TRACE_STATE_VERSION;
	st->nproviders = (uint32_t)n;
	/* A file left by a crash goes: ours is new, 0600 whatever the umask. */
	(void)unlinkat(dir_fd, TRACE_STATE_TEMP, 0);
	fd = openat(dir_fd, TRACE_STATE_TEMP,
		    O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	r = fchmod(fd, 0600) < 0 ? -errno : 0;
	if (r >= 0)
		r = write_all(fd, st, sizeof(*st));
	if (r >= 0 && n)
		r = write_all(fd, providers, n * sizeof(*providers));
	if (r >= 0 && renameat(dir_fd, TRACE_STATE_TEMP, dir_fd,
			       TRACE_STATE_FILE) < 0)
		r = -errno;
	if (r < 0)
		(void)unlinkat(dir_fd, TRACE_STATE_TEMP, 0);
	return r;
}

/* Only what we wrote: a regular file of our euid that no one else may write. */
static int check_file(const struct stat *sb, char *why, size_t why_len)
{
	if (!S_ISREG(sb->st_mode)) {
		snprintf(why, why_len, "it is not a regular file");
		return -EPERM;
	}
	if (sb->st_uid != geteuid()) {
		snprintf(why, why_len, "it is owned by uid %u, not uid %u (fxtraced's)",
			 (unsigned int)sb->st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	if ((sb->st_mode & 07777) != 0600) {
		snprintf(why, why_len, "its mode is %04o, not 0600",
			 (unsigned int)(sb->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

static int not_ours(char *why, size_t why_len)
{
	snprintf(why, why_len, "it is not one this fxtraced wrote");
	return -EBADMSG;
}

int trace_state_load(int dir_fd, struct trace_state *st,
		     struct trace_state_provider **providers, size_t *n,
		     char *why, size_t why_len)
{
	_cleanup_free_ struct trace_state_provider *p = NULL;
	_cleanup_close_ int fd = -1;
	struct stat sb;
	size_t len;
	int r;

	*providers = NULL;
	*n = 0;
	fd = openat(dir_fd, TRACE_STATE_FILE,
		    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ELOOP) {
		snprintf(why, why_len, "it is a symbolic link");
		return -EPERM;
	}
	if (fd < 0 || fstat(fd, &sb) < 0) {
		r = -errno;
		snprintf(why, why_len, "%s", strerror(-r));
		return r;
	}
	r = check_file(&sb, why, why_len);
	if (r < 0)
		return r;
	if (pread(fd, st, sizeof(*st), 0) != (ssize_t)sizeof(*st) ||
	    st->magic != TRACE_STATE_MAGIC ||
	    st->version != TRACE_STATE_VERSION ||
	    st->nproviders > TRACE_STATE_PROVIDERS_MAX)
		return not_ours(why, why_len);
	len = st->nproviders * sizeof(*p);
	if ((uint64_t)sb.st_size != sizeof(*st) + len)
		return not_ours(why, why_len);
	if (len) {
		p = malloc(len);
		if (!p) {
			snprintf(why, why_len, "out of memory");
			return -ENOMEM;
		}
		if (pread(fd, p, len, sizeof(*st)) != (ssize_t)len)
			return not_ours(why, why_len);
	}
	*providers = TAKE_PTR(p);
	*n = st->nproviders;
	return 0;
}

void trace_state_remove(int dir_fd)
{
	(void)unlinkat(dir_fd, TRACE_STATE_FILE, 0);
}
