// SPDX-License-Identifier: GPL-2.0-only
/*
 * mem-workload grow TOTAL_MB STEP_MB: maps and touches TOTAL_MB of
 * anonymous memory, STEP_MB at a time, a short pause after each step so
 * that each is seen on its own; prints "pid=PID" first and
 * "grown=TOTAL_MB" at the end, then exits.
 * mem-workload read PATH: reads PATH through the page cache once; prints
 * "pid=PID" and "read=BYTES".
 * mem-workload hog: touches anonymous memory 16 MiB at a time until it is
 * killed (the OOM killer, in a memory cgroup); prints "pid=PID".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MIB (1ul << 20)

static int usage(const char *argv0)
{
	fprintf(stderr, "usage: %s grow TOTAL_MB STEP_MB | read PATH | hog\n",
		argv0);
	return 2;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int touch(size_t bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	memset(p, 0x5a, bytes);
	return 0;
}

static int grow(long total_mb, long step_mb)
{
	long done;

	for (done = 0; done < total_mb; done += step_mb) {
		if (touch((size_t)step_mb * MIB))
			return 1;
		pause_ms(20);
	}
	printf("grown=%ld\n", total_mb);
	return 0;
}

static int read_file(const char *path)
{
	static char buf[1 << 16];
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	printf("read=%lld\n", total);
	return n < 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage(argv[0]);
	printf("pid=%d\n", getpid());
	fflush(stdout);
	if (argc == 4 && !strcmp(argv[1], "grow")) {
		long total = atol(argv[2]), step = atol(argv[3]);

		if (total <= 0 || step <= 0)
			return usage(argv[0]);
		return grow(total, step);
	}
	if (argc == 3 && !strcmp(argv[1], "read"))
		return read_file(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "hog")) {
		for (;;)
			if (touch(16 * MIB))
				return 1;
	}
	return usage(argv[0]);
}
