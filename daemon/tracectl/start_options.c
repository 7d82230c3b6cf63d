// SPDX-License-Identifier: GPL-2.0-only
/* The options of tracectl start and record: see start_options.h. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <fxt/fxt_msg.h>
#include <fxt/fxt_sched_uapi.h>

#include "archive_output.h"
#include "parse.h"
#include "start_options.h"
#include "tracectl.h"
#include "usage_error.h"

/*
 * record's buffers: a command's whole run is wanted, written while it
 * runs; halves of 2M take a Python script traced call by call (a million
 * records a second) without a drop.
 */
#define RECORD_BUFFER_SIZE (4u << 20)

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

/* The end of start's and record's --help: what record does, examples. */
static void usage_examples(FILE *out, const char *cmd)
{
	if (!strcmp(cmd, "record"))
		fprintf(out,
			"Runs COMMAND in the trace, prints per provider of the command\n"
			"the records written and dropped, exits with its status.\n"
			"Streaming by default: the archive is written while COMMAND\n"
			"runs and grows with it; --mode oneshot keeps its first\n"
			"--buffer-size of records per provider.\n\n"
			"Examples:\n"
			"  sudo tracectl record -o trace.fxt -- ./my-app --flag\n"
			"  sudo tracectl record -o py.fxt -- python3 -m fxtrace app.py\n"
			"  sudo tracectl record --mode oneshot --kernel=off -- make -j2\n");
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
		"                         kernel categories (kernel:* all of them):\n"
		"                         kernel:sched, kernel:proc, kernel:irq,\n"
		"                         kernel:syscall, kernel:power, kernel:block,\n"
		"                         kernel:fault, kernel:mem, kernel:sample,\n"
		"                         kernel:offcpu%s\n"
		"  -b, --buffer-size SIZE per provider, e.g. 256K, 4M (default %s)\n"
		"  -m, --mode MODE        %s\n"
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
		"      --sample-rate HZ   kernel:sample: stack samples per second\n"
		"                         per CPU, 1 to 10000 (default 499)\n"
		"      --offcpu-min T     kernel:offcpu: only blocks of at least T,\n"
		"                         e.g. 100us (default 0: every block)\n"
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
			"" :
			";\n                         record adds kernel:proc, and\n"
			"                         kernel:sched to kernel:sample or\n"
			"                         kernel:offcpu",
		strcmp(cmd, "record") ? "1M" : "4M",
		strcmp(cmd, "record") ?
			"oneshot (default), circular, streaming" :
			"streaming (default), oneshot, circular",
		strcmp(cmd, "record") ?
			"  -d, --duration T       stop after T (e.g. 10s, 500ms)\n" :
			"",
		FXT_SOCKET_ENV, FXT_MANAGER_SOCKET);
	usage_examples(out, cmd);
}

/* One option of start and record. */
struct start_option {
	const char *name;	/* --name */
	char short_name;	/* -x too, or 0 */
	int code;		/* getopt_long's value when short_name is 0 */
	bool takes_arg;
	/* Takes arg (NULL for a flag): 0, or -EINVAL after saying why. */
	int (*set)(const struct start_option *opt, const char *cmd,
		   const char *arg, struct start_options *o);
	const char *hint;	/* what to give, after "--name VALUE: " */
};

/*
 * getopt_long's values of start's own long-only options: past a char, so
 * that usage_bad_option() says a missing value as such (not as an unknown
 * short option); the triggers' are START_OPT_* of start_triggers.h.
 */
enum {
	OPT_KERNEL_BUFFER_SIZE = 0x200,
	OPT_MEMORY_BUDGET,
	OPT_NAME,
	OPT_SAMPLE_RATE,
	OPT_OFFCPU_MIN,
};

static int bad_value(const struct start_option *opt, const char *cmd,
		     const char *arg)
{
	return tracectl_bad_value(cmd, opt->name, arg, "%s", opt->hint);
}

static int set_output(const struct start_option *opt, const char *cmd,
		      const char *arg, struct start_options *o)
{
	o->output = arg;
	return 0;
}

static int set_categories(const struct start_option *opt, const char *cmd,
			  const char *arg, struct start_options *o)
{
	if (strlen(arg) >= sizeof(o->req.categories)) {
		fprintf(stderr, "tracectl %s: category list longer than %u bytes\n",
			cmd, FXT_CATEGORIES_MAX - 1);
		return -EINVAL;
	}
	strcpy(o->req.categories, arg);
	return 0;
}

/* A size of at least 4K (a power of two where ring) into *field. */
static int set_bytes(const struct start_option *opt, const char *cmd,
		     const char *arg, bool ring, __u64 *field)
{
	uint64_t value;

	if (parse_size(arg, &value) < 0 || value < 4096 ||
	    (ring && (value & (value - 1))))
		return bad_value(opt, cmd, arg);
	*field = value;
	return 0;
}

