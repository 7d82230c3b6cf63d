// SPDX-License-Identifier: GPL-2.0-only
/* What the archive commands say about their input: see tracectl_reading.h. */
#include <inttypes.h>
#include <stdio.h>

#include "tracectl_reading.h"

bool tracectl_not_fxt(const char *cmd, const char *path,
		      const struct fxt_reader *r)
{
	const struct fxt_reader_stats *rs = fxt_reader_stats(r);
	const char *why = fxt_reader_not_fxt(r);

	if (why) {
		fprintf(stderr, "tracectl %s: '%s' is not an FXT archive: %s; "
				"give an FXT archive, or --force to read it "
				"anyway\n", cmd, path, why);
		return true;
	}
	if (rs->magic_seen || rs->records)
		return false;
	fprintf(stderr, "tracectl %s: '%s' is not an FXT archive (no magic "
			"number, no records)\n", cmd, path);
	return true;
}

void tracectl_report_tables(const char *cmd, const char *path,
			    const struct fxt_reader_stats *rs)
{
	if (rs->table_entries_dropped)
		fprintf(stderr, "tracectl %s: %s: %" PRIu64 " string or thread "
				"record(s) past the %llu MiB the providers' "
				"tables may hold were dropped; what refers to "
				"them reads as empty\n", cmd, path,
			rs->table_entries_dropped,
			FXT_READER_TABLE_BYTES_MAX >> 20);
}
