// SPDX-License-Identifier: GPL-2.0-only
/* One pass of a merge over one input: see merge_input.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "merge_input.h"

int merge_problem(struct fxt_merge_problem *problem, int err, size_t host,
		  bool has_offset, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (problem->set)
		return err;
	problem->set = true;
	problem->host = host;
	problem->has_offset = has_offset;
	problem->offset = offset;
	va_start(ap, fmt);
	vsnprintf(problem->reason, sizeof(problem->reason), fmt, ap);
	va_end(ap);
	return err;
}

/*
 * What the reader skips or drops would leave a hole in the merged
 * archive: the input is refused. What it only finds nonconforming is
 * copied and counted; records of unknown types are left out and counted.
 */
static void on_diag(void *ctx, enum fxt_diag_kind kind, uint64_t offset,
		    const char *reason)
{
	struct merge_input *in = ctx;

	if (kind != FXT_DIAG_MALFORMED && kind != FXT_DIAG_LIMIT)
		return;
	merge_problem(in->problem, -EBADMSG, in->host->index, true, offset,
		      "%s: %s", fxt_diag_kind_name(kind), reason);
}

int merge_input_open(struct merge_input *in, struct merge_host *h,
		     const struct fxt_merge_options *opt,
		     struct fxt_merge_problem *problem)
{
	struct fxt_reader_options ropt = {
		.expect_magic = true,
		.refuse_not_fxt = true,
		.diag = on_diag,
		.diag_ctx = in,
		.max_large_record_bytes = opt->max_large_record_bytes ?
			opt->max_large_record_bytes : FXT_MERGE_LARGE_RECORD_MAX,
	};

	*in = (struct merge_input){ .host = h, .problem = problem };
	if (lseek(h->fd, 0, SEEK_SET) < 0)
		return merge_problem(problem, -errno, h->index, false, 0,
				     "cannot read it twice (%s): give a file",
				     strerror(errno));
	in->reader = fxt_reader_open_fd(h->fd, &ropt);
	if (!in->reader)
		return merge_problem(problem, -ENOMEM, h->index, false, 0,
				     "out of memory");
	return 0;
}

int merge_input_next(struct merge_input *in, struct fxt_record *rec)
{
	const char *why;
	int ret = fxt_reader_next(in->reader, rec);

	if (in->problem->set)
		return -EBADMSG;
	if (ret < 0)
		return merge_problem(in->problem, ret, in->host->index, true,
				     fxt_reader_stats(in->reader)->bytes,
				     "read error: %s", strerror(-ret));
	if (ret)
		return ret;
	why = fxt_reader_not_fxt(in->reader);
	if (why)
		return merge_problem(in->problem, -EBADMSG, in->host->index,
				     false, 0, "not an FXT archive: %s", why);
	return 0;
}

void merge_input_close(struct merge_input *in)
{
	fxt_reader_close(in->reader);
	in->reader = NULL;
}
