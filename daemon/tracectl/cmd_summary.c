// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl summary: which threads used the CPUs, how long woken threads
 * waited for one, which slices took the time, whether anything was
 * dropped. One streaming pass, bounded memory; a table or JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "summary_json.h"
#include "summary_text.h"
#include "text_out.h"
#include "trace_summary.h"
#include "tracectl.h"
#include "tracectl_input.h"
#include "tracectl_input_args.h"
#include "tracectl_scope.h"
#include "tracectl_summary_input.h"

enum { OPT_JSON = 256, OPT_SLICE };

struct summary_args {
	struct tracectl_input_args in;
	bool json;
	size_t top;		/* 0: the default */
	const char *slice;	/* --slice NAME */
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
		"      --slice NAME  what ran (top functions of the stack samples)\n"
		"                 inside the slowest slices called NAME (--top\n"
		"                 of them, default %u)\n"
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
		"  tracectl summary --slice frame --top 3 trace.fxt\n"
		"  tracectl report trace.fxt -o report.html   # the same, drawn\n",
		SUMMARY_TEXT_TOP_DEFAULT, SLICE_WATCH_DEFAULT);
}

/* --json, --slice NAME and --top N. */
static int summary_option(void *ctx, int opt, const char *arg)
{
	struct summary_args *a = ctx;
	char *end;

	if (opt == OPT_JSON) {
		a->json = true;
		return 0;
	}
	if (opt == OPT_SLICE) {
		if (!*arg) {
			fprintf(stderr, "tracectl summary: --slice takes the "
					"name of a slice\n");
			return -1;
		}
		a->slice = arg;
		return 0;
	}
	errno = 0;
	a->top = strtoul(arg, &end, 10);
	if (errno || *end || !*arg || arg[0] == '-' || !a->top) {
		fprintf(stderr, "tracectl summary: --top takes a number above 0, "
				"not '%s'\n", arg);
		return -1;
	}
	return 0;
}

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "top", required_argument, NULL, 'n' },
	{ "slice", required_argument, NULL, OPT_SLICE },
	TRACECTL_INPUT_LONGOPTS,
	TRACECTL_SCOPE_LONGOPTS,
	{ 0 },
};

static const struct tracectl_input_command command = {
	"summary", "n:h", longopts, usage, summary_option
};

static int print_table(const struct summary_args *a,
		       const struct trace_summary *s, struct fxt_reader *r)
{
	struct summary_text_options opt = { .input = a->in.input,
					    .top = a->top };

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
	struct tracectl_input_options iopt = {
		.max_large_record_bytes = TRACECTL_SUMMARY_LARGE_RECORD_MAX,
	};
	struct trace_summary_options sopt = { 0 };
	struct trace_summary s;
	struct tracectl_input in;
	int ret;

	ret = tracectl_input_args(argc, argv, &command, &a, &a.in);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	iopt.force = a.in.force;
	if (tracectl_input_open(&in, "summary", a.in.input, &iopt))
		return TRACECTL_EXIT_FAIL;
	sopt.process = a.in.process;
	sopt.slice_name = a.slice;
	sopt.slice_top = a.top;
	ret = tracectl_summary_read(&in, &s, &sopt);
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
