// SPDX-License-Identifier: GPL-2.0-only
/*
 * The second reader skips large records past 1 MiB like the summary's:
 * only the scheduling records matter here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "why_run.h"

#define WHY_LARGE_RECORD_MAX (1ull << 20)

int why_run_init(struct why_run *wr, const struct trace_summary *s, size_t n)
{
	memset(wr, 0, sizeof(*wr));
	wr->cap = n ? n : 1;
	wr->windows = calloc(wr->cap, sizeof(*wr->windows));
	wr->tids = calloc(wr->cap, sizeof(*wr->tids));
	wr->labels = calloc(wr->cap, sizeof(*wr->labels));
	wr->trees = calloc(wr->cap, sizeof(*wr->trees));
	wr->report.summary = s;
	return wr->windows && wr->tids && wr->labels && wr->trees ? 0 :
								     -ENOMEM;
}

void why_run_add(struct why_run *wr, uint64_t tid, uint64_t start_ns,
		 uint64_t end_ns, const char *label)
{
	if (wr->n == wr->cap)
		return;
	wr->labels[wr->n] = label;
	wr->windows[wr->n] = (struct why_window){ start_ns, end_ns };
	wr->tids[wr->n++] = tid;
}

static int read_sched(struct why_run *wr, int fd)
{
	struct fxt_reader_options opt = {
		.max_large_record_bytes = WHY_LARGE_RECORD_MAX,
	};
	struct fxt_record rec;
	struct fxt_reader *r;
	int ret;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	r = fxt_reader_open_fd(fd, &opt);
	if (!r)
		return -ENOMEM;
	while ((ret = fxt_reader_next(r, &rec)) > 0) {
		ret = why_sched_take(&wr->sched, &rec);
		if (ret)
			break;
	}
	fxt_reader_close(r);
	return ret < 0 ? ret : why_sched_finish(&wr->sched);
}

static int index_samples(struct why_run *wr)
{
	const struct trace_summary *s = wr->report.summary;
	int err;

	if (!s->profile.tables)
		return 0;
	err = why_samples_index(&s->stacks, false, &wr->oncpu, &wr->noncpu);
	return err ? err :
		     why_samples_index(&s->stacks, true, &wr->offcpu,
				       &wr->noffcpu);
}

int why_run_build(struct why_run *wr, int fd, unsigned int depth,
		  bool running_at_end)
{
	const struct trace_summary *s = wr->report.summary;
	struct why_inputs in = { .sched = &wr->sched,
				 .depth = depth ? depth : WHY_DEPTH_DEFAULT };
	size_t i;
	int err;

	why_sched_init(&wr->sched, wr->windows, wr->n);
	err = read_sched(wr, fd);
	if (!err)
		err = index_samples(wr);
	in.profile = s->profile.tables ? &s->profile : NULL;
	in.oncpu = wr->oncpu;
	in.noncpu = wr->noncpu;
	in.offcpu = wr->offcpu;
	in.noffcpu = wr->noffcpu;
	for (i = 0; i < wr->n && !err; i++) {
		err = why_path_build(&wr->trees[i], &in, wr->tids[i],
				     wr->windows[i].start_ns,
				     wr->windows[i].end_ns, running_at_end);
		wr->trees[i].label = wr->labels[i];
	}
	wr->report.profile = in.profile;
	wr->report.oncpu = wr->noncpu;
	wr->report.offcpu = wr->noffcpu;
	wr->report.trees = wr->trees;
	wr->report.ntrees = wr->n;
	wr->report.irq = wr->sched.irq_seen;
	wr->report.mem = wr->sched.mem_seen;
	wr->report.sched_records = wr->sched.records;
	wr->report.events_dropped = wr->sched.dropped;
	wr->report.overlays_lost = wr->sched.overlays_lost;
	wr->report.flows_lost = wr->sched.flows_lost;
	return err;
}

void why_run_free(struct why_run *wr)
{
	size_t i;

	for (i = 0; wr->trees && i < wr->n; i++)
		why_tree_free(&wr->trees[i]);
	free(wr->trees);
	free(wr->windows);
	free(wr->tids);
	free(wr->labels);
	free(wr->oncpu);
	free(wr->offcpu);
	why_sched_free(&wr->sched);
	memset(wr, 0, sizeof(*wr));
}
