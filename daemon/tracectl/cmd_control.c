// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>

#include "tracectl.h"

static int unavailable(const char *name)
{
	fprintf(stderr, "tracectl %s: not available in this build\n", name);
	return TRACECTL_EXIT_FAIL;
}

int cmd_start(int argc, char **argv)
{
	return unavailable("start");
}

int cmd_stop(int argc, char **argv)
{
	return unavailable("stop");
}

int cmd_status(int argc, char **argv)
{
	return unavailable("status");
}

int cmd_record(int argc, char **argv)
{
	return unavailable("record");
}
