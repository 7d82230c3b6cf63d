// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stands in for journald's native socket: binds a datagram socket at PATH
 * and prints each message it receives (the journal's "FIELD=value" lines)
 * followed by a line "--".
 * Usage: journal-sink PATH
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static char buf[1 << 16];
	int sock;

	if (argc != 2 || strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: journal-sink PATH\n");
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	sock = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (sock < 0 || bind(sock, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("journal-sink: bind");
		return 1;
	}
	for (;;) {
		ssize_t n = recv(sock, buf, sizeof(buf), 0);

		if (n < 0)
			continue;
		fwrite(buf, 1, (size_t)n, stdout);
		fputs("--\n", stdout);
		fflush(stdout);
	}
}
