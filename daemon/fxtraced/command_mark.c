// SPDX-License-Identifier: GPL-2.0-only
/* The mark of tracectl record's command: see command_mark.h. */
#include <stdbool.h>

#include <fxt/record_command.h>

#include "archive.h"
#include "command_mark.h"
#include "fxt_writer.h"

int command_mark_write(struct archive *a, uint32_t id, pid_t pid, uint64_t ts)
{
	const struct fxt_writer_event ev = {
		.ts = ts,
		.thread = fxt_wthread((uint64_t)pid, (uint64_t)pid),
		.category = fxt_wstr(FXT_RECORD_COMMAND_CATEGORY),
		.name = fxt_wstr(FXT_RECORD_COMMAND_NAME),
	};
	struct fxt_writer w;
	bool visited = false;
	int r;

	r = archive_begin_section(a, id, FXT_RECORD_COMMAND_PROVIDER, &visited,
				  true);
	if (r < 0)
		return r;
	fxt_writer_init(&w);
	fxt_write_instant(&w, &ev, FXT_SCOPE_THREAD);
	r = fxt_writer_error(&w);
	if (!r)
		r = archive_write(a, fxt_writer_data(&w), fxt_writer_size(&w));
	fxt_writer_release(&w);
	if (r < 0) {
		/* The section begun stays: an empty one, harmless. */
		(void)archive_commit(a, id, 0);
		return r;
	}
	return archive_commit(a, id, 1);
}
