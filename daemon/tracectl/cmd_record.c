// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl record: a trace while a command runs; it starts the trace,
 * runs the command, stops the trace when the command exits and says per
 * provider of the command what the archive holds of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fxt/fxt_msg.h>
#include <fxt/provider.h>	/* FXT_START_WAIT_ENV */

#include "cleanup.h"
#include "control_client.h"
#include "provider_text.h"
#include "record_categories.h"
#include "start_options.h"
#include "start_request.h"
#include "stop_request.h"
#include "tracectl.h"
#include "usage_error.h"

/* Can execvp() run cmd: a path, or a name found in $PATH? */
static bool command_runnable(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *end;
	char file[PATH_MAX];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	for (p = path && *path ? path : "/bin:/usr/bin"; *p; p = end) {
		end = strchrnul(p, ':');
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)(end - p), p,
			     cmd) < (int)sizeof(file) &&
		    access(end == p ? cmd : file, X_OK) == 0)
			return true;
		if (*end)
			end++;
	}
	return false;
}

/*
 * The start wait the command's providers read (a ceiling: the first call
 * site waits until the provider joined the running trace), unless the
 * caller set one.
 */
#define RECORD_START_WAIT_MS "10000"

/*
 * Asks the manager to tell when a provider of process pid (or of one it
 * started) has joined the trace: the connection, or -1 (no answer then;
 * the command runs all the same).
 */
static int wait_joined_request(pid_t pid)
{
	struct fxt_ctl_wait_joined req;
	int fd = control_connect("record");

	if (fd < 0)
		return -1;
	fxt_msg_init(&req, FXT_MSG_CTL_WAIT_JOINED, sizeof(req));
	req.pid = (__u32)pid;
	req.timeout_ms = (__u32)atoi(RECORD_START_WAIT_MS);
	if (fxt_msg_send(fd, &req, sizeof(req), -1) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A provider's START acknowledgment may still be on its way to the
 * manager when the command has exited: this long for the answer then.
 */
#define RECORD_JOIN_GRACE_MS 250

/*
 * Until the command exits: the manager's answer to the wait, if it comes
 * (joined: its providers, result.error 0 when one joined).
 */
static void wait_command(pid_t pid, int watch_fd,
			 struct control_reply *joined)
{
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd fds[2] = {
		{ .fd = pidfd, .events = POLLIN },
		{ .fd = watch_fd, .events = POLLIN },
	};
	int timeout = -1, n;

	joined->result.error = -ENODATA;
	if (pidfd < 0 || watch_fd < 0)
		return;
	while (fds[1].fd >= 0) {
		n = poll(fds, 2, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		if (fds[1].revents) {
			if (control_read_reply(watch_fd, joined) < 0)
				joined->result.error = -ENODATA;
			fds[1].fd = -1;
		}
		if (fds[0].revents) {	/* exited: a last look at the answer */
			fds[0].fd = -1;
			timeout = RECORD_JOIN_GRACE_MS;
		}
	}
}

/* The command's exit status as a shell reports it. */
static int run_command(char **argv, pid_t *child,
		       struct control_reply *joined)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	_cleanup_close_ int watch_fd = -1;
	int status;
	pid_t pid;

	/* ^C goes to the command; we stay to stop the trace. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	/* Piped, our lines stay before the command's own output. */
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "tracectl record: fork: %s\n", strerror(errno));
		return 127;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		setenv(FXT_START_WAIT_ENV, RECORD_START_WAIT_MS, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "tracectl record: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	*child = pid;
	watch_fd = wait_joined_request(pid);
	wait_command(pid, watch_fd, joined);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 127;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static bool announced(const struct control_reply *joined, uint32_t id)
{
	size_t i;

	for (i = 0; !joined->result.error && i < joined->nproviders; i++)
		if (joined->providers[i].id == id)
			return true;
	return false;
}

/*
 * Per provider of the command (announced joined by the manager, or the
 * command's own process): what the archive holds of it and what it lost.
 */
static void print_command_providers(const struct control_reply *stop,
				    pid_t child,
				    const struct control_reply *joined)
{
	char name[PROVIDER_TEXT_NAME_MAX], dropped[PROVIDER_TEXT_DROPS_MAX];
	size_t i;

	for (i = 0; i < stop->nproviders; i++) {
		const struct fxt_ctl_provider *p = &stop->providers[i];

		if (p->flags & FXT_CTL_PROVIDER_KERNEL ||
		    (p->pid != (uint32_t)child && !announced(joined, p->id)))
			continue;
		printf("The command's provider %s (pid %u): %llu records written, %s dropped\n",
		       provider_text_name(p, name), p->pid,
		       (unsigned long long)p->records,
		       provider_text_drops(p, dropped));
	}
}

int cmd_record(int argc, char **argv)
{
	struct control_reply joined = { 0 }, stopped = { 0 };
	struct start_options o = { 0 };
	const char *missing;
	pid_t child = 0;
	int status, r;

	if (start_options_parse("record", argc, argv, &o) < 0)
		return TRACECTL_EXIT_USAGE;
	if (o.help) {
		start_options_usage(stdout, "record");
		return TRACECTL_EXIT_OK;
	}
	if (optind >= argc) {
		usage_error(argv[0], "no command given: put it after --, e.g. tracectl record -- ./my-app");
		return TRACECTL_EXIT_USAGE;
	}
	if (o.req.duration_ns) {
		fprintf(stderr, "tracectl record: --duration does not apply; the trace ends with the command\n");
		return TRACECTL_EXIT_USAGE;
	}
	missing = record_categories_add(o.req.categories,
					sizeof(o.req.categories));
	if (missing) {
		fprintf(stderr,
			"tracectl record: --categories: no room to add %s; give a shorter list\n",
			missing);
		return TRACECTL_EXIT_USAGE;
	}
	if (!command_runnable(argv[optind])) {
		fprintf(stderr, "tracectl record: %s: command not found or not executable; no trace was started\n",
			argv[optind]);
		return 127;
	}
	r = start_request("record", &o);
	if (r)
		return r;
	status = run_command(argv + optind, &child, &joined);
	r = stop_request("record", &stopped, 0);
	print_command_providers(&stopped, child, &joined);
	free(joined.providers);
	free(stopped.providers);
	if (r)
		return r;
	return status;
}
