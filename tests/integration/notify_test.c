// SPDX-License-Identifier: GPL-2.0-only
/*
 * fxtraced and the service manager: READY=1 on a NOTIFY_SOCKET we own,
 * sent only once the socket accepts connections; WATCHDOG=1 keep-alives
 * when WATCHDOG_USEC asks for them; a STATUS= that says the state (idle:
 * providers and the last archive; tracing: output, trace id, kernel,
 * providers, bytes); STOPPING=1 and a clean exit (socket removed) on
 * SIGTERM.
 * Usage: notify-test FXTRACED TRACECTL PROTO_PROVIDER
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

/* Blocks until a datagram containing want (and also, if given) arrives. */
static void wait_for2(int sock, const char *want, const char *also)
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
		if (strstr(buf, want) && (!also || strstr(buf, also)))
			return;
	}
}

static void wait_for(int sock, const char *want)
{
	wait_for2(sock, want, NULL);
}

static void run(const char *what)
{
	if (system(what) != 0) {
		fprintf(stderr, "notify-test: FAIL: %s\n", what);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/fxt-notify-XXXXXX", notify[256], sockpath[256];
	char cmd[1024], want[512];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sock, status, fd;
	pid_t pid, provider;

	if (argc != 4) {
		fprintf(stderr, "usage: notify-test FXTRACED TRACECTL PROTO_PROVIDER\n");
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

	setenv("FXTRACE_SOCKET", sockpath, 1);
	pid = fork();
	if (pid == 0) {
		char self[32];

		snprintf(self, sizeof(self), "%d", (int)getpid());
		setenv("NOTIFY_SOCKET", notify, 1);
		setenv("WATCHDOG_PID", self, 1);
		setenv("WATCHDOG_USEC", "400000", 1);
		execl(argv[1], argv[1], "--socket", sockpath, "--allow-uid",
		      "0", (char *)NULL);
		_exit(127);
	}
	wait_for(sock, "READY=1");
	wait_for(sock, "STATUS=Idle, 0 provider(s) connected");
	/* The loop keeps the watchdog fed, twice to be sure it repeats. */
	wait_for(sock, "WATCHDOG=1");
	wait_for(sock, "WATCHDOG=1");
	/* Ready means connectable, and the directory was created for it. */
	fd = fxt_msg_connect(sockpath);
	if (fd < 0) {
		errno = -fd;
		fail("connect after READY=1");
	}
	close(fd);

	provider = fork();
	if (provider == 0) {
		execl(argv[3], argv[3], "--name", "notified", "--events", "3",
		      (char *)NULL);
		_exit(127);
	}
	wait_for(sock, "STATUS=Idle, 1 provider(s) connected");
	snprintf(cmd, sizeof(cmd), "%s start -o %s/t.fxt --kernel=off >/dev/null",
		 argv[2], dir);
	run(cmd);
	snprintf(want, sizeof(want), "STATUS=Tracing to %s/t.fxt (trace ", dir);
	/* The byte count depends on the host record (its names): not checked. */
	wait_for2(sock, want, "kernel off): 1 provider(s) connected, ");
	snprintf(cmd, sizeof(cmd), "%s stop >/dev/null", argv[2]);
	run(cmd);
	snprintf(want, sizeof(want),
		 "STATUS=Idle, 1 provider(s) connected; last trace written to %s/t.fxt",
		 dir);
	wait_for(sock, want);
	kill(provider, SIGKILL);
	waitpid(provider, NULL, 0);
	snprintf(cmd, sizeof(cmd), "%s/t.fxt", dir);
	unlink(cmd);

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
