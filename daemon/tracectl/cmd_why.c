// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl why: the critical path of the slowest instances of a slice
 * (or of one thread over a time range). Two streaming passes over the
 * archive: the summary's finds the instances and gathers the stack
 * samples; the second keeps the scheduling records inside them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "text_out.h"
#include "trace_summary.h"
#include "tracectl.h"
#include "tracectl_input.h"
#include "tracectl_input_args.h"
#include "tracectl_summary_input.h"
#include "why_annotate.h"
#include "why_out.h"
#include "why_run.h"

#define WHY_TOP_DEFAULT 3u

enum {
	OPT_JSON = 256,
	OPT_SLICE,
	OPT_THREAD,
	OPT_FROM,
	OPT_TO,
	OPT_DEPTH,
	OPT_ANNOTATE,
	OPT_CATEGORY,
};

struct why_args {
	struct tracectl_input_args in;
	bool json;
	const char *slice;
	const char *category;	/* --category CAT */
	uint64_t tid, from_ns, to_ns;
	bool from_set, to_set;
	uint64_t top, depth;
	const char *annotate;	/* --annotate OUT */
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl why [OPTIONS] --slice NAME FILE\n"
		"       tracectl why [OPTIONS] --thread TID --from NS --to NS FILE\n"
		"\n"
		"Why was it slow: the wall time of the slowest instances of the\n"
		"slice NAME (or of thread TID from NS to NS, the archive's clock)\n"
		"split into running (with the functions the on-CPU samples name,\n"
		"interrupts and memory stalls apart),\n"
		"waiting for a CPU (with who held it) and blocked (with where, from\n"
		"the off-CPU stacks, and who woke it); then what each waker did\n"
		"meanwhile, the same way, down the chain. The shares add up to the\n"
		"wall time; what no record explains is said. kernel:sched is\n"
		"needed; kernel:sample and kernel:offcpu name functions and stacks.\n"
		"\n"
		"Options:\n"
		"      --slice NAME   the slice to explain\n"
		"      --category CAT only slices of this category (alone: any\n"
		"                     slice of it)\n"
		"      --thread TID   a thread, with --from and --to\n"
		"      --from NS, --to NS  its time range, in ns\n"
		"  -n, --top N        the N slowest instances (default %u)\n"
		"      --depth D      follow wakers D hops (default %u, max %u)\n"
		"      --json         write JSON: the same trees\n"
		"      --annotate OUT write a copy of the archive with each path\n"
		"                     drawn in (slices, instants, flows between\n"
		"                     hops) for Perfetto UI\n"
		"      --force        read input that does not look like FXT\n"
		"  -h, --help         show this help\n"
		"\n"
		"Examples:\n"
		"  tracectl record -o t.fxt -c kernel:sched,kernel:sample,kernel:offcpu -- ./server\n"
		"  tracectl why --slice request t.fxt\n"
		"  tracectl why --slice request --top 1 --json t.fxt | jq '.instances[0].path'\n"
		"  tracectl why --slice request --annotate t-why.fxt t.fxt\n",
		WHY_TOP_DEFAULT, WHY_DEPTH_DEFAULT, WHY_DEPTH_MAX);
}

static int number(const char *opt, const char *arg, uint64_t max,
		  uint64_t *out)
{
	if (!parse_count(arg, max, out))
		return 0;
	fprintf(stderr, "tracectl why: %s takes a number from 1 to %llu, not "
			"'%s'\n", opt, (unsigned long long)max, arg);
	return -1;
}

/* A time in ns: 0 is a time. */
static int time_ns(const char *opt, const char *arg, uint64_t *out)
{
	if (!strcmp(arg, "0")) {
		*out = 0;
		return 0;
	}
	return number(opt, arg, UINT64_MAX, out);
}

static int why_option(void *ctx, int opt, const char *arg)
{
	struct why_args *a = ctx;

	switch (opt) {
	case OPT_JSON:
		a->json = true;
		return 0;
	case OPT_SLICE:
		a->slice = arg;
		if (*arg)
			return 0;
		fprintf(stderr, "tracectl why: --slice takes a slice name\n");
		return -1;
	case OPT_THREAD:
		return number("--thread", arg, UINT64_MAX, &a->tid);
	case OPT_FROM:
		a->from_set = true;
		return time_ns("--from", arg, &a->from_ns);
	case OPT_TO:
		a->to_set = true;
		return time_ns("--to", arg, &a->to_ns);
	case OPT_DEPTH:
		return number("--depth", arg, WHY_DEPTH_MAX, &a->depth);
	case OPT_ANNOTATE:
		a->annotate = arg;
		return 0;
	case OPT_CATEGORY:
		a->category = arg;
		if (*arg)
			return 0;
		fprintf(stderr, "tracectl why: --category takes a category\n");
		return -1;
	default:
		return number("--top", arg, SLICE_WATCH_MAX, &a->top);
	}
}

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "slice", required_argument, NULL, OPT_SLICE },
	{ "thread", required_argument, NULL, OPT_THREAD },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "annotate", required_argument, NULL, OPT_ANNOTATE },
	{ "category", required_argument, NULL, OPT_CATEGORY },
	{ "top", required_argument, NULL, 'n' },
	TRACECTL_INPUT_LONGOPTS,
	{ 0 },
};

