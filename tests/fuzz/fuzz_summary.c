// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: tracectl summary and report over arbitrary bytes. The
 * summary must hold together (every thread's CPU time is some CPU's busy
 * time, percentiles are ordered and within the maximum), its JSON must be
 * strict JSON, and the report's data element must be strict JSON that no
 * input can end early (no "</" inside it). Its why section (tracectl
 * why over the slowest instance of each top slice, from a second pass)
 * must add up: every node's children to the node.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_ABORTS
#include "check.h"
#include "fuzz_target.h"
#include "fxt_reader.h"
#include "fxt_saturate.h"
#include "json_check.h"
#include "memfile.h"
#include "report_html.h"
#include "summary_json.h"
#include "trace_summary.h"
#include "why_run.h"

static struct memfile out = { .fd = -1 };
static struct memfile in = { .fd = -1 };


static void check_json(const char *p, size_t len, const char *what)
{
	size_t at = 0;
	const char *error = json_check(p, len, &at);

	if (error) {
		fprintf(stderr, "fuzz_summary: %s: invalid JSON (%s) at byte %zu\n",
			what, error, at);
		abort();
	}
}

static void check_figures(const struct trace_summary *s)
{
	uint64_t busy = 0, cpu = 0;
	unsigned int i;

	/* both sides saturate: each is the true total, or 2^64-1 past it */
	for (i = 0; i < s->ncpus; i++)
		busy = fxt_sat_add(busy, s->cpus[i].busy_ns);
	for (i = 0; i < s->nthreads; i++) {
		const struct summary_thread *t = &s->threads[i];
		struct hist_percentiles p;

		cpu = fxt_sat_add(cpu, t->cpu_ns);
		latency_hist_percentiles(&t->latency, &s->pool, &p);
		CHECK(p.p50 <= p.p90 && p.p90 <= p.p99 && p.p99 <= t->latency.max,
		      "percentiles out of order");
	}
	if (!s->threads_untracked)
		CHECK(cpu == busy, "thread CPU time is not the CPUs' busy time");
}

static void check_report(void)
{
	static const char open_tag[] = "id=\"fxt-data\">";
	size_t len = memfile_read(&out);
	char *start = strstr(out.text, open_tag), *end;

	CHECK(start != NULL, "no data element in the report");
	start += sizeof(open_tag) - 1;
	end = strstr(start, "</");
	CHECK(end != NULL && !strncmp(end, "</script>", 9),
	      "the data element ends early");
	check_json(start, (size_t)(end - start), "report data");
	CHECK(strstr(end, "</html>") != NULL && (size_t)(end - out.text) < len,
	      "the page is cut");
}

static void check_tree(const struct why_tree *t)
{
	uint64_t sum;
	uint32_t i, c;

	CHECK(t->n && t->nodes[0].ns == t->end_ns - t->start_ns,
	      "the tree's root is not the interval");
	for (i = 0; i < t->n && !t->nodes_dropped; i++) {
		if (t->nodes[i].first_child == WHY_NO_NODE)
			continue;
		sum = 0;
		for (c = t->nodes[i].first_child; c != WHY_NO_NODE;
		     c = t->nodes[c].next)
			sum = fxt_sat_add(sum, t->nodes[c].ns);
		CHECK(sum == t->nodes[i].ns || t->budget_hit,
		      "a why node's children do not add up to it");
	}
}

static void check_why_json(const struct why_report *r)
{
	struct text_out w;
	size_t out_len;

	memfile_rewind(&out);
	CHECK(text_out_init(&w, out.fd, 1) == 0, "text_out_init");
	CHECK(why_json_write(&w, r) == 0, "why_json_write");
	CHECK(text_out_finish(&w) == 0, "writing why");
	out_len = memfile_read(&out);
	check_json(out.text, out_len, "why");
}

/* The input in a file the second pass can seek. */
static int input_fd(const uint8_t *data, size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (in.fd < 0)
		memfile_open(&in, "fuzz_summary.in");
	memfile_rewind(&in);
	while (done < len) {
		n = write(in.fd, data + done, len - done);
		CHECK(n > 0, "writing the input");
		done += (size_t)n;
	}
	return in.fd;
}

static void check_why(const struct trace_summary *s, const uint8_t *data,
		      size_t len)
{
	const struct summary_slice **slices;
	struct why_run wr;
	size_t n, i;

	slices = trace_summary_slices(s, &n);
	CHECK(slices && !why_run_init(&wr, s, 3), "allocation");
	for (i = 0; i < n && wr.n < 3; i++)
		if (slices[i]->max_tid)
			why_run_add(&wr, slices[i]->max_tid,
				    slices[i]->max_start_ns,
				    slices[i]->max_end_ns, slices[i]->name);
	free(slices);
	CHECK(why_run_build(&wr, input_fd(data, len), 0, true) == 0,
	      "why_run_build");
	for (i = 0; i < wr.n; i++)
		check_tree(&wr.trees[i]);
	wr.report.html_safe = true;
	check_why_json(&wr.report);
	why_run_free(&wr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct fxt_reader_options ropt = {
		.expect_magic = true,
		.max_large_record_bytes = 1 << 20,
	};
	struct trace_summary_options sopt = { .timeline = true };
	struct summary_json_options jopt = { .html_safe = true };
	struct fxt_reader *r;
	struct trace_summary s;
	struct text_out w;
	size_t out_len;

	if (out.fd < 0)
		memfile_open(&out, "fuzz_summary.out");
	r = fxt_reader_open_mem(data, len, &ropt);
	CHECK(r != NULL, "allocation");
	CHECK(trace_summary_init(&s, &sopt) == 0, "allocation");
	CHECK(trace_summary_read(&s, r) == 0, "summary of memory input failed");
	check_figures(&s);

	memfile_rewind(&out);
	CHECK(text_out_init(&w, out.fd, 1) == 0, "text_out_init");
	CHECK(summary_json_write(&w, &s, r, &jopt) == 0, "summary_json_write");
	CHECK(text_out_finish(&w) == 0, "writing the summary");
	out_len = memfile_read(&out);	/* before out.text: it may move */
	check_json(out.text, out_len, "summary");

	memfile_rewind(&out);
	CHECK(report_html_write(out.fd, &s, r, "fuzz</script>", NULL) == 0,
	      "report_html_write");
	check_report();
	check_why(&s, data, len);

	trace_summary_done(&s);
	fxt_reader_close(r);
	return 0;
}
