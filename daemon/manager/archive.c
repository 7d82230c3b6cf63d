// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fxt/fxt.h>

#include "archive.h"

#define ARCHIVE_TICKS_PER_SECOND 1000000000ull
#define ARCHIVE_NAME_MAX 255u

struct archive {
	int fd;
	int error;	/* the first write error: the archive lacks records */
	bool failing;	/* the last write failed */
	uint64_t bytes;	/* whole records, all on disk but the last call's */
};

/*
 * Each call writes whole records: one that fails is cut back, so the file
 * always ends at a record boundary. Later writes are tried again (space
 * may come back).
 */
static int write_all(struct archive *a, const void *data, size_t len)
{
	uint64_t start = a->bytes;
	const char *p = data;
	int r;

	while (len) {
		ssize_t n = write(a->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			(void)archive_cut_back(a, start);
			if (!a->error)
				a->error = r;
			a->failing = true;
			return r;
		}
		p += n;
		len -= (size_t)n;
		a->bytes += (uint64_t)n;
	}
	a->failing = false;
	return 0;
}

int archive_cut_back(struct archive *a, uint64_t mark)
{
	if (a->bytes == mark)
		return 0;
	if (ftruncate(a->fd, (off_t)mark) < 0 ||
	    lseek(a->fd, (off_t)mark, SEEK_SET) < 0) {
		/* What is past mark stays: a torn record the reader reports. */
		int r = -errno;

		if (!a->error)
			a->error = r;
		return r;
	}
	a->bytes = mark;
	return 0;
}

int archive_error(const struct archive *a, bool *failing, bool *removed)
{
	struct stat st;

	*failing = a->failing;
	*removed = fstat(a->fd, &st) == 0 && st.st_nlink == 0;
	return a->error;
}

static int write_word(struct archive *a, uint64_t w)
{
	return write_all(a, &w, sizeof(w));
}

/*
 * The controller opened the file with its own rights and passed it: we
 * never open a path, so we cannot write where the controller could not.
 * Anything but a regular file opened for writing is refused (a FIFO
 * would block the manager).
 */
int archive_open(int fd, struct archive **ret)
{
	struct archive *a;
	struct stat st;
	int flags;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0)
		return -errno;
	if ((flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->fd = fd;
	*ret = a;
	return 0;
}

int archive_begin(struct archive *a)
{
	if (ftruncate(a->fd, 0) < 0 || lseek(a->fd, 0, SEEK_SET) < 0)
		return -errno;
	return write_word(a, fxt_magic_record());
}

int archive_close(struct archive *a)
{
	int r;

	if (!a)
		return 0;
	/*
	 * What failed to be written is each writer's to report (it may have
	 * been written again since). The controller renames the file into
	 * place: its data first.
	 */
	r = fsync(a->fd) < 0 ? -errno : 0;
	if (close(a->fd) < 0 && !r)
		r = -errno;
	free(a);
	return r;
}

static int write_provider_info(struct archive *a, uint32_t id,
			       const char *name)
{
	uint64_t stream[(ARCHIVE_NAME_MAX + 7) / 8] = { 0 };
	size_t len = strnlen(name, ARCHIVE_NAME_MAX);
	int r;

	memcpy(stream, name, len);
	r = write_word(a, fxt_provider_info_header(id, (__u32)len));
	if (r < 0)
		return r;
	return write_all(a, stream, fxt_words((__u32)len) * FXT_WORD_BYTES);
}

int archive_begin_section(struct archive *a, uint32_t id, const char *name,
			  bool *visited, bool with_init)
{
	int r;

	if (*visited)
		r = write_word(a, fxt_provider_section_header(id));
	else
		r = write_provider_info(a, id, name);
	if (r < 0)
		return r;
	*visited = true;
	if (!with_init)
		return 0;
	r = write_word(a, fxt_init_header());
	if (r < 0)
		return r;
	return write_word(a, ARCHIVE_TICKS_PER_SECOND);
}

int archive_write_overflow(struct archive *a, uint32_t id)
{
	return write_word(a, fxt_provider_event_header(
				     id, FXT_PROVIDER_EVENT_BUFFER_OVERFLOW));
}

int archive_write(struct archive *a, const void *data, size_t len)
{
	return write_all(a, data, len);
}

uint64_t archive_bytes(const struct archive *a)
{
	return a->bytes;
}
