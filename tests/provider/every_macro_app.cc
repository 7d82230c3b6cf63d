// SPDX-License-Identifier: GPL-2.0-only
/*
 * every-macro-app [ROUNDS]: every <fxt/provider.h> macro, with literal
 * names and with TRACE_DYN names (every_macro.cc), ROUNDS times (default
 * 5); prints how many event records it wrote, for a test that runs it
 * under tracectl record and counts them in the archive.
 */
#include <cstdio>
#include <cstdlib>

#include <fxt/provider.h>

#include "every_macro.h"

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
	uint64_t at = fxt_now() - 1000000;
	unsigned int events = 0;

	for (int i = 0; i < rounds; i++)
		events += every_macro_write("peer-7", 7, at);
	std::printf("every-macro-app: %u events\n", events);
	return 0;
}
