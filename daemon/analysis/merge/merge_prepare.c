// SPDX-License-Identifier: GPL-2.0-only
/*
 * The first pass of a merge: what each input names (host and clock
 * records, CPUs, providers), then how the inputs are numbered in the
 * output. See fxt_merge.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fxt_merge.h"
#include "merge_input.h"

static int note_provider(struct merge_input *in, const struct fxt_record *rec)
{
	int ret = merge_host_add_provider(in->host, rec->metadata.provider_id);

	if (ret == -E2BIG)
		return merge_problem(in->problem, ret, in->host->index, true,
				     rec->offset,
				     "more than %u providers: not an archive fxtrace can merge",
				     MERGE_PROVIDERS_MAX);
	if (ret)
		return merge_problem(in->problem, ret, in->host->index, false,
				     0, "out of memory");
	return 0;
}

static void note_sched(struct merge_host *h, const struct fxt_record *rec)
{
	merge_host_add_cpu(h, rec->sched.cpu);
	switch (rec->sched.type) {
	case FXT_SCHED_THREAD_WAKEUP:
		merge_host_add_idle_koid(h, rec->sched.woken.tid);
		break;
	default:
		merge_host_add_idle_koid(h, rec->sched.out_thread.tid);
		merge_host_add_idle_koid(h, rec->sched.in_thread.tid);
		break;
	}
}

static int note_record(struct merge_input *in, const struct fxt_record *rec)
{
	struct merge_host *h = in->host;

	if (fxt_host_clock_take(&h->hc, rec))
		return 0;
	switch (rec->type) {
	case FXT_RECORD_METADATA:
		if (rec->metadata.type == FXT_METADATA_PROVIDER_INFO ||
		    rec->metadata.type == FXT_METADATA_PROVIDER_SECTION ||
		    rec->metadata.type == FXT_METADATA_PROVIDER_EVENT)
			return note_provider(in, rec);
		return 0;
	case FXT_RECORD_SCHEDULING:
		note_sched(h, rec);
		return 0;
	case FXT_RECORD_KERNEL_OBJECT:
		if (rec->kernel_object.obj_type == FXT_ZX_OBJ_THREAD)
			merge_host_add_idle_koid(h, rec->kernel_object.koid);
		return 0;
	default:
		return 0;
	}
}

/* Reads input h whole: what it names, and whether it decodes. */
static int scan(struct merge_host *h, const struct fxt_merge_options *opt,
		struct fxt_merge_problem *problem)
{
	struct merge_input in;
	struct fxt_record rec;
	uint64_t records = 0;
	int ret;

	memset(&h->hc, 0, sizeof(h->hc));
	/* Records before any provider section: the input's provider 0. */
	if (merge_host_add_provider(h, 0))
		return merge_problem(problem, -ENOMEM, h->index, false, 0,
				     "out of memory");
	ret = merge_input_open(&in, h, opt, problem);
	if (ret)
		return ret;
	while ((ret = merge_input_next(&in, &rec)) > 0) {
		records++;
		ret = note_record(&in, &rec);
		if (ret)
			break;
	}
	merge_input_close(&in);
	if (!ret && !records)
		return merge_problem(problem, -EBADMSG, h->index, false, 0,
				     "holds no FXT record");
	return ret;
}

/* Whether h's times go through REALTIME; -ENODATA if they cannot. */
static int set_clock(struct merge_host *h, struct merge_host *first,
		     const struct fxt_merge_options *opt,
		     struct fxt_merge_problem *problem)
{
	bool has = h->hc.has_start || h->hc.has_stop;
	bool first_has = first->hc.has_start || first->hc.has_stop;

	h->onto = &first->hc;
	h->clock_mapped = h != first && has && first_has;
	if (h == first || h->clock_mapped || opt->assume_aligned)
		return 0;
	if (!first_has)
		return merge_problem(problem, -ENODATA, first->index, false, 0,
				     "has no clock record: the other inputs cannot be put on its clock (--assume-aligned takes them as they are)");
	return merge_problem(problem, -ENODATA, h->index, false, 0,
			     "has no clock record: its clock cannot be put on the first input's (--assume-aligned takes it as it is)");
}

/* CPU, provider and clock numbering of the inputs, in their order. */
static int number(struct merge_host *hosts, size_t n,
		  const struct fxt_merge_options *opt,
		  struct fxt_merge_problem *problem)
{
	uint64_t cpus = 0, providers = 1;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		struct merge_host *h = &hosts[i];

		merge_host_name(h, hosts);
		ret = set_clock(h, &hosts[0], opt, problem);
		if (ret)
			return ret;
		h->cpu_base = (unsigned int)cpus;
		if (h->has_cpus)
			cpus += (uint64_t)h->cpu_max + 1;
		if (cpus > MERGE_CPUS_MAX)
			return merge_problem(problem, -E2BIG, i, false, 0,
					     "more than %u CPUs in all: past the CPU field of a scheduling record",
					     MERGE_CPUS_MAX);
		h->provider_base = (uint32_t)providers;
		providers += h->nproviders;
	}
	return 0;
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
		ret = scan(&hosts[i], opt, problem);
		if (ret)
			return ret;
	}
	return number(hosts, n, opt, problem);
}

void fxt_merge_release(struct merge_host *hosts, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		merge_host_release(&hosts[i]);
}
