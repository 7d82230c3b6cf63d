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
#include "text_out.h"
#include "trace_summary.h"
#include "tracectl.h"
#include "usage_error.h"
#include "tracectl_input.h"
#include "utf8.h"
#include "tracectl_scope.h"

#define TABLE_TOP_DEFAULT 20u
#define NAME_WIDTH 24
#define NAME_COLUMNS_MAX 48

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
		TABLE_TOP_DEFAULT);
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

/* "812 ns", "12.3 us", "4.56 ms", "7.89 s": three figures. */
static const char *fmt_ns(char *buf, size_t size, uint64_t ns)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	unsigned int u = 0;

	if (ns < 1000) {
		snprintf(buf, size, "%" PRIu64 " ns", ns);
		return buf;
	}
	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	snprintf(buf, size, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" :
							   "%.0f %s",
		 v, unit[u]);
	return buf;
}

/*
 * Names as printable text, escaped as every name from an archive is
 * (text_c_escape(): no escape sequence reaches the terminal), cut to
 * width columns (at most NAME_COLUMNS_MAX) and padded to them unless pad
 * is false. "-" stands for an empty name.
 */
static void put_name(const char *s, size_t len, int width, bool pad)
{
	char buf[TEXT_C_ESCAPE_MAX * NAME_COLUMNS_MAX];
	size_t i = 0, n, used;
	int cols = 0;

	if (width > NAME_COLUMNS_MAX)
		width = NAME_COLUMNS_MAX;
	n = text_c_escape(buf, sizeof(buf), s, len, fxt_utf8_valid(s, len),
			  &used);
	/* a column per code point of the escaped text, valid UTF-8 */
	while (i < n && cols < width) {
		unsigned char c = (unsigned char)buf[i];

		i += c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
		cols++;
	}
	if (!i)
		printf("-%*s", pad && width > 1 ? width - 1 : 0, "");
	else
		printf("%.*s%*s", (int)i, buf,
		       pad && width > cols ? width - cols : 0, "");
}

static void print_drops(const struct trace_summary *s, struct fxt_reader *r)
{
	size_t i, j, shown = 0;

	for (i = 0; i < s->ndrops; i++) {
		const struct fxt_provider *p = NULL;

		for (j = 0; j < fxt_reader_provider_count(r); j++)
			if (fxt_reader_provider(r, j)->id ==
			    s->drops[i].provider_id)
				p = fxt_reader_provider(r, j);
		printf("%s provider %" PRIu32 " ", shown++ ? "," : " drops:",
		       s->drops[i].provider_id);
		if (p)
			put_name(p->name.data, p->name.len, 32, false);
		printf(" buffer full %" PRIu64 "x",
		       s->drops[i].buffer_overflows);
	}
	printf(shown ? " (records were lost)\n" : " drops: none\n");
}

/* Whose threads and slices the tables hold, and how to see the rest. */
static void print_scope(const struct trace_summary *s)
{
	char what[128];

	if (!process_tree_active(&s->tree))
		return;
	process_tree_describe(&s->tree, what, sizeof(what));
	printf("Threads and slices of %s", what);
	if (s->tree.not_followed)
		printf(" (%" PRIu64 " forks past the limit not followed)",
		       s->tree.not_followed);
	printf("; --all for every process\n");
}

static void print_cpus(const struct trace_summary *s)
{
	uint64_t span = trace_summary_span_ns(s);
	char a[32];
	unsigned int i, n = 0;

	for (i = 0; i < s->ncpus; i++)
		n += s->cpus[i].seen;
	if (!n)
		return;
	printf("\nCPU    BUSY       %%\n");
	for (i = 0; i < s->ncpus; i++) {
		if (!s->cpus[i].seen)
			continue;
		printf("%3u  %9s  %5.1f%%\n", i,
		       fmt_ns(a, sizeof(a), s->cpus[i].busy_ns),
		       span ? 100.0 * (double)s->cpus[i].busy_ns / (double)span :
			      0.0);
	}
}

static int print_threads(const struct trace_summary *s, size_t top)
{
	const struct summary_thread **v;
	char a[32], b[32], c[32], d[32], e[32];
	size_t i, n;

	v = trace_summary_threads(s, &n);
	if (!v)
		return -ENOMEM;
	if (n) {
		printf("\nTHREADS by CPU time\n");
		printf("%9s %8s %8s %9s %9s %9s %9s %8s %8s  %-*s %s\n",
		       "CPU", "SWITCHES", "WAKEUPS", "WAIT p50", "p90", "p99",
		       "max", "TID", "PID", NAME_WIDTH, "THREAD", "PROCESS");
	}
	for (i = 0; i < n && i < top; i++) {
		const struct summary_thread *t = v[i];
		struct hist_percentiles pct;
		struct thread_names names;

		trace_summary_names(s, t->tid, t->pid, &names);
		latency_hist_percentiles(&t->latency, &s->pool, &pct);
		printf("%9s %8" PRIu64 " %8" PRIu64, fmt_ns(a, sizeof(a), t->cpu_ns),
		       t->switches, t->latency.count);
		if (t->latency.count)
			printf(" %9s %9s %9s %9s", fmt_ns(b, sizeof(b), pct.p50),
			       fmt_ns(c, sizeof(c), pct.p90),
			       fmt_ns(d, sizeof(d), pct.p99),
			       fmt_ns(e, sizeof(e), t->latency.max));
		else
			printf(" %9s %9s %9s %9s", "-", "-", "-", "-");
		printf(" %8" PRIu64 " %8" PRIu64 "  ", t->tid, names.pid);
		put_name(names.name, names.name_len, NAME_WIDTH, true);
		printf(" ");
		put_name(names.process, names.process_len, NAME_WIDTH, false);
		printf("\n");
	}
	if (n > top)
		printf("(%zu more threads; --top N shows more)\n", n - top);
	free(v);
	return 0;
}

