// SPDX-License-Identifier: GPL-2.0-only
/*
 * The first pass of a merge: each input's host and clock records, then
 * the inputs' names and clock lines. See fxt_merge.h.
 */
#include <errno.h>
#include <string.h>

#include "fxt_merge.h"
#include "merge_clock.h"
#include "merge_input.h"
#include "merge_skim.h"

/*
 * The reader's pass over h, for input the skim leaves to it: it decodes
 * everything, and refuses what does not decode.
 */
static int read_whole(struct merge_host *h,
		      const struct fxt_merge_options *opt,
		      struct fxt_merge_problem *problem)
{
	struct merge_input in;
	struct fxt_record rec;
	uint64_t records = 0;
	int ret;

	ret = merge_input_open(&in, h, opt, problem);
	if (ret)
		return ret;
	while ((ret = merge_input_next(&in, &rec)) > 0) {
		records++;
		fxt_host_clock_take(&h->hc, &rec);
	}
	merge_input_close(&in);
	if (!ret && !records)
		return merge_problem(problem, -EBADMSG, h->index, false, 0,
				     "holds no FXT record");
	return ret;
}

static int scan(struct merge_host *h, const struct fxt_merge_options *opt,
		struct fxt_merge_problem *problem)
{
	int ret;

	memset(&h->hc, 0, sizeof(h->hc));
	ret = merge_skim(h, problem);
	if (ret != -EAGAIN)
		return ret;
	memset(&h->hc, 0, sizeof(h->hc));
	return read_whole(h, opt, problem);
}

/* h's clock line onto the first input's; -ENODATA if it has none. */
static int set_clock(struct merge_host *h, const struct merge_host *first,
		     const struct fxt_merge_options *opt,
		     struct fxt_merge_problem *problem)
{
	bool first_has = first->hc.has_start || first->hc.has_stop;

	h->clock_mapped = h != first && !merge_host_clock_line(h, first);
	if (h == first || h->clock_mapped || opt->assume_aligned)
		return 0;
	if (!first_has)
		return merge_problem(problem, -ENODATA, first->index, false, 0,
				     "has no clock record: the other inputs cannot be put on its clock (--assume-aligned takes them as they are)");
	return merge_problem(problem, -ENODATA, h->index, false, 0,
			     "has no clock record: its clock cannot be put on the first input's (--assume-aligned takes it as it is)");
}

int fxt_merge_prepare(struct merge_host *hosts, size_t n,
		      const struct fxt_merge_options *opt,
		      struct fxt_merge_problem *problem)
{
	size_t i;
	int ret;

	memset(problem, 0, sizeof(*problem));
	if (n > MERGE_HOSTS_MAX)
		return merge_problem(problem, -E2BIG, n - 1, false, 0,
				     "more than %u inputs: the pid field has room for %u hosts",
				     MERGE_HOSTS_MAX, MERGE_HOSTS_MAX);
	for (i = 0; i < n; i++) {
		hosts[i].index = (unsigned int)i;
		ret = scan(&hosts[i], opt, problem) ?:
		      merge_clock_check(&hosts[i], problem);
		if (ret)
			return ret;
	}
	for (i = 0; i < n; i++) {
		merge_host_name(&hosts[i], hosts);
		ret = set_clock(&hosts[i], &hosts[0], opt, problem);
		if (ret)
			return ret;
	}
	return 0;
}

void fxt_merge_release(struct merge_host *hosts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		merge_host_release(&hosts[i]);
}
