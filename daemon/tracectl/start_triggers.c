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
#include <fxt/fxt_msg.h>
#include "parse.h"
#include "snapshot_dir.h"
#include "start_triggers.h"
#include "tracectl.h"

void start_triggers_init(struct start_triggers *t)
{
	memset(t, 0, sizeof(*t));
	fxt_msg_init(&t->req, FXT_MSG_CTL_TRIGGERS, sizeof(t->req));
}

bool start_triggers_any(const struct start_triggers *t)
{
	return t->req.count || t->req.latency_ns;
}

/* --trigger NAME[,NAME...]: each name added to the request. */
static int add_names(const char *cmd, const char *list,
		     struct fxt_ctl_triggers *t)
{
	_cleanup_free_ char *copy = strdup(list);
	char *name, *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (name = strtok_r(copy, ",", &save); name || !t->count;
	     name = strtok_r(NULL, ",", &save)) {
		if (!name || !fxt_ctl_trigger_name_valid(name)) {
			fprintf(stderr, "tracectl %s: --trigger %s: a name is 1 to %u of A-Z a-z 0-9 _ . - (not starting with '.'), e.g. --trigger jank or --trigger jank,crash\n",
				cmd, list, FXT_TRIGGER_NAME_MAX - 1);
			return -EINVAL;
		}
		if (t->count == FXT_CTL_TRIGGERS_MAX) {
			fprintf(stderr, "tracectl %s: --trigger: at most %u names\n",
				cmd, FXT_CTL_TRIGGERS_MAX);
			return -EINVAL;
		}
		strcpy(t->names[t->count++], name);
	}
	return 0;
}

/* The options that only go with a trigger, parsed into t->req. */
static int snapshot_option(const char *cmd, int c, const char *arg,
			   struct start_triggers *t)
{
	uint64_t value;

	switch (c) {
	case START_OPT_SNAPSHOT_DIR:
		t->dir = arg;
		return 0;
	case START_OPT_TRIGGER_DELAY:
		if (parse_duration_ns(arg, &value) < 0)
			return tracectl_bad_value(cmd, "trigger-delay", arg,
						  "give e.g. 200ms or 2s");
		t->req.delay_ns = value;
		return 0;
	case START_OPT_TRIGGER_LIMIT:
		if (parse_count(arg, 1000, &value) < 0)
			return tracectl_bad_value(cmd, "trigger-limit", arg,
						  "give snapshots per second, 1 to 1000");
		t->req.limit = (__u32)value;
		return 0;
	case START_OPT_SNAPSHOT_MAX_BYTES:
		/* "auto": the default, for a settings file. */
		value = 0;
		if (strcmp(arg, "auto") &&
		    (parse_size(arg, &value) < 0 || value < 4096))
			return tracectl_bad_value(cmd, "snapshot-max-bytes", arg,
						  "give bytes, at least 4K, e.g. 1G or 256M, or auto");
		t->req.snapshot_max_bytes = value;
		return 0;
	case START_OPT_SNAPSHOT_MAX_FILES:
		if (parse_count(arg, FXT_CTL_SNAPSHOT_FILES_MAX, &value) < 0)
			return tracectl_bad_value(cmd, "snapshot-max-files", arg,
						  "give a number of snapshots, 1 to %u",
						  FXT_CTL_SNAPSHOT_FILES_MAX);
		t->req.snapshot_max_files = (__u32)value;
		return 0;
	}
	return 1;
}

int start_triggers_option(const char *cmd, int c, const char *arg,
			  struct start_triggers *t)
{
	uint64_t value;
	int r;

	switch (c) {
	case START_OPT_TRIGGER:
		return add_names(cmd, arg, &t->req) < 0 ? -EINVAL : 0;
	case START_OPT_TRIGGER_LATENCY:
		/* "off": for a settings file that names no latency. */
		if (!strcmp(arg, "off")) {
			t->req.latency_ns = 0;
			return 0;
		}
		if (parse_duration_ns(arg, &value) < 0 || !value)
			return tracectl_bad_value(cmd, "trigger-latency", arg,
						  "give a wait longer than 0, e.g. 10ms or 500us, or off");
		t->req.latency_ns = value;
		return 0;
	}
	r = snapshot_option(cmd, c, arg, t);
	if (r == 0)
		t->with_triggers_only = true;
	return r;
}

int start_triggers_check(const char *cmd, const struct start_triggers *t,
			 unsigned int mode)
{
	if (t->with_triggers_only && !start_triggers_any(t)) {
		fprintf(stderr, "tracectl %s: --snapshot-dir, --snapshot-max-bytes, --snapshot-max-files, --trigger-delay and --trigger-limit go with --trigger NAME or --trigger-latency T\n",
			cmd);
		return -EINVAL;
	}
	if (start_triggers_any(t) &&
	    (mode != FXT_BUFFERING_CIRCULAR || !t->dir)) {
		fprintf(stderr, "tracectl %s: --trigger%s needs --mode circular and --snapshot-dir DIR\n",
			cmd, t->req.count ? "" : "-latency");
		return -EINVAL;
	}
	return 0;
}

int start_triggers_open_dir(const char *cmd, struct start_triggers *t)
{
	char *dir = t->req.dir;	/* absolute */
	size_t len = strlen(dir);
	char why[300] = "cannot be examined";
	struct stat st;
	int fd;

	/* "DIR/" would follow a symbolic link at DIR. */
	while (len > 1 && dir[len - 1] == '/')
		dir[--len] = '\0';
	fd = open(dir, O_DIRECTORY | O_NOFOLLOW | O_RDONLY | O_CLOEXEC);
	if (fd < 0 && (errno == ENOTDIR || errno == ELOOP) &&
	    lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
		fprintf(stderr, "tracectl %s: --snapshot-dir %s is a symbolic link: give the directory itself, one of your own (mkdir -m 0700 DIR)\n",
			cmd, dir);
		return -1;
	}
	if (fd < 0 || faccessat(fd, ".", W_OK | X_OK, 0) < 0) {
		fprintf(stderr, "tracectl %s: --snapshot-dir %s: %s; give a directory you may write in\n",
			cmd, dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fstat(fd, &st) < 0 ||
	    snapshot_dir_check(&st, getuid(), why, sizeof(why)) < 0) {
		fprintf(stderr, "tracectl %s: --snapshot-dir %s %s\n", cmd, dir,
			why);
		close(fd);
		return -1;
	}
	return fd;
}