static int print_slices(const struct trace_summary *s, size_t top)
{
	const struct summary_slice **v;
	char a[32], b[32], c[32];
	size_t i, n;

	v = trace_summary_slices(s, &n);
	if (!v)
		return -ENOMEM;
	if (n)
		printf("\nSLICES by total time\n%9s %9s %9s %9s  %s\n", "TOTAL",
		       "SELF", "COUNT", "MAX", "CATEGORY / NAME");
	for (i = 0; i < n && i < top; i++) {
		printf("%9s %9s %9" PRIu64 " %9s  ",
		       fmt_ns(a, sizeof(a), v[i]->total_ns),
		       fmt_ns(b, sizeof(b), v[i]->self_ns), v[i]->count,
		       fmt_ns(c, sizeof(c), v[i]->max_ns));
		put_name(v[i]->category, v[i]->category_len, 16, false);
		printf(" / ");
		put_name(v[i]->name, v[i]->name_len, NAME_COLUMNS_MAX, false);
		printf("\n");
	}
	if (n > top)
		printf("(%zu more slices; --top N shows more)\n", n - top);
	free(v);
	return 0;
}

/* "512 B", "1.50 KiB", "300 MiB": three figures. */
static const char *fmt_bytes(char *buf, size_t size, uint64_t bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	unsigned int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, !u ? "%.0f %s" : v < 10 ? "%.2f %s" :
				 v < 100 ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

static void print_memory_processes(const struct trace_summary *s, size_t top)
{
	const struct memory_process **v;
	struct thread_names names;
	char a[32], b[32];
	size_t i, n;

	v = memory_summary_processes(&s->memory, &n);
	if (n)
		printf("\nMEMORY: peak RSS by process\n%10s %10s %8s  %s\n",
		       "PEAK RSS", "PEAK SWAP", "PID", "PROCESS");
	for (i = 0; i < n && i < top; i++) {
		trace_summary_names(s, v[i]->pid, v[i]->pid, &names);
		printf("%10s %10s %8" PRIu64 "  ",
		       fmt_bytes(a, sizeof(a), v[i]->peak_rss),
		       fmt_bytes(b, sizeof(b), v[i]->peak_swap), v[i]->pid);
		put_name(names.process, names.process_len, NAME_WIDTH, false);
		printf("\n");
	}
	if (n > top)
		printf("(%zu more processes; --top N shows more)\n", n - top);
	free(v);
}

static void print_memory_stalls(const struct trace_summary *s, size_t top)
{
	const struct memory_thread **v;
	struct thread_names names;
	char a[32], b[32], c[32], d[32];
	size_t i, n;

	v = memory_summary_stalled(&s->memory, &n);
	if (n)
		printf("\nMEMORY: reclaim and compaction stalls by thread\n"
		       "%9s %9s %9s %9s %8s %8s  %-*s %s\n", "STALLED",
		       "DIRECT", "MEMCG", "COMPACT", "TID", "PID", NAME_WIDTH,
		       "THREAD", "PROCESS");
	for (i = 0; i < n && i < top; i++) {
		const struct memory_thread *t = v[i];

		trace_summary_names(s, t->tid, t->pid, &names);
		printf("%9s %9s %9s %9s %8" PRIu64 " %8" PRIu64 "  ",
		       fmt_ns(a, sizeof(a), memory_thread_stall_ns(t)),
		       fmt_ns(b, sizeof(b), t->stall_ns[MEMORY_STALL_DIRECT_RECLAIM]),
		       fmt_ns(c, sizeof(c), t->stall_ns[MEMORY_STALL_MEMCG_RECLAIM]),
		       fmt_ns(d, sizeof(d), t->stall_ns[MEMORY_STALL_COMPACTION]),
		       t->tid, names.pid);
		put_name(names.name, names.name_len, NAME_WIDTH, true);
		printf(" ");
		put_name(names.process, names.process_len, NAME_WIDTH, false);
		printf("\n");
	}
	if (n > top)
		printf("(%zu more threads; --top N shows more)\n", n - top);
	free(v);
}

/* kernel:mem (include/fxt/kmem.h): nothing when the trace has none. */
static void print_memory(const struct trace_summary *s, size_t top)
{
	const struct memory_summary *m = &s->memory;
	char a[32];
	uint32_t i;

	if (!m->records)
		return;
	print_memory_processes(s, top);
	print_memory_stalls(s, top);
	if (m->nooms)
		printf("\nMEMORY: OOM kills\n%10s %8s  %s\n", "RSS", "PID",
		       "NAME");
	for (i = 0; i < m->nooms; i++) {
		printf("%10s %8" PRIu64 "  ",
		       fmt_bytes(a, sizeof(a), m->ooms[i].rss), m->ooms[i].pid);
		put_name(m->ooms[i].name, m->ooms[i].name_len, NAME_WIDTH,
			 false);
		printf("\n");
	}
	if (m->ooms_lost)
		printf("(%" PRIu64 " more OOM kills)\n", m->ooms_lost);
}

static int print_table(const struct summary_args *a,
		       const struct trace_summary *s, struct fxt_reader *r)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(r);
	size_t top = a->top ? a->top : TABLE_TOP_DEFAULT;
	char span[32];
	int ret;

	printf("%s: %s traced, %" PRIu64 " records;", a->input,
	       fmt_ns(span, sizeof(span), trace_summary_span_ns(s)),
	       rs->records);
	print_drops(s, r);
	print_scope(s);
	print_cpus(s);
	ret = print_threads(s, top);
	if (!ret)
		ret = print_slices(s, top);
	if (!ret)
		print_memory(s, top);
	return ret;
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