static int set_buffer_size(const struct start_option *opt, const char *cmd,
			   const char *arg, struct start_options *o)
{
	return set_bytes(opt, cmd, arg, false, &o->req.buffer_size);
}

static int set_kernel_buffer_size(const struct start_option *opt,
				  const char *cmd, const char *arg,
				  struct start_options *o)
{
	return set_bytes(opt, cmd, arg, true, &o->req.kernel_buffer_size);
}

static int set_memory_budget(const struct start_option *opt, const char *cmd,
			     const char *arg, struct start_options *o)
{
	return set_bytes(opt, cmd, arg, false, &o->req.memory_budget);
}

static int set_mode(const struct start_option *opt, const char *cmd,
		    const char *arg, struct start_options *o)
{
	int v = lookup(mode_names, 3, arg);

	if (v < 0)
		return bad_value(opt, cmd, arg);
	o->req.mode = (__u32)v;
	return 0;
}

static int set_kernel(const struct start_option *opt, const char *cmd,
		      const char *arg, struct start_options *o)
{
	int v = lookup(kernel_names, 4, arg);

	if (v < 0) {
		fprintf(stderr, "tracectl %s: --kernel=%s: use auto, kmod, bpf or off\n",
			cmd, arg);
		return -EINVAL;
	}
	o->req.kernel = (__u32)v;
	return 0;
}

static int set_duration(const struct start_option *opt, const char *cmd,
			const char *arg, struct start_options *o)
{
	uint64_t value;

	if (parse_duration_ns(arg, &value) < 0)
		return bad_value(opt, cmd, arg);
	o->req.duration_ns = value;
	return 0;
}

static int add_pid(const struct start_option *opt, const char *cmd,
		   const char *arg, struct start_options *o)
{
	uint64_t value;

	if (parse_count(arg, INT32_MAX, &value) < 0)
		return bad_value(opt, cmd, arg);
	if (o->npids == FXT_KSYSCALL_PIDS_MAX) {
		fprintf(stderr, "tracectl %s: --pid: at most %u processes\n",
			cmd, FXT_KSYSCALL_PIDS_MAX);
		return -EINVAL;
	}
	o->req.kernel_syscall_pids[o->npids++] = (__u32)value;
	return 0;
}

static int set_sample_rate(const struct start_option *opt, const char *cmd,
			   const char *arg, struct start_options *o)
{
	uint64_t value;

	if (parse_count(arg, FXT_SCHED_SAMPLE_HZ_MAX, &value) < 0)
		return bad_value(opt, cmd, arg);
	o->req.sample_hz = (__u32)value;
	return 0;
}

static int set_offcpu_min(const struct start_option *opt, const char *cmd,
			  const char *arg, struct start_options *o)
{
	uint64_t value;

	if (parse_short_duration_ns(arg, &value) < 0)
		return bad_value(opt, cmd, arg);
	o->req.offcpu_min_ns = value;
	return 0;
}

static int set_name(const struct start_option *opt, const char *cmd,
		    const char *arg, struct start_options *o)
{
	if (!fxt_ctl_trigger_name_valid(arg))
		return tracectl_bad_value(cmd, "name", arg,
					  "a name is 1 to %u of A-Z a-z 0-9 _ . - (not starting with '.'), e.g. --name flight-recorder",
					  FXT_CTL_TRACE_NAME_MAX - 1);
	strcpy(o->req.name, arg);
	return 0;
}

static int set_trigger(const struct start_option *opt, const char *cmd,
		       const char *arg, struct start_options *o)
{
	if (start_triggers_option(cmd, opt->code, arg, &o->triggers))
		return -EINVAL;
	return 0;
}

static int show_version(const struct start_option *opt, const char *cmd,
			const char *arg, struct start_options *o)
{
	tracectl_version_exit();
}

static int set_help(const struct start_option *opt, const char *cmd,
		    const char *arg, struct start_options *o)
{
	o->help = true;
	return 0;
}

/* An option start_triggers_option() takes. */
#define TRIGGER_OPTION(name, code) { name, 0, code, true, set_trigger, NULL }

