// SPDX-License-Identifier: GPL-2.0-only
/* Per-CPU scheduling state: see cpu_tracks.h. */
#include <stdlib.h>
#include <string.h>

#include "cpu_tracks.h"

static int grow(struct cpu_tracks *t, unsigned int n)
{
	unsigned int count = t->count ? t->count : 16;
	struct cpu_state *cpu;

	while (count <= n)
		count *= 2;
	if (count > CPU_TRACKS_MAX)
		count = CPU_TRACKS_MAX;
	cpu = realloc(t->cpu, count * sizeof(*cpu));
	if (!cpu)
		return -1;
	memset(cpu + t->count, 0, (count - t->count) * sizeof(*cpu));
	t->cpu = cpu;
	t->count = count;
	return 0;
}

struct cpu_state *cpu_tracks_get(struct cpu_tracks *t, unsigned int n)
{
	if (n >= CPU_TRACKS_MAX)
		return NULL;
	if (n >= t->count && grow(t, n))
		return NULL;
	return &t->cpu[n];
}

void cpu_tracks_free(struct cpu_tracks *t)
{
	free(t->cpu);
	t->cpu = NULL;
	t->count = 0;
}

void cpu_state_switch_in(struct cpu_state *cpu, const struct fxt_record *rec,
			 uint64_t ns)
{
	const struct fxt_thread_id *in = &rec->sched.in_thread;
	const struct fxt_arg *weight;

	weight = fxt_record_arg(rec, "incoming_weight", 15);
	if (weight && weight->type != FXT_ARG_INT32)
		weight = NULL;
	cpu->running = false;
	if (!in->tid || (weight && weight->value.i32 == INT32_MIN))
		return;		/* idle */
	cpu->running = true;
	cpu->start_ns = ns;
	cpu->tid = in->tid;
	cpu->pid = in->pid;
	cpu->has_weight = weight != NULL;
	cpu->weight = weight ? weight->value.i32 : 0;
	cpu->has_prio = rec->sched.type == FXT_SCHED_LEGACY_CONTEXT_SWITCH;
	cpu->prio = (uint8_t)rec->sched.in_prio;
}
