// SPDX-License-Identifier: GPL-2.0-only
/*
 * A program built -O2 -fomit-frame-pointer (as distributions build), for
 * the walk test: main -> level_a -> level_b -> level_c -> read() of a
 * pipe that never gets data, through Debian's libc (no frame pointers
 * either). It prints where its functions start ("level_a=0x...") and
 * "blocked" on stdout just before it reads; the test then stops it.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* crt1.o's entry point: the outermost frame of the main thread. */
extern char _start[];

static int fds[2];
static volatile uint64_t sink;

/* Each does work after its call, so that the call is not a jump. */
__attribute__((noinline)) static uint64_t level_c(uint64_t x)
{
	char buf[64];
	volatile char local[300]; /* a frame of its own, CFA far from sp */

	local[x % sizeof(local)] = (char)x;
	printf("blocked\n");
	fflush(stdout);
	return (uint64_t)read(fds[0], buf, sizeof(buf)) + local[7] + x;
}

__attribute__((noinline)) static uint64_t level_b(uint64_t x)
{
	return level_c(x * 3) + sink;
}

__attribute__((noinline)) static uint64_t level_a(uint64_t x)
{
	return level_b(x + 5) * 2 + sink;
}

int main(void)
{
	if (pipe(fds))
		return 1;
	printf("level_a=%p\nlevel_b=%p\nlevel_c=%p\nmain=%p\n_start=%p\n",
	       (void *)level_a, (void *)level_b, (void *)level_c,
	       (void *)main, (void *)_start);
	sink = level_a(1);
	return (int)sink;
}
