// SPDX-License-Identifier: GPL-2.0-only
/* Starting a trace: see start_request.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fxt/fxt_msg.h>
#include <fxt/fxt_sched_uapi.h>

#include "archive_output.h"
#include "cleanup.h"
#include "control_client.h"
#include "start_request.h"
#include "start_triggers.h"
#include "tracectl.h"

/* Whether depmod lists fxt_sched for the running kernel. */
static bool kmod_installed(void)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	struct utsname u;
	bool found = false;
	FILE *f;

	if (uname(&u) < 0)
		return false;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0)
		found = !strncmp(line, "fxt_sched.ko", 12) ||
			strstr(line, "/fxt_sched.ko");
	free(line);
	fclose(f);
	return found;
}

/*
 * The module's device is missing: name the fix from what this machine
 * has (the manager's sandbox cannot see the installed modules).
 */
static void print_kmod_fix(const char *cmd)
{
	struct utsname u;

	if (access(FXT_SCHED_DEVICE, F_OK) == 0)
		return;
	if (access("/sys/module/fxt_sched", F_OK) == 0)
		fprintf(stderr, "tracectl %s: fxt_sched is loaded but %s is missing: check its udev rule (sudo udevadm trigger)\n",
			cmd, FXT_SCHED_DEVICE);
	else if (kmod_installed())
		fprintf(stderr, "tracectl %s: the fxt_sched module is not loaded: load it: sudo modprobe fxt_sched\n",
			cmd);
	else
		fprintf(stderr, "tracectl %s: no fxt_sched module for kernel %s: install fxt-sched-dkms (sudo apt install fxt-sched-dkms), then: sudo modprobe fxt_sched; or use --kernel=bpf\n",
			cmd, uname(&u) == 0 ? u.release : "?");
}

/* Arms the started trace's triggers; 0, or 1 after saying why not. */
static int arm_triggers(const char *cmd, const struct start_options *o,
			int dir_fd)
{
	struct control_reply rep;
	int r;

	r = control_exchange(cmd, &o->triggers.req, sizeof(o->triggers.req),
			     dir_fd, &rep);
	free(rep.providers);
	free(rep.triggers);
	if (r >= 0)
		r = control_report(cmd, &rep);
	if (r)
		fprintf(stderr, "tracectl %s: the trace runs without triggers; end it with: tracectl stop\n",
			cmd);
	return r ? 1 : 0;
}

int start_request(const char *cmd, struct start_options *o)
{
	struct fxt_ctl_start req = o->req;
	const char *path = req.output;
	char temp[PATH_MAX];
	_cleanup_close_ int fd = -1, dir_fd = -1;
	struct control_reply rep;
	int r;

	/* The snapshot directory first: the manager creates them through it. */
	if (start_triggers_any(&o->triggers)) {
		dir_fd = start_triggers_open_dir(cmd, &o->triggers);
		if (dir_fd < 0)
			return TRACECTL_EXIT_FAIL;
	}
	fd = archive_output_create(path, req.temp_name, sizeof(req.temp_name));
	archive_output_temp_path(path, req.temp_name, temp, sizeof(temp));
	if (fd >= 0) {
		r = control_exchange(cmd, &req, sizeof(req), fd, &rep);
	} else {
		/* Still ask (for status): a refused caller learns what to do. */
		struct fxt_msg_header status;

		fxt_msg_init(&status, FXT_MSG_CTL_STATUS, sizeof(status));
		r = control_exchange(cmd, &status, sizeof(status), -1, &rep);
	}
	free(rep.providers);
	free(rep.triggers);
	if (r < 0) {
		r = 1;
	} else if (fd < 0 && rep.result.error != -EPERM) {
		fprintf(stderr, "tracectl %s: cannot create %s: %s\n", cmd,
			path, fd == -EINVAL ? "not a regular file" :
			strerror(-fd));
		r = 1;
	} else {
		r = control_report(cmd, &rep);
	}
	if (r) {
		if (fd >= 0)
			archive_output_discard(temp, fd);
		if (o->req.kernel == FXT_CTL_KERNEL_KMOD && rep.result.error &&
		    rep.result.error != -EPERM)
			print_kmod_fix(cmd);
		return TRACECTL_EXIT_FAIL;
	}
	if (rep.result.message[0])
		printf("%s\n", rep.result.message);
	printf("Tracing to %s (mode %s, kernel %s)\n", rep.result.output,
	       start_mode_name(rep.result.mode), rep.result.kernel);
	if (rep.result.memory_budget)
		printf("Memory budget: %llu bytes, %llu in use, %llu per provider buffer\n",
		       (unsigned long long)rep.result.memory_budget,
		       (unsigned long long)rep.result.memory_used,
		       (unsigned long long)rep.result.buffer_size);
	if (start_triggers_any(&o->triggers)) {
		if (arm_triggers(cmd, o, dir_fd))
			return TRACECTL_EXIT_FAIL;
		printf("Triggers armed: snapshots to %s\n", o->triggers.req.dir);
	}
	return TRACECTL_EXIT_OK;
}
