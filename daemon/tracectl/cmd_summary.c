// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl summary: which threads used the CPUs, how long woken threads
 * waited for one, which slices took the time, whether anything was
 * dropped. One streaming pass, bounded memory; a table or JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "summary_json.h"
#include "summary_text.h"
#include "text_out.h"
#include "trace_summary.h"
#include "tracectl.h"
#include "usage_error.h"
#include "tracectl_input.h"
#include "tracectl_scope.h"

struct summary_args {
	const char *input;
	bool json;
	bool force;
	size_t top;		/* 0: the default */
	struct process_tree_options process;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl summary [OPTIONS] FILE\n"
		"\n"
		"What the FXT archive FILE says at a glance: time per CPU, CPU time\n"
		"and wakeup latency (wakeup to switch-in) per thread, time per slice\n"
		"with its self time (nested slices excluded), dropped records. The\n"
		"archive is read once, in bounded memory, whatever its size.\n"
		"Threads are sorted by CPU time, slices by total time.\n"
		"\n"
		"Options:\n"
		"      --json     write JSON (every thread and slice unless --top)\n"
		"  -n, --top N    only the first N threads and slices (table\n"
		"                 default: %u)\n"
		"      --force    read input that does not look like FXT (no magic\n"
		"                 number, first records broken) anyway\n"
		TRACECTL_SCOPE_HELP
		"  -h, --help     show this help\n"
		"\n"
		"Latency percentiles are within 1%% (histogram buckets).\n"
		"\n"
		"Examples:\n"
		"  tracectl summary trace.fxt\n"
		"  tracectl summary --top 5 trace.fxt\n"
		"  tracectl summary --json trace.fxt | jq '.threads[0]'\n"
		"  tracectl report trace.fxt -o report.html   # the same, drawn\n",
		SUMMARY_TEXT_TOP_DEFAULT);
}

static int parse_args(int argc, char **argv, struct summary_args *a)
{
	enum { OPT_JSON = 256, OPT_FORCE };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "top", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		TRACECTL_SCOPE_LONGOPTS,
		USAGE_VERSION_LONGOPT,
		{ 0 },
	};
	char *end;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "n:h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case 'n':
			errno = 0;
			a->top = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' ||
			    !a->top) {
				fprintf(stderr, "tracectl summary: --top takes "
						"a number above 0, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		case TRACECTL_SCOPE_OPT_ALL:
		case TRACECTL_SCOPE_OPT_PID:
		case TRACECTL_SCOPE_OPT_PROCESS:
			if (tracectl_scope_option("summary", opt, optarg,
						  &a->process))
				return -1;
			break;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			usage_bad_option(argv[0], argv, "n:h");
			return -1;
		}
	}
	if (tracectl_one_input(argv[0], argc, argv))
		return -1;
	a->input = argv[optind];
	return 0;
}

static int print_table(const struct summary_args *a,
		       const struct trace_summary *s, struct fxt_reader *r)
{
	struct summary_text_options opt = { .input = a->input, .top = a->top };

	return summary_text_write(stdout, s, r, &opt);
}

static int print_json(const struct summary_args *a,
		      const struct trace_summary *s, struct fxt_reader *r)
{
	struct summary_json_options opt = { .top = a->top };
	struct text_out w;
	int ret, wret;

	fflush(stdout);
	ret = text_out_init(&w, STDOUT_FILENO, 1u << 20);
	if (ret)
		return ret;
	ret = summary_json_write(&w, s, r, &opt);
	text_put_char(&w, '\n');
	wret = text_out_finish(&w);
	return ret ? ret : wret;
}

int cmd_summary(int argc, char **argv)
{
	struct summary_args a = { 0 };
	struct trace_summary s;
	struct tracectl_input in;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	ret = tracectl_input_open(&in, "summary", a.input, a.force);
	if (ret)
		return TRACECTL_EXIT_FAIL;
	in.summary_options.process = a.process;
	ret = trace_summary_init(&s, &in.summary_options);
	if (!ret)
		ret = tracectl_input_read(&in, &s);
	if (!ret) {
		ret = a.json ? print_json(&a, &s, in.reader) :
			       print_table(&a, &s, in.reader);
		if (!ret && (fflush(stdout) || ferror(stdout)))
			ret = -EIO;
		if (ret)
			fprintf(stderr, "tracectl summary: writing the output: "
					"%s\n", strerror(-ret));
	} else if (ret == -ENOMEM) {
		fprintf(stderr, "tracectl summary: out of memory\n");
	}
	trace_summary_done(&s);
	tracectl_input_close(&in);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
