/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the archive commands (dump, convert, summary, report) say on
 * stderr about the input they read, each the same way, and the limits
 * they share.
 */
#ifndef FXT_TRACECTL_READING_H
#define FXT_TRACECTL_READING_H

#include <stdbool.h>

#include "fxt_reader.h"

/*
 * True, after saying so on stderr, when path is not FXT: the reader
 * (refuse_not_fxt, unless --force) refused it, or found no FXT at all in
 * it (no magic number, no record). The commands then exit 1.
 */
bool tracectl_not_fxt(const char *cmd, const char *path,
		      const struct fxt_reader *r);

/* Says on stderr how many table entries the reader dropped, if any. */
void tracectl_report_tables(const char *cmd, const char *path,
			    const struct fxt_reader_stats *rs);

/*
 * Large records that dump and convert read whole (they only show their
 * size and first bytes): bigger ones are skipped, so that memory stays
 * bounded. summary and report skip every one over 1 MiB.
 */
#define TRACECTL_LARGE_RECORD_MAX (16ull << 20)

#endif /* FXT_TRACECTL_READING_H */
