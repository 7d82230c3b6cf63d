// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracectl merge: FXT archives of several hosts into one timeline on the
 * first one's clock (daemon/analysis/merge/fxt_merge.h does the work).
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

#include "fxt_merge.h"
#include "merge_perfetto.h"
#include "trace_id.h"
#include "tracectl.h"
#include "tracectl_input.h"
#include "usage_error.h"

enum { OPT_ASSUME_ALIGNED = 256 };

struct merge_args {
	const char *output;
	char trace_id[FXT_HOST_TRACE_ID_LEN + 1];	/* the output's */
	struct fxt_merge_options opt;
	char **inputs;
	size_t ninputs;
};

static void merge_usage(FILE *out)
{
	fprintf(out,
		"Usage: tracectl merge [OPTIONS] FILE FILE... -o OUTPUT\n"
		"\n"
		"Merge FXT archives, from several hosts, into one archive that any\n"
		"FXT reader (Perfetto UI) shows as one timeline. Each archive's\n"
		"times are put on the first one's clock through wall time, by the\n"
		"clock readings fxtraced writes at start and stop (their drift\n"
		"included). Each host's processes and threads stay apart (pids and\n"
		"tids get the host number in bits 22 and up), process names get the\n"
		"host name in front (\"web1/nginx\"), CPUs are numbered after the\n"
		"previous host's (the mapping is printed on stderr), and drops stay\n"
		"with their host's providers. The output is a trace of its own: a\n"
		"fresh trace id, and the inputs' hosts and trace ids listed (tracectl\n"
		"summary shows them). The files are read twice, one after the other,\n"
		"in bounded memory.\n"
		"\n"
		"Options:\n"
		"  -o, --output FILE   write here ('-' for stdout, not a terminal);\n"
		"                      required\n"
		"      --assume-aligned\n"
		"                      take an archive without clock readings as\n"
		"                      already on the first one's clock\n"
		"  -h, --help          show this help\n"
		"\n"
		"An archive with a malformed record, without clock readings (and no\n"
		"--assume-aligned), or with readings no host makes (0, reversed, a\n"
		"drift past 1000 ppm), is refused with its name, the offset or the\n"
		"reading, and what is wrong; no output is left then. At most %u archives and %u CPUs\n"
		"in all.\n"
		"\n"
		"Examples:\n"
		"  tracectl merge web1.fxt web2.fxt db.fxt -o fleet.fxt\n"
		"  tracectl merge snapshots/*.fxt -o fleet.fxt 2>cpus.txt\n"
		"  tracectl merge --assume-aligned vm1.fxt vm2.fxt -o - | gzip >both.fxt.gz\n"
		"  tracectl merge a.fxt b.fxt -o ab.fxt && tracectl dump --strict ab.fxt >/dev/null\n",
		MERGE_HOSTS_MAX, MERGE_CPUS_MAX);
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "assume-aligned", no_argument, NULL, OPT_ASSUME_ALIGNED },
	{ "help", no_argument, NULL, 'h' },
	USAGE_VERSION_LONGOPT,
	{ 0 },
};

/* 0, 1 after --help, -1 after a usage error. */
static int parse_args(int argc, char **argv, struct merge_args *a)
{
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			a->output = optarg;
			break;
		case OPT_ASSUME_ALIGNED:
			a->opt.assume_aligned = true;
			break;
		case 'h':
			merge_usage(stdout);
			return 1;
		case USAGE_OPT_VERSION:
			tracectl_version_exit();
		default:
			usage_bad_option(argv[0], argv, "o:h");
			return -1;
		}
	}
	a->inputs = &argv[optind];
	a->ninputs = (size_t)(argc - optind);
	if (a->ninputs < 2) {
		usage_error(argv[0], "give two archives or more to merge");
		return -1;
	}
	if (a->ninputs > MERGE_HOSTS_MAX) {
		usage_error(argv[0], "%zu archives: at most %u", a->ninputs,
			    MERGE_HOSTS_MAX);
		return -1;
	}
	if (!a->output) {
		usage_error(argv[0], "no output: give -o FILE");
		return -1;
	}
	/* FXT is binary: its bytes would reach the terminal as they are */
	if (!strcmp(a->output, "-") && isatty(STDOUT_FILENO)) {
		usage_error(argv[0], "'-o -' is a terminal: give -o FILE or a pipe");
		return -1;
	}
	return 0;
}

