// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "mmap_tracker.h"

int mmap_tracker_start(struct mmap_tracker **ret)
{
	return -ENOSYS;
}

int mmap_tracker_drain(struct mmap_tracker *t)
{
	return -ENOSYS;
}

int mmap_tracker_find(struct mmap_tracker *t, uint32_t pid, uint64_t pc,
		      uint64_t ts, struct mmap_hit *hit)
{
	return -ENOSYS;
}

void mmap_tracker_stats(const struct mmap_tracker *t,
			struct mmap_tracker_stats *stats)
{
	*stats = (struct mmap_tracker_stats){ 0 };
}

void mmap_tracker_free(struct mmap_tracker *t)
{
}
