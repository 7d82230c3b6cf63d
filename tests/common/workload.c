// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>

#include "workload.h"

int workload_syscalls(long rounds)
{
	long i;

	for (i = 0; i < rounds; i++)
		(void)syscall(SYS_getppid);
	return 0;
}

void workload_loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP;
		(void)ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

int workload_udp(long rounds)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	char byte = 0;
	int fd, err = 0;
	long i;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &len))
		err = -errno;
	for (i = 0; i < rounds && !err; i++)
		if (sendto(fd, &byte, 1, 0, (struct sockaddr *)&a, len) != 1 ||
		    recv(fd, &byte, 1, 0) != 1)
			err = -errno;
	close(fd);
	return err;
}
