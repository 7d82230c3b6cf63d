// SPDX-License-Identifier: GPL-2.0-only
/* One input of a merge: see merge_host.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge_host.h"

/* The rank of id in the sorted ids, or where it would go. */
static size_t provider_rank(const struct merge_host *h, uint32_t id)
{
	size_t lo = 0, hi = h->nproviders;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (h->provider_ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t merge_provider_id(const struct merge_host *h, uint32_t id)
{
	return h->provider_base + (uint32_t)provider_rank(h, id);
}

int merge_host_add_provider(struct merge_host *h, uint32_t id)
{
	size_t rank = provider_rank(h, id);
	uint32_t *ids;

	if (rank < h->nproviders && h->provider_ids[rank] == id)
		return 0;
	if (h->nproviders >= MERGE_PROVIDERS_MAX)
		return -E2BIG;
	ids = realloc(h->provider_ids, (h->nproviders + 1) * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	memmove(&ids[rank + 1], &ids[rank],
		(h->nproviders - rank) * sizeof(*ids));
	ids[rank] = id;
	h->provider_ids = ids;
	h->nproviders++;
	return 0;
}

void merge_host_add_cpu(struct merge_host *h, uint64_t cpu)
{
	if (cpu >= MERGE_CPUS_MAX)
		return;
	if (!h->has_cpus || cpu > h->cpu_max)
		h->cpu_max = (unsigned int)cpu;
	h->has_cpus = true;
}

void merge_host_add_idle_koid(struct merge_host *h, uint64_t koid)
{
	if (koid >= FXT_KIRQ_IDLE_KOID_BASE)
		merge_host_add_cpu(h, koid - FXT_KIRQ_IDLE_KOID_BASE);
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
	free(h->provider_ids);
	h->provider_ids = NULL;
	h->nproviders = 0;
}
