// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include <fxt/fxt_sched_uapi.h>
#include <fxt/ksample.h>

#include "kernel_profile.h"
#include "profile_sources.h"

struct kernel_profile {
	struct profile_sources *src;
	struct profile_resolver r;
	struct profile_ingest *ingest;
};

/* 1..255, at random: the generations of one trace differ (1 in 255). */
static uint8_t new_generation(void)
{
	uint8_t g = 0;

	while (!g)
		if (getrandom(&g, sizeof(g), 0) != sizeof(g))
			g = (uint8_t)(1 + (uint64_t)time(NULL) % 255);
	return g;
}

int kernel_profile_new(uint32_t events, bool adopted,
		       struct kernel_profile **ret)
{
	struct kernel_profile *kp;
	int err;

	*ret = NULL;
	if (!(events & FXT_SCHED_EV_STACKS))
		return 0;
	kp = calloc(1, sizeof(*kp));
	if (!kp)
		return -ENOMEM;
	err = profile_sources_new("/proc/kallsyms", true, &kp->src);
	if (!err) {
		profile_sources_resolver(kp->src, &kp->r);
		err = profile_ingest_new(&kp->r, 0, 0, &kp->ingest);
	}
	if (!err && adopted)
		profile_ingest_set_generation(kp->ingest, new_generation());
	if (err) {
		kernel_profile_free(kp);
		return err;
	}
	*ret = kp;
	return 0;
}

void kernel_profile_free(struct kernel_profile *kp)
{
	if (!kp)
		return;
	profile_ingest_free(kp->ingest);
	profile_sources_free(kp->src);
	free(kp);
}

void kernel_profile_refresh(struct kernel_profile *kp)
{
	if (kp)
		profile_sources_refresh(kp->src);
}

bool kernel_profile_follow(struct kernel_profile *kp)
{
	if (!kp)
		return false;
	profile_sources_follow(kp->src);
	return true;
}

struct profile_ingest *kernel_profile_ingest(struct kernel_profile *kp)
{
	return kp ? kp->ingest : NULL;
}

int kernel_profile_snapshot_ingest(struct kernel_profile *kp,
				   struct profile_ingest **ret)
{
	*ret = NULL;
	return kp ? profile_ingest_new(&kp->r, 0, 0, ret) : 0;
}

bool kernel_profile_filter(struct profile_ingest *pi, const uint64_t *rec,
			   size_t words, profile_emit_fn emit, void *ctx,
			   uint64_t *lost, int *err)
{
	*err = 0;
	if (words < 2 || !fxt_ksample_is(rec[0], rec[1]))
		return false;
	if (pi)
		*err = profile_ingest_record(pi, rec, words, emit, ctx);
	else
		(*lost)++;
	return true;
}

int kernel_profile_ksyms_error(const struct kernel_profile *kp)
{
	struct profile_sources_status st;

	if (!kp)
		return 0;
	profile_sources_status(kp->src, &st);
	return st.ksyms_error;
}

int kernel_profile_tracker_error(const struct kernel_profile *kp)
{
	struct profile_sources_status st;

	if (!kp)
		return 0;
	profile_sources_status(kp->src, &st);
	return st.tracker_error;
}

void kernel_profile_add_stats(const struct kernel_profile *kp,
			      struct kernel_session_stats *st)
{
	struct profile_ingest_stats ps;
	struct profile_sources_status ss;

	if (!kp)
		return;
	profile_ingest_stats(kp->ingest, &ps);
	st->dropped += ps.dropped;
	st->event_dropped[FXT_SCHED_EV_BIT_SAMPLE] +=
		ps.dropped - ps.dropped_offcpu;
	st->event_dropped[FXT_SCHED_EV_BIT_OFFCPU] += ps.dropped_offcpu;
	st->perfetto_dropped += ps.perfetto_dropped;
	st->leaf_caller_unknown += ps.leaf_caller_unknown;
	profile_sources_status(kp->src, &ss);
	st->files_unreadable += ss.files_unreadable;
	st->files_unopened += ss.files_unopened;
	st->files_too_large += ss.usyms.too_large;
	st->files_over_budget += ss.usyms.over_budget + ss.usyms.files_refused;
}

void kernel_profile_finishing(struct kernel_profile *kp)
{
	struct timespec ts;
	struct usyms_budget b = { .bytes = 0 };

	if (!kp)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	b.deadline_ns = (uint64_t)ts.tv_sec * 1000000000ull +
			(uint64_t)ts.tv_nsec + KERNEL_PROFILE_SYMBOLS_NS;
	profile_sources_set_budget(kp->src, &b);
}
