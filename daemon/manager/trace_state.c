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
#define TRACE_STATE_VERSION 4u
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

int trace_state_save(const char *dir, struct trace_state *st,
		     const struct trace_state_provider *providers, size_t n)
{
	_cleanup_free_ char *tmp = NULL, *path = NULL;
	_cleanup_close_ int fd = -1;
	int r;

	if (asprintf(&tmp, "%s/.%s.new", dir, TRACE_STATE_FILE) < 0 ||
	    asprintf(&path, "%s/%s", dir, TRACE_STATE_FILE) < 0)
		return -ENOMEM;
	st->magic = TRACE_STATE_MAGIC;
	st->version = TRACE_STATE_VERSION;
	st->nproviders = (uint32_t)n;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return -errno;
	r = write_all(fd, st, sizeof(*st));
	if (r >= 0 && n)
		r = write_all(fd, providers, n * sizeof(*providers));
	if (r >= 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		(void)unlink(tmp);
	return r;
}

int trace_state_load(const char *dir, struct trace_state *st,
		     struct trace_state_provider **providers, size_t *n)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ struct trace_state_provider *p = NULL;
	_cleanup_close_ int fd = -1;
	struct stat sb;
	size_t len;

	*providers = NULL;
	*n = 0;
	if (asprintf(&path, "%s/%s", dir, TRACE_STATE_FILE) < 0)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0)
		return -errno;
	if (pread(fd, st, sizeof(*st), 0) != (ssize_t)sizeof(*st) ||
	    st->magic != TRACE_STATE_MAGIC ||
	    st->version != TRACE_STATE_VERSION ||
	    st->nproviders > TRACE_STATE_PROVIDERS_MAX)
		return -EBADMSG;
	len = st->nproviders * sizeof(*p);
	if ((uint64_t)sb.st_size != sizeof(*st) + len)
		return -EBADMSG;
	if (len) {
		p = malloc(len);
		if (!p)
			return -ENOMEM;
		if (pread(fd, p, len, sizeof(*st)) != (ssize_t)len)
			return -EBADMSG;
	}
	*providers = TAKE_PTR(p);
	*n = st->nproviders;
	return 0;
}

void trace_state_remove(const char *dir)
{
	_cleanup_free_ char *path = NULL;

	if (asprintf(&path, "%s/%s", dir, TRACE_STATE_FILE) >= 0)
		(void)unlink(path);
}
