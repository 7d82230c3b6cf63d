// SPDX-License-Identifier: GPL-2.0-only
/* The report's memory chart data: see report_memory.h. */
#include <errno.h>
#include <stdlib.h>

#include "memory_summary.h"
#include "report_memory.h"
#include "summary_json_fields.h"

static void put_cells(struct text_out *w, const struct memory_series *s)
{
	uint32_t c;

	text_put_lit(w, ",\"from\":");
	text_put_u64(w, s->first_col);
	text_put_lit(w, ",\"cells\":[");
	for (c = s->first_col; c <= s->last_col; c++) {
		if (c > s->first_col)
			text_put_char(w, ',');
		text_put_u64(w, s->cells[c]);
	}
	text_put_lit(w, "],\"held\":");
	text_put_u64(w, s->held);
	text_put_char(w, '}');
}

static void put_system(struct text_out *w, const struct memory_timeline *tl)
{
	const struct memory_series *s;
	bool first = true;
	unsigned int k;

	text_put_lit(w, ",\n\"system\":[");
	for (k = 0; k < MEMORY_SYSTEM_SERIES; k++) {
		s = &tl->system[k];
		if (!s->started)
			continue;
		summary_json_next(w, &first);
		text_put_lit(w, "\n{\"name\":\"");
		text_put_str(w, memory_system_name(k));
		text_put_lit(w, "\",\"lowest\":");
		text_put_str(w, s->lowest ? "true" : "false");
		put_cells(w, s);
	}
	text_put_char(w, ']');
}

/* The processes of the largest peaks (the timeline keeps their series). */
static int put_processes(struct text_out *w, const struct trace_summary *s)
{
	const struct memory_process **v;
	const struct memory_series *series;
	struct thread_names names;
	bool first = true;
	size_t i, n, kept = 0;

	v = memory_summary_processes(&s->memory, &n);
	if (!v && s->memory.processes.n)
		return -ENOMEM;
	text_put_lit(w, ",\n\"processes\":[");
	for (i = 0; i < n && kept < REPORT_MEMORY_PROCESSES; i++) {
		series = memory_timeline_process(&s->memory_timeline, v[i]->pid);
		if (!series || !series->started)
			continue;
		kept++;
		trace_summary_names(s, v[i]->pid, v[i]->pid, &names);
		summary_json_next(w, &first);
		text_put_lit(w, "\n{\"pid\":");
		text_put_u64(w, v[i]->pid);
		text_put_lit(w, ",\"process\":");
		summary_json_string(w, names.process, names.process_len, true);
		text_put_lit(w, ",\"peak\":");
		text_put_u64(w, v[i]->peak_rss);
		put_cells(w, series);
	}
	text_put_lit(w, "],\"processes_replaced\":");
	text_put_u64(w, s->memory_timeline.processes_replaced);
	free(v);
	return 0;
}

static void put_stall(struct text_out *w, bool *first, unsigned int kind,
		      uint32_t col, const struct memory_stall_cell *c)
{
	const uint64_t fields[] = { kind,	    col,    c->began,
				    c->stall_ns, c->longest_ns, c->tid,
				    c->pid };
	size_t i;

	summary_json_next(w, first);
	text_put_lit(w, "\n[");
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (i)
			text_put_char(w, ',');
		text_put_u64(w, fields[i]);
	}
	text_put_char(w, ']');
}

static void put_stalls(struct text_out *w, const struct memory_timeline *tl)
{
	const struct memory_stall_cell *row;
	bool first = true;
	unsigned int k;
	uint32_t c;

	text_put_lit(w, ",\n\"stall_kinds\":[");
	for (k = 0; k < MEMORY_STALLS; k++) {
		if (k)
			text_put_char(w, ',');
		text_put_char(w, '"');
		text_put_str(w, memory_stall_name(k));
		text_put_char(w, '"');
	}
	text_put_lit(w, "],\"stalls\":[");
	for (k = 0; k < MEMORY_STALLS; k++) {
		row = memory_timeline_stall_row(tl, k);
		for (c = 0; row && c < MEMORY_TIMELINE_COLUMNS; c++)
			if (row[c].marked)
				put_stall(w, &first, k, c, &row[c]);
	}
	text_put_char(w, ']');
}

int report_memory_write(struct text_out *w, const struct trace_summary *s)
{
	const struct memory_timeline *tl = &s->memory_timeline;
	int ret;

	text_put_lit(w, ",\n\"memory_chart\":");
	if (!s->memory.records || !tl->started) {
		text_put_lit(w, "null");
		return 0;
	}
	text_put_lit(w, "{\"t0_ns\":");
	text_put_u64(w, tl->t0_ns);
	text_put_lit(w, ",\"cell_ns\":");
	text_put_u64(w, tl->cell_ns);
	text_put_lit(w, ",\"columns\":");
	text_put_u64(w, MEMORY_TIMELINE_COLUMNS);
	text_put_lit(w, ",\"length_ns\":");
	text_put_u64(w, tl->end_ns - tl->t0_ns);
	put_system(w, tl);
	ret = put_processes(w, s);
	put_stalls(w, tl);
	text_put_char(w, '}');
	return ret;
}
