// SPDX-License-Identifier: GPL-2.0-only
/*
 * The /proc state dump: the BPF program and the module only see names
 * change (fork, exec, rename), so tasks older than the trace are named
 * from /proc once at start.
 */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fxt/sched.h>

#include "kernel_names.h"

static __u64 *names_reserve(struct kernel_names *kn, size_t words)
{
	__u64 *w;

	if (kn->len + words > kn->cap) {
		size_t cap = kn->cap ? kn->cap * 2 : 4096;

		while (cap < kn->len + words)
			cap *= 2;
		w = realloc(kn->words, cap * sizeof(*w));
		if (!w)
			return NULL;
		kn->words = w;
		kn->cap = cap;
	}
	w = kn->words + kn->len;
	memset(w, 0, words * sizeof(*w));
	return w;
}

static uint32_t name_len(const char *name)
{
	size_t len = strnlen(name, FXT_SCHED_NAME_MAX);

	return (uint32_t)len;
}

int kernel_names_add_thread(struct kernel_names *kn, uint64_t tid,
			    uint64_t tgid, const char *name)
{
	uint32_t len = name_len(name);
	uint32_t words = fxt_sched_thread_words(len);
	__u64 *w = names_reserve(kn, words);

	if (!w)
		return -ENOMEM;
	fxt_sched_write_thread_object(w, tid, tgid, len);
	memcpy(w + 2, name, len);
	kn->len += words;
	kn->records++;
	return 0;
}

int kernel_names_add_process(struct kernel_names *kn, uint64_t pid,
			     const char *name)
{
	uint32_t len = name_len(name);
	uint32_t words = fxt_sched_process_words(len);
	__u64 *w = names_reserve(kn, words);

	if (!w)
		return -ENOMEM;
	fxt_sched_write_process_object(w, pid, len);
	memcpy(w + 2, name, len);
	kn->len += words;
	kn->records++;
	return 0;
}

int kernel_names_add_record(struct kernel_names *kn, const __u64 *w,
			    size_t words)
{
	__u64 *to = names_reserve(kn, words);

	if (!to)
		return -ENOMEM;
	memcpy(to, w, words * sizeof(*w));
	kn->len += words;
	kn->records++;
	return 0;
}

/* Reads a comm file into name (NUL-terminated, newline cut); 0 or -errno. */
static int read_comm(int dirfd, const char *path, char *name, size_t size)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, name, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	name[n] = '\0';
	name[strcspn(name, "\n")] = '\0';
	return 0;
}

static bool parse_id(const char *s, uint64_t *id)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	errno = 0;
	*id = strtoull(s, &end, 10);
	return !errno && !*end;
}

static int dump_threads(struct kernel_names *kn, int pid_fd, uint64_t tgid)
{
	int task_fd = openat(pid_fd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char path[300], name[FXT_SCHED_NAME_MAX + 2];
	struct dirent *de;
	uint64_t tid;
	DIR *dir;
	int err = 0;

	if (task_fd < 0)
		return 0;	/* exited */
	dir = fdopendir(task_fd);
	if (!dir) {
		close(task_fd);
		return 0;
	}
	while (!err && (de = readdir(dir))) {
		if (!parse_id(de->d_name, &tid))
			continue;
		snprintf(path, sizeof(path), "%s/comm", de->d_name);
		if (read_comm(task_fd, path, name, sizeof(name)))
			continue;
		err = kernel_names_add_thread(kn, tid, tgid, name);
	}
	closedir(dir);
	return err;
}

static int dump_process(struct kernel_names *kn, int proc_fd, const char *pid_name,
			uint64_t pid)
{
	char name[FXT_SCHED_NAME_MAX + 2];
	int pid_fd, err;

	pid_fd = openat(proc_fd, pid_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pid_fd < 0)
		return 0;
	err = read_comm(pid_fd, "comm", name, sizeof(name));
	if (!err)
		err = kernel_names_add_process(kn, pid, name);
	if (!err)
		err = dump_threads(kn, pid_fd, pid);
	else if (err != -ENOMEM)
		err = 0;
	close(pid_fd);
	return err;
}

int kernel_names_dump(struct kernel_names *kn, const char *proc_root)
{
	struct dirent *de;
	uint64_t pid;
	DIR *dir;
	int err;

	/* The idle tasks of every CPU are all tid 0 and have no /proc entry. */
	err = kernel_names_add_process(kn, 0, "swapper");
	if (!err)
		err = kernel_names_add_thread(kn, 0, 0, "swapper");
	if (err)
		return err;
	dir = opendir(proc_root);
	if (!dir)
		return -errno;
	while (!err && (de = readdir(dir))) {
		if (parse_id(de->d_name, &pid))
			err = dump_process(kn, dirfd(dir), de->d_name, pid);
	}
	closedir(dir);
	return err;
}

void kernel_names_clear(struct kernel_names *kn)
{
	kn->len = 0;
	kn->records = 0;
}

void kernel_names_free(struct kernel_names *kn)
{
	free(kn->words);
	memset(kn, 0, sizeof(*kn));
}
