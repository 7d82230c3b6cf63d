/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the summary's JSON objects (summary_json.c, memory_json.c) and the
 * report's page (report_html.c) write alike: a string from the archive,
 * the fields that start a thread's object.
 */
#ifndef FXT_SUMMARY_JSON_FIELDS_H
#define FXT_SUMMARY_JSON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "text_out.h"
#include "trace_summary.h"

/* A JSON string; html_safe: for a <script> element, '<' as \u003c. */
void summary_json_string(struct text_out *w, const char *p, size_t len,
			 bool html_safe);

/*
 * The start of thread tid's object, {"pid":N,"tid":N,"name":S on a line
 * of its own, with its names (of process pid if the summary knows none)
 * into names for the fields that follow.
 */
void summary_json_thread_head(struct text_out *w,
			      const struct trace_summary *s, uint64_t tid,
			      uint64_t pid, struct thread_names *names,
			      bool html_safe);

/* Before an array's item: a comma, unless it is the first. */
static inline void summary_json_next(struct text_out *w, bool *first)
{
	if (!*first)
		text_put_char(w, ',');
	*first = false;
}

#endif /* FXT_SUMMARY_JSON_FIELDS_H */
