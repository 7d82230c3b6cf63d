// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl snapshot: what a running circular trace holds now, written to
 * an archive of its own; the trace goes on.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fxt/fxt_msg.h>

#include "archive_output.h"
#include "cleanup.h"
#include "control_client.h"
#include "tracectl.h"
#include "usage_error.h"

static void snapshot_usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl snapshot [-o FILE]\n"
		"Writes what the running circular trace holds now (every provider's\n"
		"buffer and the kernel's per-CPU rings) to FILE, a complete archive of\n"
		"its own; the trace goes on and the providers never wait. A record\n"
		"overwritten while it is copied is left out. FILE (default\n"
		"snapshot-DATE-TIME.fxt) is written with your own rights; a file\n"
		"there is kept as FILE.old.\n\n"
		"  -o, --output FILE   where the snapshot goes\n"
		"  -h, --help          this text\n\n"
		"Examples:\n"
		"  sudo tracectl start --mode circular --kernel=bpf\n"
		"  sudo tracectl snapshot -o jank.fxt\n"
		"  tracectl dump --strict jank.fxt | tail\n");
}

static void default_snapshot_name(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) ||
	    !strftime(buf, len, "snapshot-%Y%m%d-%H%M%S.fxt", &tm))
		snprintf(buf, len, "snapshot.fxt");
}

static int do_snapshot(const char *cmd, const char *output)
{
	struct fxt_ctl_snapshot req;
	char temp[PATH_MAX];
	_cleanup_close_ int fd = -1;
	struct control_reply rep;
	int error, placed, r;

	fxt_msg_init(&req, FXT_MSG_CTL_SNAPSHOT, sizeof(req));
	r = archive_output_resolve(output, req.output, sizeof(req.output));
	if (r >= 0)
		r = fd = archive_output_create(req.output, req.temp_name,
					       sizeof(req.temp_name));
	if (r < 0) {
		fprintf(stderr, "tracectl %s: cannot create %s: %s\n", cmd,
			output, r == -EINVAL ? "not a regular file" :
			strerror(-r));
		return TRACECTL_EXIT_FAIL;
	}
	archive_output_temp_path(req.output, req.temp_name, temp, sizeof(temp));
	r = control_exchange(cmd, &req, sizeof(req), fd, &rep);
	free(rep.providers);
	if (r < 0 || control_report(cmd, &rep)) {
		archive_output_discard(temp, fd);
		return TRACECTL_EXIT_FAIL;
	}
	error = rep.result.archive_error;
	placed = archive_output_publish(cmd, &rep.result, error);
	if (error && error != -ENOENT)
		fprintf(stderr, "tracectl %s: the snapshot is incomplete: %s\n",
			cmd, strerror(-error));
	if (!placed)
		printf("Snapshot written to %s%s\n", rep.result.output,
		       error ? " (incomplete)" : "");
	return error || placed ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		USAGE_VERSION_LONGOPT,
		{}
	};
	char name[64];
	const char *output = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'h':
			snapshot_usage(stdout);
			return TRACECTL_EXIT_OK;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			usage_bad_option(argv[0], argv, "o:h");
			return TRACECTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return tracectl_stray(argv[0], argv[optind]);
	if (!output) {
		default_snapshot_name(name, sizeof(name));
		output = name;
	}
	return do_snapshot("snapshot", output);
}
