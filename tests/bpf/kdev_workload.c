// SPDX-License-Identifier: GPL-2.0-only
/*
 * kdev-workload faults PAGES: touches PAGES fresh pages and prints
 * "tid=TID pid=PID base=0xADDR pages=PAGES".
 * kdev-workload block PATH COUNT BYTES: COUNT O_DIRECT writes of BYTES
 * to PATH (a block device), then fdatasync; prints "writes=COUNT".
 * kdev-workload latency ROUNDS HOG_MS: kdev_wakeup_latency(); prints
 * "wakee=TID max_wait_us=US".
 * kdev-workload rename NAME: kdev_rename_thread(); prints "renamed=TID".
 * kdev-workload nested SYSCALLS: kdev_nested_wakeups(); prints
 * "syscalls=SYSCALLS".
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kdev_work.h"

static int usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s faults PAGES | block PATH COUNT BYTES | latency ROUNDS HOG_MS | rename NAME | nested SYSCALLS\n",
		argv0);
	return 2;
}

static int rename_thread(const char *name)
{
	int tid, err = kdev_rename_thread(name, &tid);

	if (err) {
		fprintf(stderr, "rename: %s\n", strerror(-err));
		return 1;
	}
	printf("renamed=%d\n", tid);
	return 0;
}

static int nested(long syscalls)
{
	int err = kdev_nested_wakeups((unsigned int)syscalls);

	if (err) {
		fprintf(stderr, "nested: %s\n", strerror(-err));
		return 1;
	}
	printf("syscalls=%ld\n", syscalls);
	return 0;
}

int main(int argc, char **argv)
{
	uintptr_t base;
	int err;

	if (argc == 3 && !strcmp(argv[1], "faults")) {
		long pages = atol(argv[2]);

		if (pages <= 0)
			return usage(argv[0]);
		err = kdev_touch_pages((size_t)pages, &base);
		if (err) {
			fprintf(stderr, "faults: %s\n", strerror(-err));
			return 1;
		}
		printf("tid=%d pid=%d base=0x%lx pages=%ld\n", gettid(),
		       getpid(), (unsigned long)base, pages);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "block")) {
		long count = atol(argv[3]), bytes = atol(argv[4]);

		if (count <= 0 || bytes <= 0 || bytes % 4096)
			return usage(argv[0]);
		err = kdev_direct_writes(argv[2], (unsigned int)count,
					 (size_t)bytes);
		if (err) {
			fprintf(stderr, "block: %s: %s\n", argv[2],
				strerror(-err));
			return 1;
		}
		printf("writes=%ld\n", count);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "latency")) {
		long rounds = atol(argv[2]), hog_ms = atol(argv[3]);
		uint64_t max_wait_us;
		int wakee;

		if (rounds <= 0 || hog_ms < 0)
			return usage(argv[0]);
		err = kdev_wakeup_latency((unsigned int)rounds,
					  (unsigned int)hog_ms, &wakee,
					  &max_wait_us);
		if (err) {
			fprintf(stderr, "latency: %s\n", strerror(-err));
			return 1;
		}
		printf("wakee=%d max_wait_us=%llu\n", wakee,
		       (unsigned long long)max_wait_us);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "rename"))
		return rename_thread(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "nested"))
		return atol(argv[2]) > 0 ? nested(atol(argv[2])) :
					   usage(argv[0]);
	return usage(argv[0]);
}
