// SPDX-License-Identifier: GPL-2.0-only
/* --all, --pid, --process of summary and report: see tracectl_scope.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracectl_scope.h"

static int parse_pid(const char *cmd, const char *arg, uint64_t *pid)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || !v || v > UINT32_MAX) {
		fprintf(stderr,
			"tracectl %s: --pid takes a process id above 0, not '%s'; see 'tracectl %s --help'\n",
			cmd, arg, cmd);
		return -EINVAL;
	}
	*pid = v;
	return 0;
}

int tracectl_scope_option(const char *cmd, int opt, const char *arg,
			  struct process_tree_options *o)
{
	if (o->scope != PROCESS_SCOPE_DEFAULT) {
		fprintf(stderr,
			"tracectl %s: --all, --pid and --process exclude each other: give one; see 'tracectl %s --help'\n",
			cmd, cmd);
		return -EINVAL;
	}
	switch (opt) {
	case TRACECTL_SCOPE_OPT_ALL:
		o->scope = PROCESS_SCOPE_ALL;
		return 0;
	case TRACECTL_SCOPE_OPT_PID:
		o->scope = PROCESS_SCOPE_PID;
		return parse_pid(cmd, arg, &o->pid);
	default:
		if (!*arg || strlen(arg) >= sizeof(o->name)) {
			fprintf(stderr,
				"tracectl %s: --process takes a process name of 1 to %zu bytes; see 'tracectl %s --help'\n",
				cmd, sizeof(o->name) - 1, cmd);
			return -EINVAL;
		}
		o->scope = PROCESS_SCOPE_NAME;
		strcpy(o->name, arg);
		return 0;
	}
}
