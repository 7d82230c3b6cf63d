// SPDX-License-Identifier: GPL-2.0-only
/*
 * The buffers a trace may give: the sizes its memory budget plans
 * (memory_budget.h), each user's budget of buffers (root aside), and in
 * circular mode the buffers of providers gone given up for new ones.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <fxt/fxt_sched_uapi.h>

#include "kernel_config.h"
#include "kernel_source.h"
#include "log.h"
#include "manager_state.h"
#include "memory_budget.h"
#include "provider.h"
#include "trace_budget.h"
#include "trace_types.h"

#if FXT_HAVE_BPF_BACKEND
#include <bpf/libbpf.h>
#endif

/*
 * The buffer sizes, from the memory budget where the request leaves them
 * open (memory_budget.h); kept in req, so that a restart plans the same.
 */
int trace_plan_memory(struct manager *m, struct trace *t, char *note,
		      size_t note_len)
{
	struct memory_plan plan;
	/* Both backends have a ring per possible CPU. */
#if FXT_HAVE_BPF_BACKEND
	int ncpus = libbpf_num_possible_cpus();
#else
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
#endif
	int r;

	t->ncpus = ncpus > 0 ? (unsigned int)ncpus : 1;
	r = memory_budget_plan(t->req.memory_budget, t->ncpus,
			       t->req.kernel != FXT_CTL_KERNEL_OFF,
			       t->req.buffer_size ?
				       (t->req.buffer_size + 7) & ~7ull : 0,
			       t->req.kernel_buffer_size,
			       m->default_buffer_size, FXT_SCHED_BUFFER_MIN,
			       FXT_SCHED_BUFFER_MAX, PROVIDER_BUFFER_MIN_SIZE,
			       &plan, note, note_len);
	if (r < 0)
		return r;
	t->buffer_size = plan.buffer_size;
	t->req.buffer_size = plan.buffer_size;
	t->req.kernel_buffer_size = plan.kernel_bytes_per_cpu;
	return 0;
}

/*
 * Buffer data bytes the trace holds, as its memory budget counts them:
 * a buffer for each provider given one (a provider gone keeps its buffer
 * till the end: circular), the kernel rings of every CPU.
 */
uint64_t trace_memory_used(const struct trace *t)
{
	uint64_t n = t->nlisted * t->buffer_size;

	if (t->kernel && strcmp(kernel_source_backend(t->kernel), "off"))
		n += t->req.kernel_buffer_size * t->ncpus;
	return n;
}

/* Buffer data bytes the providers of uid hold in the trace. */
static uint64_t buffers_of(const struct manager *m, uid_t uid)
{
	const struct provider *p;
	uint64_t n = 0;

	for (p = m->providers; p; p = p->next)
		if (p->in_trace && p->uid == uid)
			n += m->trace->buffer_size;
	return n;
}

/*
 * Each buffer is shared memory the manager maps: one uid (root aside)
 * may not pin more than its budget, however many providers it starts.
 */
int trace_check_budget(struct manager *m, struct provider *p)
{
	uint64_t held;

	if (!p->uid || !m->user_buffer_budget)
		return 0;
	held = buffers_of(m, p->uid);
	if (held + m->trace->buffer_size <= m->user_buffer_budget)
		return 0;
	p->over_budget = true;
	if (log_burst_take(&m->over_budget, m->event))
		log_full(LOG_WARNING, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] gets no buffer: uid %u holds %llu KiB of buffers, its budget is %llu KiB (fxtraced --user-buffer-budget)",
			 p->name, (int)p->pid, (unsigned int)p->uid,
			 (unsigned long long)(held >> 10),
			 (unsigned long long)(m->user_buffer_budget >> 10));
	return -EDQUOT;
}

static void unlist_provider(struct trace *t, uint32_t id)
{
	size_t i;

	for (i = 0; i < t->nlisted; i++)
		if (t->listed[i].id == id) {
			t->listed[i] = t->listed[--t->nlisted];
			return;
		}
}

/*
 * A provider listed before a restart that did not come back by the
 * deadline (it died meanwhile): its share of the budget is given up.
 */
static bool unlist_not_back(struct trace *t)
{
	size_t i;

	if (!t->recovered || now_ns() / 1000 < t->resume_deadline_usec)
		return false;
	for (i = 0; i < t->nlisted; i++)
		if (!t->listed[i].reserved) {
			log_full(LOG_INFO, 0, TRACE_LOG_FIELDS(t),
				 "Provider %.*s[%d] of before the restart did not come back: its share of the memory budget goes to a provider that comes",
				 (int)sizeof(t->listed[i].name),
				 t->listed[i].name, (int)t->listed[i].pid);
			unlist_provider(t, t->listed[i].id);
			return true;
		}
	return false;
}

/*
 * Circular: the buffers of providers gone make room for a new one, the
 * one that joined first first. What they hold is the oldest past, which
 * a circular trace gives up first; an always-on trace sees processes
 * come and go. Not while the start joins the providers (none is gone
 * then; the loop holds the next one).
 */
static void evict_gone(struct manager *m, struct trace *t)
{
	struct provider *p, *oldest;

	if (t->mode != FXT_BUFFERING_CIRCULAR || !t->state_live)
		return;
	while (!memory_budget_fits(t->req.memory_budget, trace_memory_used(t),
				   t->buffer_size)) {
		oldest = NULL;
		for (p = m->providers; p; p = p->next)
			if (p->in_trace && p->fd < 0 &&
			    (!oldest || p->id < oldest->id))
				oldest = p;
		if (!oldest) {
			if (unlist_not_back(t))
				continue;
			return;
		}
		log_full(LOG_INFO, 0, PROVIDER_LOG_FIELDS(oldest),
			 "Provider %s[%d], gone, leaves trace %s: its buffer makes room within the memory budget (what it recorded is dropped)",
			 oldest->name, (int)oldest->pid, t->id);
		unlist_provider(t, oldest->id);
		provider_leave_trace(oldest);
	}
}

/*
 * The trace's memory budget (tracectl start --memory-budget): a buffer
 * that would go over it is not given (memory_budget.h says why not a
 * smaller one), unless providers gone give theirs up.
 */
int trace_check_memory_budget(struct manager *m, struct provider *p)
{
	struct trace *t = m->trace;
	uint64_t used;

	evict_gone(m, t);
	used = trace_memory_used(t);
	if (memory_budget_fits(t->req.memory_budget, used, t->buffer_size))
		return 0;
	p->over_memory_budget = true;
	if (log_burst_take(&m->over_budget, m->event))
		log_full(LOG_WARNING, 0, PROVIDER_LOG_FIELDS(p),
			 "Provider %s[%d] gets no buffer: trace %s holds %llu bytes of its memory budget of %llu, a buffer is %llu (tracectl start --memory-budget)",
			 p->name, (int)p->pid, t->id, (unsigned long long)used,
			 (unsigned long long)t->req.memory_budget,
			 (unsigned long long)t->buffer_size);
	return -ENOSPC;
}