/* Each input, opened: a regular file (read twice). 0, or -1 after saying why. */
static int open_inputs(const struct merge_args *a, struct merge_host *hosts)
{
	struct stat st;
	size_t i;

	for (i = 0; i < a->ninputs; i++) {
		struct merge_host *h = &hosts[i];

		h->path = a->inputs[i];
		h->fd = open(h->path, O_RDONLY | O_CLOEXEC);
		if (h->fd < 0) {
			fprintf(stderr, "tracectl merge: cannot open '%s': %s\n",
				h->path, strerror(errno));
			return -1;
		}
		if (fstat(h->fd, &st) || !S_ISREG(st.st_mode)) {
			fprintf(stderr, "tracectl merge: '%s' is not a regular file: merge reads each archive twice\n",
				h->path);
			return -1;
		}
		if (tracectl_same_file(h->fd, a->output)) {
			fprintf(stderr, "tracectl merge: output '%s' is the input '%s'; choose another name with -o\n",
				a->output, h->path);
			return -1;
		}
	}
	return 0;
}

static void close_inputs(struct merge_host *hosts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (hosts[i].fd >= 0)
			close(hosts[i].fd);
}

static void say_problem(const struct merge_args *a,
			const struct merge_host *hosts,
			const struct fxt_merge_problem *p)
{
	if (p->host >= a->ninputs) {
		fprintf(stderr, "tracectl merge: writing '%s': %s\n", a->output,
			p->reason);
		return;
	}
	if (p->has_offset)
		fprintf(stderr, "tracectl merge: %s: offset 0x%" PRIx64 ": %s; nothing merged\n",
			hosts[p->host].path, p->offset, p->reason);
	else
		fprintf(stderr, "tracectl merge: %s: %s; nothing merged\n",
			hosts[p->host].path, p->reason);
}

/* "host web1 (web1.fxt): CPUs 0-3 -> 4-7; clock ..." on stderr. */
static void say_host(const struct merge_host *h)
{
	const struct fxt_host_clock *hc = &h->hc;
	uint64_t at = hc->has_start ? hc->start.boottime : hc->stop.boottime;
	int64_t shift = (int64_t)(merge_time(h, NULL, at) - at);
	double ppm;

	fprintf(stderr, "tracectl merge: host %s (%s): ", h->name, h->path);
	if (h->has_cpus)
		fprintf(stderr, "CPUs 0-%u -> %u-%u; ", h->cpu_max, h->cpu_base,
			h->cpu_base + h->cpu_max);
	else
		fprintf(stderr, "no CPU records; ");
	if (!h->index)
		fprintf(stderr, "its clock is the output's\n");
	else if (!h->clock_mapped)
		fprintf(stderr, "times taken as they are (--assume-aligned)\n");
	else if (fxt_host_clock_drift_ppm(hc, &ppm))
		fprintf(stderr, "times %+.9f s (wall clock drift %+.3f ppm)\n",
			(double)shift / 1e9, ppm);
	else
		fprintf(stderr, "times %+.9f s\n", (double)shift / 1e9);
}

