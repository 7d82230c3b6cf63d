// SPDX-License-Identifier: GPL-2.0-only
/* The options of tracectl start and record: see start_options.h. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <fxt/fxt_msg.h>

#include "archive_output.h"
#include "parse.h"
#include "start_options.h"
#include "tracectl.h"
#include "usage_error.h"

static const char *const mode_names[] = { "oneshot", "circular", "streaming" };
static const char *const kernel_names[] = { "auto", "kmod", "bpf", "off" };

static int lookup(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

const char *start_mode_name(unsigned int mode)
{
	return mode < 3 ? mode_names[mode] : "?";
}

void start_options_usage(FILE *out, const char *cmd)
{
	fprintf(out,
		"Usage: tracectl %s [OPTIONS]%s\n"
		"  -o, --output FILE      archive to write (default trace.fxt); it\n"
		"                         appears at stop, a file there is kept\n"
		"                         as FILE.old\n"
		"  -c, --categories LIST  comma-separated categories, 'net*' a prefix\n"
		"                         (default: every provider category, and\n"
		"                         kernel:sched,kernel:proc for the kernel);\n"
		"                         kernel categories: kernel:sched, kernel:proc,\n"
		"                         kernel:irq, kernel:syscall, kernel:power,\n"
		"                         kernel:block, kernel:fault, kernel:mem\n"
		"  -b, --buffer-size SIZE per provider, e.g. 256K, 4M (default 1M)\n"
		"  -m, --mode MODE        oneshot (default), circular, streaming\n"
		"%s"
		"  -k, --kernel=BACKEND   kernel capture: auto (default), kmod, bpf, off\n"
		"  -p, --pid PID          kernel:syscall only for process PID (repeat for\n"
		"                         up to 4); default every process\n"
		"      --kernel-buffer-size SIZE\n"
		"                         per CPU, a power of two, e.g. 1M (default 2M)\n"
		"      --memory-budget SIZE\n"
		"                         bound the trace's buffers (every provider's\n"
		"                         and the kernel rings) to SIZE, e.g. 64M;\n"
		"                         sizes not given come from it, a provider\n"
		"                         beyond it gets no buffer\n"
		"      --name NAME        a name for status and the journal\n"
		"      --trigger NAME     circular: a provider's TRACE_TRIGGER(\"NAME\")\n"
		"                         writes a snapshot to DIR/NAME-<UTC time>.fxt\n"
		"                         (repeat, or NAME,NAME; up to 8 names)\n"
		"      --snapshot-dir DIR where trigger snapshots go, with your rights:\n"
		"                         yours or root's, not writable by others\n"
		"      --snapshot-max-bytes SIZE\n"
		"                         keep the snapshots within SIZE (e.g. 512M;\n"
		"                         default auto: the lesser of 1G and 10%% of\n"
		"                         DIR's file system): the oldest are removed\n"
		"      --snapshot-max-files N\n"
		"                         and at most N of them (default 100, up to 256)\n"
		"      --trigger-delay T  take the snapshot T after the trigger, so\n"
		"                         what follows is in it too (default 0)\n"
		"      --trigger-limit N  snapshots per trigger per second (default 1);\n"
		"                         more are counted as suppressed\n"
		"      --trigger-latency T\n"
		"                         circular, kernel:sched: a thread that waits\n"
		"                         longer than T (e.g. 10ms) from its wakeup for\n"
		"                         a CPU writes a snapshot to DIR/latency-<UTC\n"
		"                         time>.fxt (measured in the kernel); off: none\n"
		"Talks to fxtraced at $%s (default %s).\n\n",
		cmd, strcmp(cmd, "record") ? "" : " -- COMMAND [ARGS...]",
		strcmp(cmd, "record") ?
			"  -d, --duration T       stop after T (e.g. 10s, 500ms)\n" :
			"",
		FXT_SOCKET_ENV, FXT_MANAGER_SOCKET);
	if (!strcmp(cmd, "record"))
		fprintf(out,
			"Runs COMMAND in the trace, prints per provider of the command\n"
			"the records written and dropped, exits with its status.\n\n"
			"Examples:\n"
			"  sudo tracectl record -o trace.fxt -- ./my-app --flag\n"
			"  sudo tracectl record --mode streaming --kernel=off -- make -j2\n");
	else
		fprintf(out,
			"Examples:\n"
			"  sudo tracectl start -o trace.fxt --categories net,gfx\n"
			"  sudo tracectl start --mode circular --buffer-size 4M --duration 30s\n"
			"  sudo tracectl start --mode streaming --kernel=bpf -o /var/tmp/t.fxt\n"
			"  sudo tracectl start --categories kernel:sched,kernel:irq,kernel:syscall --pid 1234\n"
			"  sudo tracectl start --mode circular --trigger jank --snapshot-dir /var/lib/fxtrace/snapshots --trigger-delay 200ms\n"
			"  sudo tracectl start --name flight-recorder --mode circular --memory-budget 64M \\\n"
			"      --trigger jank,crash --snapshot-dir /var/lib/fxtrace/snapshots --snapshot-max-bytes 1G\n"
			"  sudo tracectl start --mode circular --trigger-latency 10ms --snapshot-dir /var/lib/fxtrace/snapshots\n");
}

#define START_OPTSTRING "+o:c:b:m:d:k:p:h"

int start_options_parse(const char *cmd, int argc, char **argv,
			struct start_options *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "categories", required_argument, NULL, 'c' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "mode", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "kernel-buffer-size", required_argument, NULL, 'K' },
		{ "pid", required_argument, NULL, 'p' },
		START_TRIGGER_OPTIONS,
		{ "memory-budget", required_argument, NULL, 'M' },
		{ "name", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		USAGE_VERSION_LONGOPT,
		{}
	};
	const char *output = "trace.fxt";
	unsigned int npids = 0;
	uint64_t value;
	int c, v;

	fxt_msg_init(&o->req, FXT_MSG_CTL_START, sizeof(o->req));
	start_triggers_init(&o->triggers);
	/* "+": stop at the first non-option, the command of record. */
	optind = 1;
	while ((c = getopt_long(argc, argv, START_OPTSTRING, longopts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'c':
			if (strlen(optarg) >= sizeof(o->req.categories)) {
				fprintf(stderr, "tracectl %s: category list longer than %u bytes\n",
					cmd, FXT_CATEGORIES_MAX - 1);
				return -EINVAL;
			}
			strcpy(o->req.categories, optarg);
			break;
		case 'b':
			if (parse_size(optarg, &value) < 0 || value < 4096) {
				fprintf(stderr, "tracectl %s: --buffer-size %s: give a size of at least 4K, e.g. 256K or 4M\n",
					cmd, optarg);
				return -EINVAL;
			}
			o->req.buffer_size = value;
			break;
		case 'm':
			v = lookup(mode_names, 3, optarg);
			if (v < 0) {
				fprintf(stderr, "tracectl %s: --mode %s: use oneshot, circular or streaming\n",
					cmd, optarg);
				return -EINVAL;
			}
			o->req.mode = (__u32)v;
			break;
		case 'd':
			if (parse_duration_ns(optarg, &value) < 0) {
				fprintf(stderr, "tracectl %s: --duration %s: give e.g. 10s, 500ms or 2m\n",
					cmd, optarg);
				return -EINVAL;
			}
			o->req.duration_ns = value;
			break;
		case 'k':
			v = lookup(kernel_names, 4, optarg);
			if (v < 0) {
				fprintf(stderr, "tracectl %s: --kernel=%s: use auto, kmod, bpf or off\n",
					cmd, optarg);
				return -EINVAL;
			}
			o->req.kernel = (__u32)v;
			break;
		case 'K':
			if (parse_size(optarg, &value) < 0 || value < 4096 ||
			    (value & (value - 1))) {
				fprintf(stderr, "tracectl %s: --kernel-buffer-size %s: give a power of two of at least 4K, e.g. 64K or 2M\n",
					cmd, optarg);
				return -EINVAL;
			}
			o->req.kernel_buffer_size = value;
			break;
		case 'p':
			if (parse_count(optarg, INT32_MAX, &value) < 0) {
				fprintf(stderr, "tracectl %s: --pid %s: give a process id, e.g. --pid 1234\n",
					cmd, optarg);
				return -EINVAL;
			}
			if (npids == FXT_KSYSCALL_PIDS_MAX) {
				fprintf(stderr, "tracectl %s: --pid: at most %u processes\n",
					cmd, FXT_KSYSCALL_PIDS_MAX);
				return -EINVAL;
			}
			o->req.kernel_syscall_pids[npids++] = (__u32)value;
			break;
		case 'M':
			if (parse_size(optarg, &value) < 0 || value < 4096) {
				fprintf(stderr, "tracectl %s: --memory-budget %s: give bytes, at least 4K, e.g. 67108864 or 64M\n",
					cmd, optarg);
				return -EINVAL;
			}
			o->req.memory_budget = value;
			break;
		case 'N':
			if (!fxt_ctl_trigger_name_valid(optarg)) {
				fprintf(stderr, "tracectl %s: --name %s: a name is 1 to %u of A-Z a-z 0-9 _ . - (not starting with '.'), e.g. --name flight-recorder\n",
					cmd, optarg, FXT_CTL_TRACE_NAME_MAX - 1);
				return -EINVAL;
			}
			strcpy(o->req.name, optarg);
			break;
		case 'h':
			o->help = true;
			return 0;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			v = start_triggers_option(cmd, c, optarg, &o->triggers);
			if (v < 0)
				return -EINVAL;
			if (v > 0) {
				usage_bad_option(argv[0], argv, START_OPTSTRING);
				return -EINVAL;
			}
		}
	}
	if (start_triggers_check(cmd, &o->triggers, o->req.mode) < 0)
		return -EINVAL;
	if (o->triggers.dir &&
	    archive_output_resolve(o->triggers.dir, o->triggers.req.dir,
				   sizeof(o->triggers.req.dir)) < 0) {
		fprintf(stderr, "tracectl %s: cannot resolve %s to an absolute path\n",
			cmd, o->triggers.dir);
		return -EINVAL;
	}
	if (archive_output_resolve(output, o->req.output,
				   sizeof(o->req.output)) < 0) {
		fprintf(stderr, "tracectl %s: cannot resolve %s to an absolute path\n",
			cmd, output);
		return -EINVAL;
	}
	return 0;
}

