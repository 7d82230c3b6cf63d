// SPDX-License-Identifier: GPL-2.0-only
/* What the stack records lost, in one line: stack_losses.h. */
#include <inttypes.h>
#include <stdio.h>

#include "stack_losses.h"

struct line {
	char *buf;
	size_t len;
};

static void part(struct line *l, uint64_t n, const char *what)
{
	int ret;

	if (!n || l->len >= STACK_LOSSES_TEXT_MAX)
		return;
	ret = snprintf(l->buf + l->len, STACK_LOSSES_TEXT_MAX - l->len,
		       "%s%" PRIu64 " %s", l->len > 14 ? ", " : " ", n, what);
	if (ret > 0)
		l->len += (size_t)ret;
}

bool stack_losses_text(char *buf, const struct stack_table_stats *t,
		       const struct stack_profile_stats *p)
{
	struct line l = { buf, 0 };

	if (!t->samples_dropped && !t->samples_malformed &&
	    !t->entries_malformed && !t->entries_duplicate &&
	    !t->entries_dropped && !p->missing_frames &&
	    !p->missing_mappings && !p->samples_without_stack &&
	    !p->functions_dropped && !p->frames_cut)
		return false;
	l.len = (size_t)snprintf(buf, STACK_LOSSES_TEXT_MAX, "stack records:");
	part(&l, t->samples_dropped,
	     "samples past the reader's limit left out");
	part(&l, t->samples_malformed,
	     "samples without their arguments left out");
	part(&l, p->samples_without_stack,
	     "samples of no stack known (undefined or cut) left out");
	part(&l, t->entries_malformed,
	     "table entries malformed or cut (skipped)");
	part(&l, t->entries_duplicate,
	     "ids defined again (the first kept)");
	part(&l, t->entries_dropped,
	     "table entries past the reader's limits left out");
	part(&l, p->missing_frames,
	     "frames no table defines (shown as [missing frame])");
	part(&l, p->missing_mappings,
	     "mappings no table defines (shown as [missing])");
	part(&l, p->functions_dropped,
	     "functions past the reader's limit (shown as [past the limit])");
	part(&l, p->frames_cut,
	     "frames of stacks cut past the reader's limit");
	if (l.len < STACK_LOSSES_TEXT_MAX)
		snprintf(buf + l.len, STACK_LOSSES_TEXT_MAX - l.len,
			 "; the archive is damaged or incomplete");
	return true;
}

static void put_member(struct text_out *w, const char *name, uint64_t v)
{
	text_put_str(w, ",\"");
	text_put_str(w, name);
	text_put_str(w, "\":");
	text_put_u64(w, v);
}

void stack_losses_json(struct text_out *w, const struct stack_table_stats *t,
		       const struct stack_profile_stats *p)
{
	put_member(w, "samples_dropped", t->samples_dropped);
	put_member(w, "samples_malformed", t->samples_malformed);
	put_member(w, "samples_without_stack", p->samples_without_stack);
	put_member(w, "entries_malformed", t->entries_malformed);
	put_member(w, "entries_duplicate", t->entries_duplicate);
	put_member(w, "entries_dropped", t->entries_dropped);
	put_member(w, "missing_frames", p->missing_frames);
	put_member(w, "missing_mappings", p->missing_mappings);
	put_member(w, "functions_dropped", p->functions_dropped);
	put_member(w, "frames_cut", p->frames_cut);
}

bool stack_capture_text(char *buf, const struct stack_capture_losses *c)
{
	size_t len = 0;
	unsigned int i;
	int ret;

	if (!c->records)
		return false;
	buf[0] = '\0';
	for (i = 0; i <= FXT_STACK_LOSS_COUNT; i++) {
		bool unknown = i == FXT_STACK_LOSS_COUNT;
		uint64_t n = unknown ? c->unknown : c->count[i];

		if (!n || len >= STACK_LOSSES_TEXT_MAX)
			continue;
		ret = snprintf(buf + len, STACK_LOSSES_TEXT_MAX - len,
			       "%s%s %" PRIu64, len ? ", " : "",
			       unknown ? "unknown reasons" :
					 fxt_stack_loss_name(i),
			       n);
		if (ret > 0)
			len += (size_t)ret;
	}
	if (!len)
		snprintf(buf, STACK_LOSSES_TEXT_MAX, "none");
	return true;
}

void stack_capture_json(struct text_out *w,
			const struct stack_capture_losses *c)
{
	unsigned int i;

	text_put_str(w, ",\"stack_losses\":{\"recorded\":");
	text_put_str(w, c->records ? "true" : "false");
	for (i = 0; i < FXT_STACK_LOSS_COUNT; i++)
		put_member(w, fxt_stack_loss_name(i), c->count[i]);
	put_member(w, "unknown", c->unknown);
	text_put_char(w, '}');
}
