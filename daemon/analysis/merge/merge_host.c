// SPDX-License-Identifier: GPL-2.0-only
/* One input of a merge: see merge_host.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge_host.h"

int merge_host_clock_line(struct merge_host *h,
			  const struct merge_host *first)
{
	const struct fxt_host_clock *hc = &h->hc, *onto = &first->hc;
	uint64_t x1, y1;

	if (!(hc->has_start || hc->has_stop) ||
	    !(onto->has_start || onto->has_stop))
		return -EDOM;
	h->line.x0 = hc->has_start ? hc->start.boottime : hc->stop.boottime;
	h->line.y0 = fxt_host_clock_from_realtime(
		onto, fxt_host_clock_to_realtime(hc, h->line.x0));
	h->line.slope = 1.0;
	/* A second point a trace's length away (a day when there is none). */
	x1 = hc->has_start && hc->has_stop && hc->stop.boottime > h->line.x0 ?
		     hc->stop.boottime :
		     fxt_sat_add(h->line.x0, 86400000000000ull);
	y1 = fxt_host_clock_from_realtime(onto,
					  fxt_host_clock_to_realtime(hc, x1));
	if (x1 > h->line.x0 && y1 > h->line.y0)
		h->line.slope = (double)(y1 - h->line.y0) /
				(double)(x1 - h->line.x0);
	return 0;
}

/* The index of id in the sorted providers, or where it would go. */
static size_t provider_rank(const struct merge_host *h, uint32_t id)
{
	size_t lo = 0, hi = h->nproviders;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->providers[mid].in < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int merge_provider_id(struct merge_host *h, uint32_t id, uint32_t *next_id,
		      uint32_t *out)
{
	size_t rank = provider_rank(h, id);
	struct merge_provider *p;

	if (rank < h->nproviders && h->providers[rank].in == id) {
		*out = h->providers[rank].out;
		return 0;
	}
	if (h->nproviders >= MERGE_PROVIDERS_MAX)
		return -E2BIG;
	p = realloc(h->providers, (h->nproviders + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	memmove(&p[rank + 1], &p[rank], (h->nproviders - rank) * sizeof(*p));
	p[rank] = (struct merge_provider){ .in = id, .out = (*next_id)++ };
	h->providers = p;
	h->nproviders++;
	*out = p[rank].out;
	return 0;
}

void merge_host_name(struct merge_host *h, const struct merge_host *hosts)
{
	size_t len;
	unsigned int i;

	if (h->hc.has_host && h->hc.hostname[0])
		snprintf(h->name, sizeof(h->name), "%s", h->hc.hostname);
	else
		snprintf(h->name, sizeof(h->name), "host%u", h->index + 1);
	for (i = 0; i < h->index; i++) {
		if (strcmp(hosts[i].name, h->name))
			continue;
		len = strlen(h->name);
		snprintf(h->name + len, sizeof(h->name) - len, "#%u",
			 h->index + 1);
		break;
	}
}

void merge_host_release(struct merge_host *h)
{
	free(h->providers);
	h->providers = NULL;
	h->nproviders = 0;
}
