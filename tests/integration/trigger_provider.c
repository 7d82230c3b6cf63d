// SPDX-License-Identifier: GPL-2.0-only
/*
 * A provider that runs the steps of its command line in order, for the
 * trigger test:
 *   instant:N    an instant "mark" with argument n = N
 *   trigger:NAME fxt_trigger(NAME), which must return 0
 *   wait:FILE    until FILE exists
 *   touch:FILE   creates FILE
 *   sleep:MS     sleeps MS milliseconds
 * Exits 1 on a bad step or a failing trigger.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <fxt/provider.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int step(const char *s)
{
	const char *arg = strchr(s, ':');
	int fd, r;

	if (!arg)
		return -EINVAL;
	arg++;
	if (!strncmp(s, "instant:", 8)) {
		TRACE_INSTANT("test", "mark", TRACE_SCOPE_THREAD,
			      TRACE_ARG_I64("n", atoll(arg)));
	} else if (!strncmp(s, "trigger:", 8)) {
		r = fxt_trigger(arg);
		if (r < 0)
			return r;
	} else if (!strncmp(s, "wait:", 5)) {
		while (access(arg, F_OK) < 0)
			sleep_ms(10);
	} else if (!strncmp(s, "touch:", 6)) {
		fd = open(arg, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			return -errno;
		close(fd);
	} else if (!strncmp(s, "sleep:", 6)) {
		sleep_ms(atol(arg));
	} else {
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i, r;

	for (i = 1; i < argc; i++) {
		r = step(argv[i]);
		if (r < 0) {
			fprintf(stderr, "trigger-provider: %s: %s\n", argv[i],
				strerror(-r));
			return 1;
		}
	}
	return 0;
}
