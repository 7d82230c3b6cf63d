// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl report: the trace summary as one self-contained HTML page
 * (CPU timeline, CPU time per thread, wakeup latency, top slices).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_html.h"
#include "trace_summary.h"
#include "tracectl.h"
#include "usage_error.h"
#include "tracectl_input.h"
#include "tracectl_scope.h"

struct report_args {
	const char *input;
	const char *output;
	bool force;
	struct process_tree_options process;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl report [OPTIONS] FILE\n"
		"\n"
		"Write the summary of the FXT archive FILE as one HTML page that\n"
		"any browser opens offline: a CPU timeline (a lane per CPU,\n"
		"coloured by process; wheel to zoom, drag to pan, hover for the\n"
		"thread and time), CPU time per thread, the wakeup-latency\n"
		"histogram and the top slices. The archive is read once in bounded\n"
		"memory; the page holds aggregates and a down-sampled timeline, so\n"
		"it stays small and opens fast whatever the archive's size.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE  write here ('-' for stdout); default: FILE with\n"
		"                     its .fxt suffix replaced by .html\n"
		"      --force        read input that does not look like FXT (no\n"
		"                     magic number, first records broken) anyway\n"
		TRACECTL_SCOPE_HELP
		"  -h, --help         show this help\n"
		"\n"
		"Examples:\n"
		"  tracectl report trace.fxt                  # writes trace.html\n"
		"  tracectl report trace.fxt -o report.html\n"
		"  tracectl summary trace.fxt                 # the same, as text\n");
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		TRACECTL_SCOPE_LONGOPTS,
		USAGE_VERSION_LONGOPT,
		{ 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			a->output = optarg;
			break;
		case 'f':
			a->force = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case TRACECTL_SCOPE_OPT_ALL:
		case TRACECTL_SCOPE_OPT_PID:
		case TRACECTL_SCOPE_OPT_PROCESS:
			if (tracectl_scope_option("report", opt, optarg,
						  &a->process))
				return -1;
			break;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			usage_bad_option(argv[0], argv, "o:h");
			return -1;
		}
	}
	if (tracectl_one_input(argv[0], argc, argv))
		return -1;
	a->input = argv[optind];
	return 0;
}

/* The page's title: the file's base name. */
static const char *title_of(const char *input)
{
	const char *slash = strrchr(input, '/');

	if (!strcmp(input, "-"))
		return "standard input";
	return slash && slash[1] ? slash + 1 : input;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct tracectl_input in;
	struct trace_summary s;
	char *default_out = NULL;
	int ret, out_fd = -1;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	if (!a.output && !strcmp(a.input, "-")) {
		a.output = "-";
	} else if (!a.output) {
		default_out = tracectl_output_name(a.input, ".html");
		if (!default_out) {
			fprintf(stderr, "tracectl report: out of memory\n");
			return TRACECTL_EXIT_FAIL;
		}
		a.output = default_out;
	}
	if (tracectl_input_open(&in, "report", a.input, a.force)) {
		free(default_out);
		return TRACECTL_EXIT_FAIL;
	}
	in.summary_options.timeline = true;
	in.summary_options.process = a.process;
	ret = trace_summary_init(&s, &in.summary_options);
	if (!ret)
		ret = tracectl_input_read(&in, &s);
	/* Created only now: a failed read leaves no empty page behind. */
	if (!ret) {
		out_fd = tracectl_output_open("report", a.output, in.fd);
		ret = out_fd < 0 ? -EINVAL :
				   report_html_write(out_fd, &s, in.reader,
						     title_of(a.input));
		if (out_fd >= 0 && ret && ret != -ENOMEM)
			fprintf(stderr, "tracectl report: writing '%s': %s\n",
				a.output, strerror(-ret));
		if (out_fd > STDOUT_FILENO && close(out_fd) && !ret) {
			ret = -errno;
			fprintf(stderr, "tracectl report: writing '%s': %s\n",
				a.output, strerror(-ret));
		}
		if (ret && out_fd > STDOUT_FILENO)
			unlink(a.output);
	}
	if (ret == -ENOMEM)
		fprintf(stderr, "tracectl report: out of memory\n");
	trace_summary_done(&s);
	tracectl_input_close(&in);
	free(default_out);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
