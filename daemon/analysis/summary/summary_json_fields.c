// SPDX-License-Identifier: GPL-2.0-only
/* What the summary's JSON objects write alike: see summary_json_fields.h. */
#include <string.h>

#include "summary_json_fields.h"

void summary_json_string(struct text_out *w, const char *p, size_t len,
			 bool html_safe)
{
	const char *lt;

	if (!html_safe || !(lt = memchr(p, '<', len))) {
		text_put_json_string(w, p, len);
		return;
	}
	text_put_char(w, '"');
	while (lt) {
		text_put_json_part(w, p, (size_t)(lt - p));
		text_put_lit(w, "\\u003c");
		len -= (size_t)(lt - p) + 1;
		p = lt + 1;
		lt = memchr(p, '<', len);
	}
	text_put_json_part(w, p, len);
	text_put_char(w, '"');
}

void summary_json_thread_head(struct text_out *w,
			      const struct trace_summary *s, uint64_t tid,
			      uint64_t pid, struct thread_names *names,
			      bool html_safe)
{
	trace_summary_names(s, tid, pid, names);
	text_put_lit(w, "\n{\"pid\":");
	text_put_u64(w, names->pid);
	text_put_lit(w, ",\"tid\":");
	text_put_u64(w, tid);
	text_put_lit(w, ",\"name\":");
	summary_json_string(w, names->name, names->name_len, html_safe);
}
