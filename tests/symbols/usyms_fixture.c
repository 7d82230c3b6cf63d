// SPDX-License-Identifier: GPL-2.0-only
/* A non-PIE program whose addresses are not its file offsets: test_usyms
 * finds its functions with nm and resolves them back. */
#include <stdio.h>

__attribute__((noinline)) static int fixture_alpha(int x)
{
	return x * 7;
}

__attribute__((noinline)) int fixture_beta(int x);
__attribute__((noinline)) int fixture_beta(int x)
{
	return fixture_alpha(x) + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", fixture_beta(argc));
	return 0;
}
