// SPDX-License-Identifier: GPL-2.0-only
/* A merged archive's inputs: see summary_merged.h. */
#include <errno.h>
#include <stdlib.h>

#include "summary_merged.h"

int summary_merged_take(struct summary_merged *m, const struct fxt_record *rec)
{
	struct fxt_merge_input in;
	struct fxt_merge_input *v;

	if (!fxt_host_merge_take(&in, rec) || m->n >= FXT_MERGE_INPUTS_MAX)
		return 0;
	v = realloc(m->inputs, (m->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[m->n++] = in;
	m->inputs = v;
	return 0;
}

void summary_merged_free(struct summary_merged *m)
{
	free(m->inputs);
	m->inputs = NULL;
	m->n = 0;
}
