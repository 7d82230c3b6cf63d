// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxtraced and the service manager: READY=1 on a NOTIFY_SOCKET we own,
 * sent only once the socket accepts connections; STOPPING=1 and a clean
 * exit (socket removed) on SIGTERM.
 * Usage: notify-test FXTRACED
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fxt/fxt_msg.h>

static int fail(const char *what)
{
	fprintf(stderr, "notify-test: FAIL: %s (%s)\n", what, strerror(errno));
	exit(1);
}

/* Blocks until a datagram containing want arrives. */
static void wait_for(int sock, const char *want)
{
	char buf[4096];

	for (;;) {
		ssize_t n = recv(sock, buf, sizeof(buf) - 1, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail("recv on the notify socket");
		}
		buf[n] = '\0';
		printf("notify: %s\n", buf);
		if (strstr(buf, want))
			return;
	}
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/fxt-notify-XXXXXX", notify[256], sockpath[256];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sock, status, fd;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: notify-test FXTRACED\n");
		return 2;
	}
	if (!mkdtemp(dir))
		fail("mkdtemp");
	snprintf(notify, sizeof(notify), "%s/notify", dir);
	snprintf(sockpath, sizeof(sockpath), "%s/run/manager.sock", dir);
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	strcpy(sa.sun_path, notify);
	if (sock < 0 || bind(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		fail("bind the notify socket");

	pid = fork();
	if (pid == 0) {
		setenv("NOTIFY_SOCKET", notify, 1);
		execl(argv[1], argv[1], "--socket", sockpath, (char *)NULL);
		_exit(127);
	}
	wait_for(sock, "READY=1");
	/* Ready means connectable, and the directory was created for it. */
	fd = fxt_msg_connect(sockpath);
	if (fd < 0) {
		errno = -fd;
		fail("connect after READY=1");
	}
	close(fd);
	if (kill(pid, SIGTERM) < 0)
		fail("kill");
	wait_for(sock, "STOPPING=1");
	if (waitpid(pid, &status, 0) != pid)
		fail("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "notify-test: FAIL: fxtraced exit status %#x\n", status);
		return 1;
	}
	if (access(sockpath, F_OK) == 0) {
		fprintf(stderr, "notify-test: FAIL: %s left behind\n", sockpath);
		return 1;
	}
	unlink(notify);
	snprintf(notify, sizeof(notify), "%s/run", dir);
	rmdir(notify);
	rmdir(dir);
	printf("notify-test: ok\n");
	return 0;
}
