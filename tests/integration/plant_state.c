// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writes a trace state (trace-state, as fxtraced keeps it for a restart)
 * naming any file, as someone planting one would:
 *   plant-state DIR OUTPUT TEMP_NAME OWNER FINISH_MARK
 * a oneshot trace without kernel capture of uid OWNER, writing OUTPUT
 * through the hidden file TEMP_NAME beside it (its device and inode
 * taken from that file now), FINISH_MARK its finish mark (0: none).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace_state.h"

static int fail(const char *what, int err)
{
	fprintf(stderr, "plant-state: %s: %s\n", what, strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct trace_state st = { 0 };
	char archive[FXT_CTL_PATH_MAX + FXT_CTL_NAME_MAX];
	const char *base;
	struct timespec now;
	struct stat sb;
	int dir_fd, r;

	if (argc != 6) {
		fprintf(stderr, "usage: plant-state DIR OUTPUT TEMP_NAME OWNER FINISH_MARK\n");
		return 2;
	}
	base = strrchr(argv[2], '/');
	if (argv[2][0] != '/' || strlen(argv[2]) >= sizeof(st.req.output) ||
	    strlen(argv[3]) >= sizeof(st.req.temp_name))
		return fail(argv[2], EINVAL);
	snprintf(archive, sizeof(archive), "%.*s%s", (int)(base + 1 - argv[2]),
		 argv[2], argv[3]);
	if (stat(archive, &sb) < 0)
		return fail(archive, errno);
	st.req.mode = FXT_BUFFERING_ONESHOT;
	st.req.kernel = FXT_CTL_KERNEL_OFF;
	strcpy(st.req.output, argv[2]);
	strcpy(st.req.temp_name, argv[3]);
	memcpy(st.trace_id, "plantedplanted!!", sizeof(st.trace_id));
	st.owner = (uint32_t)strtoul(argv[4], NULL, 10);
	st.next_provider_id = 1;
	clock_gettime(CLOCK_BOOTTIME, &now);
	st.started_ns = (uint64_t)now.tv_sec * 1000000000u + now.tv_nsec;
	st.archive_dev = sb.st_dev;
	st.archive_ino = sb.st_ino;
	st.finish_mark = strtoull(argv[5], NULL, 10);
	dir_fd = open(argv[1], O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (dir_fd < 0)
		return fail(argv[1], errno);
	r = trace_state_save(dir_fd, &st, NULL, 0);
	if (r < 0)
		return fail("writing the state", -r);
	return 0;
}
