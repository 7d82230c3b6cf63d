// SPDX-License-Identifier: GPL-2.0-only
/* The second pass of a merge: see fxt_merge.h. */
#include <errno.h>
#include <string.h>

#include "fxt_merge.h"
#include "merge_input.h"
#include "merge_mark.h"
#include "merge_records.h"

static int record_failed(struct merge_out *o, struct merge_input *in,
			 const struct fxt_record *rec, int err)
{
	struct merge_host *h = in->host;
	size_t i = h->index;
	uint64_t at = rec->offset;

	if (fxt_writer_error(&o->w))
		return err;	/* the output's: said by the caller */
	switch (err) {
	case -E2BIG:
		return merge_problem(in->problem, err, i, true, at,
				     "CPU %u: past the %u CPUs a scheduling record can name, with the earlier inputs' CPUs before it",
				     rec->sched.cpu, MERGE_CPUS_MAX);
	case -ERANGE:
		return merge_problem(in->problem, err, i, true, at,
				     "legacy context switch on CPU %u: its number in the output, %u or more, does not fit the record's 8 bits",
				     rec->sched.cpu, h->cpu_base);
	case -ENOSPC:
		return merge_problem(in->problem, err, i, true, at,
				     "more than %u providers: not an archive fxtrace can merge",
				     MERGE_PROVIDERS_MAX);
	case -ENOMEM:
		return merge_problem(in->problem, err, i, false, 0,
				     "out of memory");
	default:
		return merge_problem(in->problem, err, i, true, at,
				     "malformed: the record's words disagree with its decoding");
	}
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
	if (!ret)
		ret = merge_out_end_host(o);
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
	struct merge_out o = { .next_provider = 1 };
	uint64_t cpus = 0;
	size_t i;
	int ret;

	memset(problem, 0, sizeof(*problem));
	fxt_writer_init_fd(&o.w, out_fd);
	ret = fxt_write_magic(&o.w) ?:
	      merge_out_mark(&o, hosts, n, opt->trace_id);
	for (i = 0; !ret && i < n; i++) {
		/* its CPUs after the CPUs of the inputs before it */
		hosts[i].cpu_base = (unsigned int)cpus;
		hosts[i].has_cpus = false;
		hosts[i].cpu_max = 0;
		merge_stack_ids_follow(&hosts[i].stack_ids,
				       i ? &hosts[i - 1].stack_ids : NULL);
		ret = write_host(&o, &hosts[i], opt, problem);
		if (hosts[i].has_cpus)
			cpus = fxt_sat_add(cpus, (uint64_t)hosts[i].cpu_max + 1);
		if (cpus > MERGE_CPUS_MAX)
			cpus = MERGE_CPUS_MAX;
	}
	if (!ret)
		ret = merge_out_cpus(&o, hosts, n);
	if (!ret)
		ret = fxt_writer_flush(&o.w) ?: fxt_writer_error(&o.w);
	if (ret && !problem->set)
		merge_problem(problem, ret, n, false, 0, "%s", strerror(-ret));
	merge_out_release(&o);
	return ret;
}
