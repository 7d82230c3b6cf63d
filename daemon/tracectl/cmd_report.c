// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl report: the trace summary as one self-contained HTML page
 * (CPU timeline, memory chart, CPU time per thread, wakeup latency, top
 * slices).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_html.h"
#include "trace_summary.h"
#include "tracectl.h"
#include "tracectl_input.h"
#include "tracectl_input_args.h"
#include "tracectl_scope.h"
#include "tracectl_summary_input.h"
#include "why_run.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl report [OPTIONS] FILE\n"
		"\n"
		"Write the summary of the FXT archive FILE as one HTML page that\n"
		"any browser opens offline: a CPU timeline (a lane per CPU,\n"
		"coloured by process; wheel to zoom, drag to pan, hover for the\n"
		"thread and time), with kernel:mem records a memory chart on the\n"
		"same time axis (system memory, the largest processes' RSS, reclaim\n"
		"and compaction stalls, OOM kills), CPU time per thread, the\n"
		"wakeup-latency histogram, the top slices, and why the slowest\n"
		"instance of each of the top 3 was slow (as tracectl why). The\n"
		"archive is read twice in bounded memory; the page holds aggregates\n"
		"and down-sampled timelines, so it stays small and opens fast\n"
		"whatever the archive's size.\n"
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

static const struct option longopts[] = {
	TRACECTL_INPUT_OUTPUT_LONGOPT,
	TRACECTL_INPUT_LONGOPTS,
	TRACECTL_SCOPE_LONGOPTS,
	{ 0 },
};

static const struct tracectl_input_command command = {
	"report", "o:h", longopts, usage, NULL
};

/* Slices whose slowest instance the page explains (tracectl why). */
#define REPORT_WHY_SLICES 3u

/* The why section's data: ,"why":{...}, or ,"why":null with a reason. */
struct report_why {
	struct why_run run;
	bool built;
	const char *absent;	/* why there is none */
};

static int put_why(struct text_out *w, void *ctx)
{
	struct report_why *rw = ctx;

	text_put_str(w, ",\n\"why\":");
	if (rw->built)
		return why_json_write(w, &rw->run.report);
	text_put_str(w, "null,\"why_absent\":\"");
	text_put_str(w, rw->absent);
	text_put_char(w, '"');
	return 0;
}

/*
 * The slowest instance of each of the top slices by total time, each
 * explained (a second pass over the archive).
 */
static int build_why(struct report_why *rw, struct tracectl_input *in,
		     const struct trace_summary *s)
{
	const struct summary_slice **slices;
	size_t n, i;
	int err;

	rw->absent = "no slice ended on a thread";
	slices = trace_summary_slices(s, &n);
	err = slices ? why_run_init(&rw->run, s, REPORT_WHY_SLICES) : -ENOMEM;
	for (i = 0; !err && i < n && rw->run.n < REPORT_WHY_SLICES; i++)
		if (slices[i]->max_tid)
			why_run_add(&rw->run, slices[i]->max_tid,
				    slices[i]->max_start_ns,
				    slices[i]->max_end_ns, slices[i]->name);
	free(slices);
	if (err || !rw->run.n)
		return err;
	if (!s->last_sched_ns) {
		rw->absent = "no kernel:sched records";
		return 0;
	}
	rw->run.report.html_safe = true;
	err = why_run_build(&rw->run, in->fd, 0, true);
	rw->built = !err;
	if (err == -ESPIPE) {
		rw->absent = "the archive came through a pipe: it is read twice";
		err = 0;
	}
	return err;
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
	struct tracectl_input_args a = { 0 };
	struct tracectl_input_options iopt = {
		.max_large_record_bytes = TRACECTL_SUMMARY_LARGE_RECORD_MAX,
	};
	struct trace_summary_options sopt = { .timeline = true };
	struct report_why rw = { 0 };
	struct report_more more = { put_why, &rw };
	struct tracectl_input in;
	struct trace_summary s;
	int ret, out_fd = -1;

	ret = tracectl_input_args(argc, argv, &command, NULL, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	if (tracectl_input_args_output(&a, "report", ".html"))
		return TRACECTL_EXIT_FAIL;
	iopt.force = a.force;
	if (tracectl_input_open(&in, "report", a.input, &iopt)) {
		tracectl_input_args_done(&a);
		return TRACECTL_EXIT_FAIL;
	}
	sopt.process = a.process;
	ret = tracectl_summary_read(&in, &s, &sopt);
	if (!ret)
		ret = build_why(&rw, &in, &s);
	/* Created only now: a failed read leaves no empty page behind. */
	if (!ret) {
		out_fd = tracectl_output_open("report", a.output, in.fd);
		ret = out_fd < 0 ? -EINVAL :
				   report_html_write(out_fd, &s, in.reader,
						     title_of(a.input), &more);
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
	why_run_free(&rw.run);
	trace_summary_done(&s);
	tracectl_input_close(&in);
	tracectl_input_args_done(&a);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