/* What the second pass counted, host by host. */
static void say_counts(const struct merge_host *h)
{
	const struct merge_host_stats *s = &h->stats;

	if (s->buffer_overflows)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " buffer overflow(s): events were dropped there (kept in the output)\n",
			h->name, s->buffer_overflows);
	if (s->nonconforming)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " nonconforming record(s) copied as they are\n",
			h->name, s->nonconforming);
	if (s->unknown_skipped)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " record(s) of unknown types left out\n",
			h->name, s->unknown_skipped);
	if (s->wide_koids)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " koid(s) past the 32-bit pid range: kept apart in FXT, but Perfetto reads only their low 32 bits\n",
			h->name, s->wide_koids);
	if (h->stack_ids.lost)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " stack record(s) left out: their ids do not fit the output's 32 bits after the inputs before it\n",
			h->name, h->stack_ids.lost);
	if (s->perfetto_packets_dropped)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " Perfetto packet(s) left out: they do not parse, or the input ends inside one\n",
			h->name, s->perfetto_packets_dropped);
	if (s->perfetto_blobs_dropped)
		fprintf(stderr, "tracectl merge: host %s: %" PRIu64 " Perfetto blob(s) left out: the stream is not a Trace from there (not a packet, or one over %u bytes)\n",
			h->name, s->perfetto_blobs_dropped,
			MERGE_PERFETTO_PACKET_MAX);
}

/* The second pass into a->output: 0, or -1 after saying why. */
static int write_output(const struct merge_args *a, struct merge_host *hosts)
{
	struct fxt_merge_problem problem;
	bool out_regular;
	struct stat st;
	int fd, ret;

	fd = tracectl_output_open("merge", a->output, hosts[0].fd);
	if (fd < 0)
		return -1;
	out_regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	ret = fxt_merge_write(hosts, a->ninputs, fd, &a->opt, &problem);
	if (ret)
		say_problem(a, hosts, &problem);
	if (fd != STDOUT_FILENO && close(fd) && !ret) {
		fprintf(stderr, "tracectl merge: writing '%s': %s\n", a->output,
			strerror(errno));
		ret = -EIO;
	}
	/* A part of the merge is no trace of the fleet: do not leave one. */
	if (ret && fd != STDOUT_FILENO && out_regular)
		unlink(a->output);
	return ret ? -1 : 0;
}

static int merge(const struct merge_args *a, struct merge_host *hosts)
{
	struct fxt_merge_problem problem;
	size_t i;

	if (open_inputs(a, hosts))
		return -1;
	if (fxt_merge_prepare(hosts, a->ninputs, &a->opt, &problem)) {
		say_problem(a, hosts, &problem);
		return -1;
	}
	if (write_output(a, hosts))
		return -1;
	fprintf(stderr, "tracectl merge: trace %s, of %zu archives\n",
		a->trace_id, a->ninputs);
	for (i = 0; i < a->ninputs; i++)
		say_host(&hosts[i]);
	for (i = 0; i < a->ninputs; i++)
		say_counts(&hosts[i]);
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args a = { 0 };
	struct merge_host *hosts;
	size_t i;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? TRACECTL_EXIT_OK : TRACECTL_EXIT_USAGE;
	for (i = 0; i < a.ninputs; i++) {
		if (strcmp(a.inputs[i], "-"))
			continue;
		usage_error(argv[0], "'-': merge reads each archive twice; give files");
		return TRACECTL_EXIT_USAGE;
	}
	ret = trace_id_new(a.trace_id);
	if (ret < 0) {
		fprintf(stderr, "tracectl merge: no trace id: %s\n",
			strerror(-ret));
		return TRACECTL_EXIT_FAIL;
	}
	a.opt.trace_id = a.trace_id;
	hosts = calloc(a.ninputs, sizeof(*hosts));
	if (!hosts) {
		fprintf(stderr, "tracectl merge: out of memory\n");
		return TRACECTL_EXIT_FAIL;
	}
	for (i = 0; i < a.ninputs; i++)
		hosts[i].fd = -1;
	ret = merge(&a, hosts);
	fxt_merge_release(hosts, a.ninputs);
	close_inputs(hosts, a.ninputs);
	free(hosts);
	return ret ? TRACECTL_EXIT_FAIL : TRACECTL_EXIT_OK;
}
