// SPDX-License-Identifier: GPL-2.0-only
/*
 * A non-PIE program built with -O2 -g whose two functions are inlined
 * into a third (always_inline: the test is of DWARF, not of the
 * compiler's judgement; it checks that neither has a symbol). Each
 * inlined body holds a global label on a nop, so the test knows an
 * address in each without reading DWARF itself.
 */
#include <stdio.h>

static inline __attribute__((always_inline)) int fixture_inner(int x)
{
	__asm__ volatile(".globl fixture_in_inner\nfixture_in_inner:\n\tnop" ::
				 : "memory");
	return x * 3;
}

static inline __attribute__((always_inline)) int fixture_middle(int x)
{
	__asm__ volatile(
		".globl fixture_in_middle\nfixture_in_middle:\n\tnop" ::
			: "memory");
	return fixture_inner(x + 1) + 1;
}

__attribute__((noinline)) int fixture_outer(int x);
__attribute__((noinline)) int fixture_outer(int x)
{
	return fixture_middle(x) * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", fixture_outer(argc));
	return 0;
}
