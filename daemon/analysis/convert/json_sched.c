// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling records as CPU tracks: a synthetic process "CPUs"
 * (FXT_JSON_CPUS_PID, which no Linux pid reaches) with one thread
 * "CPU n" (tid n) per CPU. Each stretch a thread runs becomes an X slice
 * "<thread name> <tid>" from switch-in to switch-out; the idle thread
 * (tid 0, or weight INT32_MIN) draws nothing. Wakeups are instants on the
 * CPU where they happened, with the waker in args.
 */
#include <errno.h>

#include "json_emit.h"
#include "json_sched.h"

static void put_cpu_label(struct text_out *w, unsigned int n)
{
	text_put_lit(w, "\"CPU ");
	text_put_u64(w, n);
	text_put_char(w, '"');
}

static void name_cpu(struct converter *c, unsigned int n)
{
	struct text_out *w = &c->w;

	if (!c->cpus_process_named) {
		c->cpus_process_named = true;
		conv_process_name(c, FXT_JSON_CPUS_PID, "CPUs", 4);
		conv_begin_event(c, 'M');
		text_put_lit(w, ",\"name\":\"process_sort_index\"");
		conv_put_thread(c, FXT_JSON_CPUS_PID, 0);
		text_put_lit(w, ",\"args\":{\"sort_index\":-1}}");
	}
	conv_begin_event(c, 'M');
	text_put_lit(w, ",\"name\":\"thread_name\"");
	conv_put_thread(c, FXT_JSON_CPUS_PID, n);
	text_put_lit(w, ",\"args\":{\"name\":");
	put_cpu_label(w, n);
	text_put_lit(w, "}}");
	/* Numeric order: by name, "CPU 10" would sort before "CPU 2". */
	conv_begin_event(c, 'M');
	text_put_lit(w, ",\"name\":\"thread_sort_index\"");
	conv_put_thread(c, FXT_JSON_CPUS_PID, n);
	text_put_lit(w, ",\"args\":{\"sort_index\":");
	text_put_u64(w, n);
	text_put_lit(w, "}}");
}

/* "<name> <tid>", or "thread <tid>" for a thread never named. */
static void put_thread_label(struct text_out *w, const char *prefix,
			     size_t prefix_len, const struct name_entry *e,
			     uint64_t tid)
{
	text_put_char(w, '"');
	text_put_mem(w, prefix, prefix_len);
	if (e)
		text_put_json_part(w, e->name, e->name_len);
	else
		text_put_lit(w, "thread");
	text_put_char(w, ' ');
	text_put_u64(w, tid);
	text_put_char(w, '"');
}

static void put_thread_args(struct converter *c, const struct name_entry *e,
			    uint64_t tid, uint64_t pid)
{
	text_put_lit(&c->w, ",\"args\":{\"tid\":");
	text_put_u64(&c->w, tid);
	if (!pid && e)
		pid = e->pid;
	if (pid) {
		conv_put_key(&c->w, "pid");
		text_put_u64(&c->w, pid);
	}
}

static void close_slice(struct converter *c, unsigned int n,
			struct cpu_state *cpu, uint64_t end_ns,
			const char *end_state)
{
	struct text_out *w = &c->w;
	const struct name_entry *e;

	if (!cpu->running)
		return;
	cpu->running = false;
	e = name_cache_find(c->names, NAME_THREAD, cpu->tid);
	conv_begin_event(c, 'X');
	text_put_lit(w, ",\"name\":");
	put_thread_label(w, "", 0, e, cpu->tid);
	text_put_lit(w, ",\"cat\":\"sched\",\"ts\":");
	text_put_thousandths(w, cpu->start_ns);
	text_put_lit(w, ",\"dur\":");
	text_put_thousandths(w, end_ns > cpu->start_ns ?
				   end_ns - cpu->start_ns : 0);
	conv_put_thread(c, FXT_JSON_CPUS_PID, n);
	put_thread_args(c, e, cpu->tid, cpu->pid);
	if (cpu->has_weight) {
		conv_put_key(w, "weight");
		text_put_i64(w, cpu->weight);
	}
	if (cpu->has_prio) {
		conv_put_key(w, "priority");
		text_put_u64(w, cpu->prio);
	}
	if (end_state) {
		conv_put_key(w, "end_state");
		text_put_json_string(w, end_state, strlen(end_state));
	}
	text_put_lit(w, "}}");
}

static void context_switch(struct converter *c, const struct fxt_record *rec,
			   struct cpu_state *cpu, uint64_t ns)
{
	close_slice(c, rec->sched.cpu, cpu, ns,
		    fxt_thread_state_name(rec->sched.out_state));
	cpu_state_switch_in(cpu, rec, ns);
}

static void wakeup(struct converter *c, const struct fxt_record *rec,
		   uint64_t ns)
{
	const struct fxt_thread_id *woken = &rec->sched.woken;
	const struct name_entry *e;
	struct text_out *w = &c->w;

	e = name_cache_find(c->names, NAME_THREAD, woken->tid);
	conv_begin_event(c, 'i');
	text_put_lit(w, ",\"name\":");
	put_thread_label(w, "wakeup ", 7, e, woken->tid);
	text_put_lit(w, ",\"cat\":\"sched\",\"s\":\"t\",\"ts\":");
	text_put_thousandths(w, ns);
	conv_put_thread(c, FXT_JSON_CPUS_PID, rec->sched.cpu);
	put_thread_args(c, e, woken->tid, woken->pid);
	conv_put_args(c, rec, false);
	text_put_lit(w, "}}");
}

struct cpu_state *conv_cpu_track(struct converter *c, unsigned int n)
{
	struct cpu_state *cpu = cpu_tracks_get(&c->cpus, n);

	if (!cpu) {
		c->err = -ENOMEM;
		return NULL;
	}
	if (!cpu->named) {
		cpu->named = true;
		name_cpu(c, n);
	}
	return cpu;
}

void conv_sched(struct converter *c, const struct fxt_record *rec)
{
	uint64_t ns = conv_ns(rec->provider, rec->sched.ts);
	struct cpu_state *cpu = conv_cpu_track(c, rec->sched.cpu);

	if (!cpu)
		return;
	if (ns > c->last_sched_ns)
		c->last_sched_ns = ns;
	switch (rec->sched.type) {
	case FXT_SCHED_CONTEXT_SWITCH:
	case FXT_SCHED_LEGACY_CONTEXT_SWITCH:
		context_switch(c, rec, cpu, ns);
		break;
	case FXT_SCHED_THREAD_WAKEUP:
		wakeup(c, rec, ns);
		break;
	default:
		c->stats->unconverted++;
		break;
	}
}

void conv_sched_finish(struct converter *c)
{
	unsigned int n;

	for (n = 0; n < c->cpus.count; n++)
		close_slice(c, n, &c->cpus.cpu[n], c->last_sched_ns, NULL);
}
