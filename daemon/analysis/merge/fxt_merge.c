// SPDX-License-Identifier: GPL-2.0-only
/* The second pass of a merge: see fxt_merge.h. */
#include <errno.h>
#include <string.h>

#include "fxt_merge.h"
#include "merge_input.h"
#include "merge_records.h"

static int record_failed(struct merge_out *o, struct merge_input *in,
			 const struct fxt_record *rec, int err)
{
	struct merge_host *h = in->host;

	if (fxt_writer_error(&o->w))
		return err;	/* the output's: said by the caller */
	if (err == -E2BIG)
		return merge_problem(in->problem, err, h->index, true,
				     rec->offset,
				     "legacy context switch on CPU %u: its CPU in the output, %u, does not fit the record's 8-bit field",
				     rec->sched.cpu,
				     merge_cpu(h, rec->sched.cpu));
	if (err == -ENOMEM)
		return merge_problem(in->problem, err, h->index, false, 0,
				     "out of memory");
	return merge_problem(in->problem, err, h->index, true, rec->offset,
			     "malformed: the record's words disagree with its decoding");
}

static int write_host(struct merge_out *o, struct merge_host *h,
		      const struct fxt_merge_options *opt,
		      struct fxt_merge_problem *problem)
{
	const struct fxt_reader_stats *s;
	struct merge_input in;
	struct fxt_record rec;
	int ret;

	memset(&h->stats, 0, sizeof(h->stats));
	ret = merge_input_open(&in, h, opt, problem);
	if (ret)
		return ret;
	ret = merge_out_begin_host(o, h);
	while (!ret && (ret = merge_input_next(&in, &rec)) > 0) {
		ret = merge_out_record(o, h, &rec);
		if (ret)
			ret = record_failed(o, &in, &rec, ret);
	}
	s = fxt_reader_stats(in.reader);
	h->stats.nonconforming = s->nonconforming;
	h->stats.unknown_skipped = s->unknown_skipped;
	merge_input_close(&in);
	return ret;
}

int fxt_merge_write(struct merge_host *hosts, size_t n, int out_fd,
		    const struct fxt_merge_options *opt,
		    struct fxt_merge_problem *problem)
{
	struct merge_out o = { 0 };
	size_t i;
	int ret;

	memset(problem, 0, sizeof(*problem));
	fxt_writer_init_fd(&o.w, out_fd);
	ret = fxt_write_magic(&o.w);
	for (i = 0; !ret && i < n; i++)
		ret = write_host(&o, &hosts[i], opt, problem);
	if (!ret)
		ret = fxt_writer_flush(&o.w) ?: fxt_writer_error(&o.w);
	if (ret && !problem->set)
		merge_problem(problem, ret, n, false, 0, "%s", strerror(-ret));
	merge_out_release(&o);
	return ret;
}
