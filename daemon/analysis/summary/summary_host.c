// SPDX-License-Identifier: GPL-2.0-only
/* Where and when, in the summary: see summary_host.h. */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "summary_host.h"
#include "summary_json_fields.h"

/* "2026-11-27T04:19:42.739568Z" for ns of REALTIME. */
static const char *fmt_wall(char *buf, size_t size, uint64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;
	size_t n;

	if (!gmtime_r(&sec, &tm) ||
	    !(n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm))) {
		snprintf(buf, size, "%" PRIu64 " ns", ns);
		return buf;
	}
	snprintf(buf + n, size - n, ".%06uZ",
		 (unsigned int)(ns % 1000000000u / 1000u));
	return buf;
}

/* The host's fields are printable ASCII (host_clock.h); "-": empty. */
static const char *or_dash(const char *s)
{
	return s[0] ? s : "-";
}

void summary_host_text(FILE *out, const struct fxt_host_clock *hc)
{
	char start[48], stop[48];
	double ppm;

	if (!hc->has_host && !hc->has_start && !hc->has_stop)
		return;
	fprintf(out, "host:");
	if (hc->has_host)
		fprintf(out, " %s, kernel %s, machine-id %s, trace %s,",
			or_dash(hc->hostname), or_dash(hc->kernel),
			or_dash(hc->machine_id), or_dash(hc->trace_id));
	if (hc->has_start)
		fprintf(out, " from %s",
			fmt_wall(start, sizeof(start), hc->start.realtime));
	if (hc->has_stop)
		fprintf(out, " to %s",
			fmt_wall(stop, sizeof(stop), hc->stop.realtime));
	if (fxt_host_clock_drift_ppm(hc, &ppm))
		fprintf(out, ", drift %+.2f ppm", ppm);
	fprintf(out, "\n");
}

static void put_field(struct text_out *w, const char *name, const char *v,
		      bool html_safe)
{
	text_put_json_string(w, name, strlen(name));
	text_put_char(w, ':');
	summary_json_string(w, v, strlen(v), html_safe);
}

static void put_reading(struct text_out *w, const char *at,
			const struct fxt_clock_reading *c)
{
	text_put_json_string(w, at, strlen(at));
	text_put_lit(w, ":{\"boottime\":");
	text_put_u64(w, c->boottime);
	text_put_lit(w, ",\"monotonic\":");
	text_put_u64(w, c->monotonic);
	text_put_lit(w, ",\"realtime\":");
	text_put_u64(w, c->realtime);
	text_put_lit(w, ",\"error_ns\":");
	text_put_u64(w, c->error_ns);
	text_put_char(w, '}');
}

void summary_host_json(struct text_out *w, const struct fxt_host_clock *hc,
		       bool html_safe)
{
	double ppm;

	if (hc->has_host) {
		text_put_lit(w, ",\n\"host\":{");
		put_field(w, FXT_HOST_ARG_MACHINE_ID, hc->machine_id,
			  html_safe);
		text_put_char(w, ',');
		put_field(w, FXT_HOST_ARG_BOOT_ID, hc->boot_id, html_safe);
		text_put_char(w, ',');
		put_field(w, FXT_HOST_ARG_HOSTNAME, hc->hostname, html_safe);
		text_put_char(w, ',');
		put_field(w, FXT_HOST_ARG_KERNEL, hc->kernel, html_safe);
		text_put_char(w, ',');
		put_field(w, FXT_HOST_ARG_TRACE_ID, hc->trace_id, html_safe);
		text_put_char(w, '}');
	}
	if (!hc->has_start && !hc->has_stop)
		return;
	text_put_lit(w, ",\n\"clock\":{");
	if (hc->has_start)
		put_reading(w, FXT_CLOCK_AT_START, &hc->start);
	if (hc->has_start && hc->has_stop)
		text_put_char(w, ',');
	if (hc->has_stop)
		put_reading(w, FXT_CLOCK_AT_STOP, &hc->stop);
	if (fxt_host_clock_drift_ppm(hc, &ppm)) {
		text_put_lit(w, ",\"drift_ppm\":");
		text_put_json_double(w, ppm);
	}
	text_put_char(w, '}');
}

void summary_merged_text(FILE *out, const struct summary_merged *m)
{
	size_t i;

	if (!m->n)
		return;
	fprintf(out, "merged: %zu archives:", m->n);
	for (i = 0; i < m->n; i++)
		fprintf(out, "%s %s (trace %s)", i ? "," : "",
			or_dash(m->inputs[i].host),
			or_dash(m->inputs[i].trace_id));
	fprintf(out, "\n");
}

void summary_merged_json(struct text_out *w, const struct summary_merged *m,
			 bool html_safe)
{
	size_t i;

	if (!m->n)
		return;
	text_put_lit(w, ",\n\"merged\":[");
	for (i = 0; i < m->n; i++) {
		if (i)
			text_put_char(w, ',');
		text_put_char(w, '{');
		put_field(w, FXT_MERGE_ARG_HOST, m->inputs[i].host, html_safe);
		text_put_char(w, ',');
		put_field(w, FXT_MERGE_ARG_TRACE_ID, m->inputs[i].trace_id,
			  html_safe);
		text_put_char(w, '}');
	}
	text_put_char(w, ']');
}
