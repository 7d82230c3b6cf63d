// SPDX-License-Identifier: GPL-2.0-only
/*
 * mountinfo: "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3
 * /dev/root rw,errors=continue": the mount point is the fifth field,
 * with space, tab, newline and backslash escaped as \ooo; the type
 * follows the " - " separator.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cleanup.h"
#include "mount_table.h"

/* Two paths of PATH_MAX (root, mount point), \ooo escapes making a byte
 * 4 at most, options and source.
 */
#define MOUNTINFO_LINE_MAX 65536
#define MOUNTS_MAX 65536

struct mount {
	char *point;
	unsigned long id;
	bool fuse;
};

struct mount_table {
	struct mount *mounts;
	size_t n;
};

DEFINE_TRIVIAL_CLEANUP_FUNC(FILE *, fclose);

/* Undoes the kernel's \ooo escapes in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* The mount's id, point and whether FUSE, of one line; false to skip it. */
static bool parse_line(char *line, unsigned long *id, char **point, bool *fuse)
{
	char *save = NULL, *field, *sep = strstr(line, " - "), *end;
	int i;

	if (!sep)
		return false;
	*sep = '\0';
	field = strtok_r(line, " ", &save);
	if (!field)
		return false;
	*id = strtoul(field, &end, 10);
	if (*end)
		return false;
	for (i = 1; field && i < 5; i++)
		field = strtok_r(NULL, " ", &save);
	if (!field || field[0] != '/')
		return false;
	unescape(field);
	*point = field;
	sep += 3;
	*fuse = !strncmp(sep, "fuse ", 5) || !strncmp(sep, "fuseblk ", 8) ||
		!strncmp(sep, "fuse.", 5);
	return true;
}

static int add_mount(struct mount_table *m, unsigned long id,
		     const char *point, bool fuse)
{
	struct mount *mounts;

	if (m->n == MOUNTS_MAX)
		return -E2BIG;
	mounts = reallocarray(m->mounts, m->n + 1, sizeof(*mounts));
	if (!mounts)
		return -ENOMEM;
	m->mounts = mounts;
	mounts[m->n].point = strdup(point);
	if (!mounts[m->n].point)
		return -ENOMEM;
	mounts[m->n].id = id;
	mounts[m->n++].fuse = fuse;
	return 0;
}

int mount_table_load(const char *path, struct mount_table **ret)
{
	_cleanup_(mount_table_freep) struct mount_table *m = calloc(1, sizeof(*m));
	_cleanup_(fclosep) FILE *f = NULL;
	_cleanup_free_ char *line = malloc(MOUNTINFO_LINE_MAX);

	if (!m || !line)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, MOUNTINFO_LINE_MAX, f)) {
		size_t len = strlen(line);
		unsigned long id;
		char *point;
		bool fuse;
		int r;

		if (len && line[len - 1] != '\n' && !feof(f)) {
			/* Not the kernel's line lengths: refuse the table
			 * rather than miss a FUSE mount. */
			return -E2BIG;
		}
		line[strcspn(line, "\n")] = '\0';
		if (!parse_line(line, &id, &point, &fuse))
			continue;
		r = add_mount(m, id, point, fuse);
		if (r < 0)
			return r;
	}
	*ret = TAKE_PTR(m);
	return 0;
}

static size_t holds(const char *point, const char *path)
{
	size_t len = strlen(point);

	if (len == 1)
		return 1; /* "/" */
	if (strncmp(point, path, len) || (path[len] != '/' && path[len] != '\0'))
		return 0;
	return len;
}

bool mount_table_on_fuse(const struct mount_table *m, const char *path)
{
	size_t i, best = 0;
	bool fuse = false;

	/* The last of equal points is the one on top. */
	for (i = 0; i < m->n; i++) {
		size_t len = holds(m->mounts[i].point, path);

		if (len && len >= best) {
			best = len;
			fuse = m->mounts[i].fuse;
		}
	}
	return fuse;
}

int mount_table_id_on_fuse(const struct mount_table *m, unsigned long id)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->mounts[i].id == id)
			return m->mounts[i].fuse;
	return -ENOENT;
}

void mount_table_free(struct mount_table *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->mounts[i].point);
	free(m->mounts);
	free(m);
}
