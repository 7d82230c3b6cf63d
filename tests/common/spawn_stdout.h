/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A child program started with its standard output read by the test (a
 * target that says where it stands before the test looks at it).
 */
#ifndef FXT_TESTS_SPAWN_STDOUT_H
#define FXT_TESTS_SPAWN_STDOUT_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

/* argv[0] run with its output readable from the FILE returned, or NULL. */
static inline FILE *spawn_stdout(char *const argv[], pid_t *pid)
{
	int out[2];

	if (pipe2(out, O_CLOEXEC))
		return NULL;
	*pid = fork();
	if (*pid < 0) {
		close(out[0]);
		close(out[1]);
		return NULL;
	}
	if (!*pid) {
		dup2(out[1], STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	return fdopen(out[0], "r");
}

#endif /* FXT_TESTS_SPAWN_STDOUT_H */
