// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cleanup.h"
#include "line_read.h"
#include "mmap_proc_maps.h"
#include "proc_open.h"
#include "usyms.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);
DEFINE_TRIVIAL_CLEANUP_FUNC(DIR *, closedir);

/*
 * The build id of the file pid maps at [start, end), or 0 bytes: opened
 * as the process's owner could (proc_open.h), the mapped file itself.
 */
static size_t mapped_build_id(const char *proc, uint32_t pid,
			      const struct proc_maps_line *m, uint8_t *id)
{
	struct proc_owner owner;
	struct proc_open_request rq = {
		.proc = proc, .pid = pid, .start = m->start, .end = m->end,
		.path = m->path, .owner = &owner, .check_inode = true,
		.dev = m->dev, .ino = m->inode,
	};
	_cleanup_close_ int fd = -1;
	int len;

	if (proc_owner_read(proc, pid, &owner) < 0)
		return 0;
	fd = proc_open_mapped(&rq);
	if (fd < 0)
		return 0;
	len = usyms_fd_build_id(fd, id, MMAP_STORE_BUILD_ID_MAX);
	return len > 0 ? (size_t)len : 0;
}

int mmap_proc_maps_read(struct mmap_store *s, const char *proc, uint32_t pid,
			FILE *maps)
{
	_cleanup_free_ char *line = malloc(PROC_MAPS_LINE_MAX);
	uint8_t id[MMAP_STORE_BUILD_ID_MAX];
	unsigned int lines = 0;

	if (!line)
		return -ENOMEM;
	while (lines++ < PROC_MAPS_LINES_MAX &&
	       line_read(maps, line, PROC_MAPS_LINE_MAX)) {
		struct proc_maps_line m;
		size_t id_len;

		if (proc_maps_line_parse(line, &m) < 0) {
			mmap_store_count_drop(s);
			continue;
		}
		/* Anonymous, [vdso], [heap]: no file to name them. */
		if (!m.exec || m.path[0] != '/')
			continue;
		id_len = mapped_build_id(proc, pid, &m, id);
		/* Over a cap: counted there; the next lines may still fit. */
		(void)mmap_store_add(s, pid, 0, m.start, m.end - m.start, m.pgoff,
				     m.path, strlen(m.path), id, id_len);
	}
	return 0;
}

static bool parse_pid(const char *name, uint32_t *pid)
{
	char *end;
	unsigned long v;

	if (name[0] < '1' || name[0] > '9')
		return false;
	errno = 0;
	v = strtoul(name, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*pid = (uint32_t)v;
	return true;
}

int mmap_proc_maps_scan(struct mmap_store *s, const char *proc)
{
	_cleanup_(closedirp) DIR *dir = opendir(proc);
	struct dirent *de;
	int n = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		_cleanup_(fclosep) FILE *maps = NULL;
		char path[PATH_MAX];
		uint32_t pid;

		if (!parse_pid(de->d_name, &pid))
			continue;
		snprintf(path, sizeof(path), "%s/%" PRIu32 "/maps", proc, pid);
		/* Gone since, or a kernel thread's empty maps. */
		maps = fopen(path, "re");
		if (!maps)
			continue;
		if (mmap_proc_maps_read(s, proc, pid, maps) == 0)
			n++;
	}
	return n;
}
