// SPDX-License-Identifier: GPL-2.0-only
/* Is input without the magic number FXT: see fxt_sniff.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fxt_reader.h"
#include "fxt_sniff.h"

struct sniff {
	struct fxt_reader *r;
	bool at_eof;
	bool failed;
	char *reason;
	size_t reason_size;
};

/* The first problem is the reason; a head cut inside a record is none. */
static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	static const char skipped[] = "; skipped";
	struct sniff *s = ctx;
	size_t len;

	if (s->failed || kind == FXT_DIAG_LIMIT)
		return;
	if (!s->at_eof && fxt_reader_stats(s->r)->truncated)
		return;
	s->failed = true;
	/* what the reader would do next is not what happens here */
	len = strlen(reason);
	if (len > sizeof(skipped) - 1 &&
	    !strcmp(reason + len - (sizeof(skipped) - 1), skipped))
		len -= sizeof(skipped) - 1;
	snprintf(s->reason, s->reason_size,
		 "no magic number record, and its first records do not read as "
		 "FXT (at offset %" PRIu64 ": %.*s)", offset, (int)len, reason);
}

bool fxt_sniff_head(const void *head, size_t len, bool at_eof,
		    uint64_t max_large_record_bytes, char *reason,
		    size_t reason_size)
{
	struct sniff s = { .at_eof = at_eof, .reason = reason,
			   .reason_size = reason_size };
	struct fxt_reader_options opt = {
		.diag = on_diag,
		.diag_ctx = &s,
		.max_large_record_bytes = max_large_record_bytes,
	};
	struct fxt_record rec;
	unsigned int n = 0;

	s.r = fxt_reader_open_mem(head, len, &opt);
	if (!s.r) {
		snprintf(reason, reason_size, "out of memory judging the input");
		return false;
	}
	while (n < FXT_SNIFF_RECORDS && !s.failed &&
	       fxt_reader_next(s.r, &rec) > 0)
		n++;
	fxt_reader_close(s.r);
	if (!s.failed && !n) {
		s.failed = true;
		snprintf(reason, reason_size,
			 "no magic number record, and no whole record in its "
			 "first %zu bytes", len);
	}
	return !s.failed;
}
