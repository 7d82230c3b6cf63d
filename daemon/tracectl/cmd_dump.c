// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "tracectl.h"

int cmd_dump(int argc, char **argv)
{
	fprintf(stderr, "tracectl dump: not available in this build\n");
	return TRACECTL_EXIT_FAIL;
}