static const struct tracectl_input_command command = {
	"why", "n:h", longopts, usage, why_option
};

/* One of --slice and --thread with its range: 0, or -1 after saying. */
static int check_args(const struct why_args *a)
{
	if ((a->slice || a->category) == !!a->tid) {
		fprintf(stderr, "tracectl why: give --slice NAME (or --category "
				"CAT), or --thread TID with --from and --to "
				"(see --help)\n");
		return -1;
	}
	if (a->tid && (!a->from_set || !a->to_set || a->to_ns <= a->from_ns)) {
		fprintf(stderr, "tracectl why: --thread needs --from and --to, "
				"--to after --from\n");
		return -1;
	}
	return 0;
}

static int write_out(const struct why_args *a, const struct why_report *r)
{
	struct text_out o;
	int ret, wret;

	if (!a->json) {
		why_text_write(stdout, r);
		return fflush(stdout) || ferror(stdout) ? -EIO : 0;
	}
	fflush(stdout);
	ret = text_out_init(&o, STDOUT_FILENO, 1u << 20);
	if (ret)
		return ret;
	ret = why_json_write(&o, r);
	wret = text_out_finish(&o);
	return ret ? ret : wret;
}

/* A provider id the archive does not use. */
static uint32_t free_provider_id(const struct tracectl_input *in)
{
	size_t i, n = fxt_reader_provider_count(in->reader);
	uint32_t id = 0;

	for (i = 0; i < n; i++)
		if (fxt_reader_provider(in->reader, i)->id > id)
			id = fxt_reader_provider(in->reader, i)->id;
	return id + 1;
}

static int annotate(const struct why_args *a, struct tracectl_input *in,
		    const struct why_report *r)
{
	int fd, err;

	if (!a->annotate)
		return 0;
	fd = tracectl_output_open("why", a->annotate, in->fd);
	if (fd < 0)
		return -EINVAL;
	err = why_annotate(in->fd, fd, r, free_provider_id(in));
	if (fd != STDOUT_FILENO && close(fd) && !err)
		err = -errno;
	if (err && err != -ENOMEM)
		fprintf(stderr, "tracectl why: writing %s: %s\n", a->annotate,
			strerror(-err));
	return err == -ENOMEM ? err : err ? -EINVAL : 0;
}

/* The intervals to explain, from the summary's watch or the options. */
static size_t intervals(const struct why_args *a, const struct trace_summary *s,
			struct why_run *wr)
{
	size_t i;

	/* No record tells what happened outside the trace. */
	if (a->tid && s->have_ts && a->from_ns < s->last_ns &&
	    a->to_ns > s->first_ns)
		why_run_add(wr, a->tid,
			    a->from_ns > s->first_ns ? a->from_ns : s->first_ns,
			    a->to_ns < s->last_ns ? a->to_ns : s->last_ns, NULL);
	for (i = 0; !a->tid && i < s->watch.n; i++)
		why_run_add(wr, s->watch.slices[i].tid,
			    s->watch.slices[i].start_ns,
			    s->watch.slices[i].end_ns, s->watch.slices[i].name);
	return wr->n;
}

static int explain_all(const struct why_args *a, struct tracectl_input *in,
		       const struct trace_summary *s)
{
	const char *what = a->slice ? a->slice : a->category;
	struct why_run wr;
	int err = why_run_init(&wr, s, a->tid ? 1 : s->watch.n);

	/* Nothing to explain is an answer, as summary --slice gives it. */
	if (!err && !intervals(a, s, &wr) && a->tid)
		tracectl_input_note(in, "the trace holds nothing from --from "
					"to --to");
	else if (!err && !wr.n)
		tracectl_input_note(in, "no slice %s '%s' ended in it; "
					"tracectl summary lists the slices",
				    a->slice ? "called" : "of category", what);
	if (!err && wr.n) {
		err = why_run_build(&wr, in->fd, (unsigned int)a->depth,
				    !a->tid);
		if (err == -ESPIPE)
			tracectl_input_note(in, "why reads its input twice: "
						"give it a file, not a pipe");
		else if (err && err != -ENOMEM)
			tracectl_input_failed(in, err);
	}
	wr.report.slice = a->tid ? NULL : what;
	wr.report.slices_seen = s->watch.seen;
	if (!err)
		err = write_out(a, &wr.report);
	if (!err)
		err = annotate(a, in, &wr.report);
	why_run_free(&wr);
	return err;
}

int cmd_why(int argc, char **argv)
{
	struct why_args a = { 0 };
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
	if (check_args(&a))
		return TRACECTL_EXIT_USAGE;
	iopt.force = a.in.force;
	if (tracectl_input_open(&in, "why", a.in.input, &iopt))
		return TRACECTL_EXIT_FAIL;
	sopt.process = a.in.process;
	sopt.slice_name = a.slice;
	sopt.slice_category = a.category;
	sopt.slice_top = a.top ? a.top : WHY_TOP_DEFAULT;
	ret = tracectl_summary_read(&in, &s, &sopt);
	if (!ret)
		ret = explain_all(&a, &in, &s);
	if (ret == -ENOMEM)
		fprintf(stderr, "tracectl why: out of memory\n");
	else if (ret == -EIO)
		fprintf(stderr, "tracectl why: writing the output: %s\n",
			strerror(EIO));
	trace_summary_done(&s);
	tracectl_input_close(&in);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
