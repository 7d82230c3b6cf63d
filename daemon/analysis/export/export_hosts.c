// SPDX-License-Identifier: GPL-2.0-only
/* A merged archive's hosts: see export_hosts.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_hosts.h"

static int add_input(struct export_hosts *hs, const struct fxt_merge_input *in)
{
	struct export_host *v;

	if (hs->n >= FXT_MERGE_INPUTS_MAX)
		return 0; /* no pid names more */
	v = realloc(hs->v, (hs->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	hs->v = v;
	v += hs->n++;
	memset(v, 0, sizeof(*v));
	memcpy(v->name, in->host, sizeof(v->name));
	v->len = strlen(v->name);
	return 0;
}

/* Its CPUs to the input of that name (the names in a merge are unique). */
static void add_cpus(struct export_hosts *hs, const struct fxt_merge_cpus *c)
{
	size_t i;

	for (i = 0; i < hs->n; i++) {
		if (strcmp(hs->v[i].name, c->host))
			continue;
		hs->v[i].cpu_base = c->cpu_base;
		hs->v[i].cpus = c->cpus;
		return;
	}
}

int export_hosts_take(void *ctx, const struct fxt_record *rec)
{
	struct export_hosts *hs = ctx;
	struct fxt_merge_input in;
	struct fxt_merge_cpus c;

	if (fxt_host_merge_take(&in, rec))
		return add_input(hs, &in);
	if (fxt_host_merge_cpus_take(&c, rec))
		add_cpus(hs, &c);
	return 0;
}

void export_hosts_free(struct export_hosts *hs)
{
	free(hs->v);
	hs->v = NULL;
	hs->n = 0;
}

const struct export_host *export_hosts_by_pid(const struct export_hosts *hs,
					      uint64_t pid)
{
	uint64_t i = pid >> FXT_MERGE_PID_BITS;

	return hs && i < hs->n && hs->v[i].len ? &hs->v[i] : NULL;
}

const struct export_host *export_hosts_by_cpu(const struct export_hosts *hs,
					      uint64_t cpu)
{
	size_t i;

	for (i = 0; hs && i < hs->n; i++)
		if (hs->v[i].len && cpu >= hs->v[i].cpu_base &&
		    cpu - hs->v[i].cpu_base < hs->v[i].cpus)
			return &hs->v[i];
	return NULL;
}
