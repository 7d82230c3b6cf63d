// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: tracectl summary and report over arbitrary bytes. The
 * summary must hold together (every thread's CPU time is some CPU's busy
 * time, percentiles are ordered and within the maximum), its JSON must be
 * strict JSON, and the report's data element must be strict JSON that no
 * input can end early (no "</" inside it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static struct memfile out = { .fd = -1 };


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

	trace_summary_done(&s);
	fxt_reader_close(r);
	return 0;
}
