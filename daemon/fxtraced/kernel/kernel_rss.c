// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/kmem.h>

#include "kernel_rss.h"

/* The status lines of the MM_* counters, in their order. */
static const char *const status_keys[FXT_KMEM_RSS_COUNTERS] = {
	"RssFile:", "RssAnon:", "VmSwap:", "RssShmem:",
};

/* "   1234 kB" in bytes; false if it is not that. */
static bool parse_kb(const char *p, const char *end, uint64_t *bytes)
{
	uint64_t kb = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || !isdigit((unsigned char)*p))
		return false;
	for (; p < end && isdigit((unsigned char)*p); p++) {
		if (kb > (UINT64_MAX >> 10) / 10)
			return false;
		kb = kb * 10 + (uint64_t)(*p - '0');
	}
	if (end - p < 3 || memcmp(p, " kB", 3))
		return false;
	*bytes = kb << 10;
	return true;
}

unsigned int kernel_rss_parse_status(const char *text, size_t len,
				     uint64_t bytes[4])
{
	const char *p = text, *end = text + len, *eol;
	unsigned int found = 0, i;
	size_t klen;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		for (i = 0; i < FXT_KMEM_RSS_COUNTERS; i++) {
			klen = strlen(status_keys[i]);
			if ((size_t)(eol - p) > klen &&
			    !memcmp(p, status_keys[i], klen) &&
			    parse_kb(p + klen, eol, &bytes[i]))
				found |= 1u << i;
		}
	}
	return found;
}

static int add_process(struct kernel_names *kn, int proc_fd,
		       const char *pid_name, uint64_t pid, uint64_t ts)
{
	char path[300], text[4096];
	__u64 w[FXT_KMEM_RSS_WORDS];
	uint64_t bytes[FXT_KMEM_RSS_COUNTERS] = { 0 };
	unsigned int found, i;
	ssize_t n;
	int fd, err;

	snprintf(path, sizeof(path), "%s/status", pid_name);
	fd = openat(proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;	/* exited */
	n = read(fd, text, sizeof(text));
	close(fd);
	if (n <= 0)
		return 0;
	found = kernel_rss_parse_status(text, (size_t)n, bytes);
	for (i = 0; i < FXT_KMEM_RSS_COUNTERS; i++) {
		if (!(found & (1u << i)))
			continue;
		fxt_kmem_write_rss(w, ts, pid, pid, i, bytes[i]);
		err = kernel_names_add_record(kn, w, FXT_KMEM_RSS_WORDS);
		if (err)
			return err;
	}
	return 0;
}

int kernel_rss_dump(struct kernel_names *kn, const char *proc_root,
		    uint64_t ts)
{
	struct dirent *de;
	uint64_t pid;
	char *end;
	DIR *dir;
	int err = 0;

	dir = opendir(proc_root);
	if (!dir)
		return -errno;
	while (!err && (de = readdir(dir))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		errno = 0;
		pid = strtoull(de->d_name, &end, 10);
		if (!errno && !*end)
			err = add_process(kn, dirfd(dir), de->d_name, pid, ts);
	}
	closedir(dir);
	return err;
}