static const struct start_option options[] = {
	{ "output", 'o', 0, true, set_output, NULL },
	{ "categories", 'c', 0, true, set_categories, NULL },
	{ "buffer-size", 'b', 0, true, set_buffer_size,
	  "give a size of at least 4K, e.g. 256K or 4M" },
	{ "mode", 'm', 0, true, set_mode,
	  "use oneshot, circular or streaming" },
	{ "duration", 'd', 0, true, set_duration,
	  "give e.g. 10s, 500ms or 2m" },
	{ "kernel", 'k', 0, true, set_kernel, NULL },
	{ "kernel-buffer-size", 0, OPT_KERNEL_BUFFER_SIZE, true,
	  set_kernel_buffer_size,
	  "give a power of two of at least 4K, e.g. 64K or 2M" },
	{ "pid", 'p', 0, true, add_pid,
	  "give a process id, e.g. --pid 1234" },
	TRIGGER_OPTION("trigger", START_OPT_TRIGGER),
	TRIGGER_OPTION("snapshot-dir", START_OPT_SNAPSHOT_DIR),
	TRIGGER_OPTION("trigger-delay", START_OPT_TRIGGER_DELAY),
	TRIGGER_OPTION("trigger-limit", START_OPT_TRIGGER_LIMIT),
	TRIGGER_OPTION("trigger-latency", START_OPT_TRIGGER_LATENCY),
	TRIGGER_OPTION("snapshot-max-bytes", START_OPT_SNAPSHOT_MAX_BYTES),
	TRIGGER_OPTION("snapshot-max-files", START_OPT_SNAPSHOT_MAX_FILES),
	{ "memory-budget", 0, OPT_MEMORY_BUDGET, true, set_memory_budget,
	  "give bytes, at least 4K, e.g. 67108864 or 64M" },
	{ "name", 0, OPT_NAME, true, set_name, NULL },
	{ "sample-rate", 0, OPT_SAMPLE_RATE, true, set_sample_rate,
	  "give 1 to 10000 samples per second, e.g. 499" },
	{ "offcpu-min", 0, OPT_OFFCPU_MIN, true, set_offcpu_min,
	  "give 0 or a duration with its unit, e.g. 100us or 2ms" },
	{ "help", 'h', 0, false, set_help, NULL },
	{ "version", 0, USAGE_OPT_VERSION, false, show_version, NULL },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static int option_value(const struct start_option *opt)
{
	return opt->short_name ? opt->short_name : opt->code;
}

/*
 * getopt_long's tables of options[]: "+" stops at the first non-option,
 * the command of record.
 */
static void getopt_tables(struct option *longopts, char *optstring)
{
	size_t i;

	*optstring++ = '+';
	for (i = 0; i < NOPTIONS; i++) {
		const struct start_option *opt = &options[i];

		longopts[i] = (struct option){
			.name = opt->name,
			.has_arg = opt->takes_arg ? required_argument :
						    no_argument,
			.val = option_value(opt),
		};
		if (!opt->short_name)
			continue;
		*optstring++ = opt->short_name;
		if (opt->takes_arg)
			*optstring++ = ':';
	}
	longopts[i] = (struct option){ 0 };
	*optstring = '\0';
}

static const struct start_option *find_option(int value)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (option_value(&options[i]) == value)
			return &options[i];
	return NULL;
}

static int resolve(const char *cmd, const char *path, char *out, size_t len)
{
	if (archive_output_resolve(path, out, len) < 0) {
		fprintf(stderr, "tracectl %s: cannot resolve %s to an absolute path\n",
			cmd, path);
		return -EINVAL;
	}
	return 0;
}

/* What the options say together, once all are read. */
static int check_options(const char *cmd, struct start_options *o)
{
	if (start_triggers_check(cmd, &o->triggers, o->req.mode) < 0)
		return -EINVAL;
	if (o->triggers.dir &&
	    resolve(cmd, o->triggers.dir, o->triggers.req.dir,
		    sizeof(o->triggers.req.dir)) < 0)
		return -EINVAL;
	return resolve(cmd, o->output, o->req.output, sizeof(o->req.output));
}

int start_options_parse(const char *cmd, int argc, char **argv,
			struct start_options *o)
{
	struct option longopts[NOPTIONS + 1];
	char optstring[1 + 2 * NOPTIONS + 1];
	const struct start_option *opt;
	int c;

	fxt_msg_init(&o->req, FXT_MSG_CTL_START, sizeof(o->req));
	start_triggers_init(&o->triggers);
	o->output = "trace.fxt";
	o->npids = 0;
	getopt_tables(longopts, optstring);
	if (!strcmp(cmd, "record"))
		o->req.mode = FXT_BUFFERING_STREAMING;
	optind = 1;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		opt = find_option(c);
		if (!opt) {
			usage_bad_option(argv[0], argv, optstring);
			return -EINVAL;
		}
		if (opt->set(opt, cmd, optarg, o) < 0)
			return -EINVAL;
		if (o->help)
			return 0;
	}
	if (!strcmp(cmd, "record") && !o->req.buffer_size &&
	    !o->req.memory_budget)
		o->req.buffer_size = RECORD_BUFFER_SIZE;
	return check_options(cmd, o);
}
