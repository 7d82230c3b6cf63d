// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostile-burner: what a hostile local user runs while root records
 * stacks (stacks_hostile.sh). Built without a build id, twice: the
 * function it burns in is BURN_NAME (a name the test looks for in the
 * archive).
 *
 * hostile-burner SECONDS [--plant ADDR] [--swap DIR LINK]
 *     --swap: first renames DIR (holding this program) away and puts a
 *     symlink to LINK in its place, so that the path the kernel gave for
 *     the mapping now leads somewhere else; prints "ready"; then burns
 *     in BURN_NAME() for SECONDS. --plant: while it burns, its frame
 *     pointer points at a frame it made, whose return address is ADDR (a
 *     kernel address planted on its own stack).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void BURN_NAME(double seconds, uint64_t planted);

static uint64_t fake_frame[2];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A million rounds with the frame pointer at fake_frame. */
static void spin_planted(void)
{
	uint64_t n = 1000000;

	__asm__ volatile("mov %%rbp, %%r12\n\t"
			 "mov %1, %%rbp\n\t"
			 "1: imul %%rax, %%rax\n\t"
			 "dec %0\n\t"
			 "jnz 1b\n\t"
			 "mov %%r12, %%rbp"
			 : "+r"(n)
			 : "r"(fake_frame)
			 : "rax", "r12", "memory", "cc");
}

__attribute__((noinline)) void BURN_NAME(double seconds, uint64_t planted)
{
	volatile uint64_t x = 1;
	double until = now() + seconds;
	int i;

	fake_frame[1] = planted;
	while (now() < until)
		for (i = 0; i < 1000; i++) {
			if (planted)
				spin_planted();
			else
				x = x * 6364136223846793005ull + 1;
		}
}

int main(int argc, char **argv)
{
	uint64_t planted = 0;
	int i;

	if (argc < 2)
		return 2;
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--plant") && i + 1 < argc) {
			planted = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--swap") && i + 2 < argc) {
			char away[4096];

			snprintf(away, sizeof(away), "%s.away", argv[i + 1]);
			if (rename(argv[i + 1], away) ||
			    symlink(argv[i + 2], argv[i + 1]))
				return perror("swap"), 1;
			i += 2;
		} else {
			return 2;
		}
	}
	printf("ready\n");
	fflush(stdout);
	BURN_NAME(atof(argv[1]), planted);
	return 0;
}
