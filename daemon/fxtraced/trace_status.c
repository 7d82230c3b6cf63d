// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace in words for those who ask, above trace.c: status's note on
 * how writing goes, the manager's STATUS=, and to a stop that finds no
 * trace running, the last one's archive when it waits for its owner.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "archive.h"
#include "kernel_source.h"
#include "manager_state.h"
#include "trace.h"
#include "trace_types.h"

int trace_hand_last(struct manager *m, uid_t uid, reply_fn reply,
		    void *ctx)
{
	char message[FXT_CTL_MESSAGE_MAX];
	struct fxt_ctl_result res;

	if (m->trace || m->last_handed || uid != m->last_owner)
		return -ESRCH;
	snprintf(message, sizeof(message),
		 "the trace had already ended (its duration ran out, or its stopper went away)%s%s",
		 m->last_error ? "; writing it failed: " : "",
		 m->last_error ? strerror(-m->last_error) : "");
	/* Described (temp_name, owner) before it is marked handed. */
	trace_result(m, 0, message, &res);
	(void)reply(ctx, &res, sizeof(res));
	m->last_handed = true;
	return 0;
}

void trace_write_note(const struct manager *m, char *buf, size_t len)
{
	const struct trace *t = m->trace;
	struct archive_state st;
	bool failing, removed;
	int error;

	buf[0] = '\0';
	if (!t || !t->archive)
		return;
	archive_state(t->archive, &st);
	error = st.error;
	failing = st.failing;
	removed = st.removed;
	if (removed)
		snprintf(buf, len,
			 "the archive's file %.60s beside %.200s was removed: nothing will be put at %.200s",
			 t->temp_name, t->output, t->output);
	else if (error && failing)
		snprintf(buf, len,
			 "writing %.300s fails: %s; %llu KiB wait in memory, records in the buffers (what does not fit is dropped and counted), writing is tried again every second",
			 t->output, strerror(-error),
			 (unsigned long long)(st.queued >> 10));
	else if (st.not_queued && st.queued)
		snprintf(buf, len,
			 "writing %.300s is slow: %llu KiB wait in memory; %llu writes waited in the providers' buffers for room",
			 t->output, (unsigned long long)(st.queued >> 10),
			 (unsigned long long)st.not_queued);
	else if (error)
		snprintf(buf, len,
			 "writing %.400s failed (%s), then resumed: the archive lacks what was not written then",
			 t->output, strerror(-error));
	else if (t->recovered)
		snprintf(buf, len,
			 "resumed after a restart of fxtraced: %u of %u provider(s) handed their buffers back%s",
			 t->to_resume - t->awaited, t->to_resume,
			 !t->kernel ? "" : t->kernel_adopted ?
			 "; the kernel capture was taken back" :
			 "; kernel records of before the restart are lost");
}

void trace_format_status(const struct manager *m, unsigned int nproviders,
			 char *buf, size_t len)
{
	const struct trace *t = m->trace;

	char note[FXT_CTL_MESSAGE_MAX];
	struct archive_state st = { 0 };

	trace_write_note(m, note, sizeof(note));
	if (t->archive)
		archive_state(t->archive, &st);
	if (t->stopping)
		snprintf(buf, len, "Stopping trace %s: writing %s", t->id,
			 t->output);
	else
		snprintf(buf, len,
			 "Tracing to %s (trace %s, kernel %s): %u provider(s) connected, %llu bytes written%s%s",
			 t->output, t->id, kernel_source_backend(t->kernel),
			 nproviders, (unsigned long long)st.written,
			 note[0] ? "; " : "", note);
}
