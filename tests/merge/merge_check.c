// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reads a merge of merge_gen's archives back and checks what the merge
 * promises: the ticks of every host at the same moments (within 1 ms),
 * each host's pids, tids and idle threads in its own namespace, its CPUs
 * after the previous host's, its process and provider names prefixed,
 * its buffer overflow and host and clock records kept, 1 tick = 1 ns;
 * and the merge's own manager section: one host record whose trace id
 * is none of the inputs' (merge_gen's: the hostname in hex), the first
 * input's two clock readings, a "merge" record per input in order with
 * its name and trace id.
 *
 *   merge_check FILE HOST:CPUS...     (in the order of the merge)
 *
 * Prints the largest misalignment; exit 1 after naming each failure.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fxt/kirq.h>

#include "fxt_reader.h"

#define HOSTS_MAX 8
#define TICKS 201u
#define PROVIDERS_MAX 64
#define NS 1000000000ull

struct host {
	char name[64];
	unsigned int cpus, cpu_base;
	uint64_t tick_ts[TICKS];
	bool tick_seen[TICKS];
	unsigned int ticks, switches, wakeups, overflows, host_records, clocks;
};

static struct host hosts[HOSTS_MAX];
/* The merge's own records (provider "fxtraced"). */
static struct {
	unsigned int host_records, clocks, inputs;
	char trace_id[33];
} own;
static unsigned int nhosts;
static struct { uint32_t id; char name[256]; } providers[PROVIDERS_MAX];
static unsigned int nproviders;
static unsigned int failures;

__attribute__((format(printf, 2, 3))) static void fail(uint64_t offset,
						       const char *fmt, ...)
{
	va_list ap;

	if (++failures > 20)
		return;
	printf("FAIL at 0x%" PRIx64 ": ", offset);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static uint64_t koid(unsigned int h, uint64_t k)
{
	return (uint64_t)h << 22 | k;
}

/* The host of a provider called "host/name" or "host". */
static int host_of(struct fxt_str p)
{
	unsigned int i;

	for (i = 0; i < nhosts; i++) {
		size_t len = strlen(hosts[i].name);

		if (p.len >= len && !memcmp(p.data, hosts[i].name, len) &&
		    (p.len == len || p.data[len] == '/'))
			return (int)i;
	}
	return -1;
}

static const char *provider_name(uint32_t id)
{
	unsigned int i;

	for (i = 0; i < nproviders; i++)
		if (providers[i].id == id)
			return providers[i].name;
	return "";
}

static uint64_t arg_value(const struct fxt_record *rec, const char *name)
{
	const struct fxt_arg *a = fxt_record_arg(rec, name, strlen(name));

	return a ? a->value.u64 : UINT64_MAX;
}

static void check_tick(struct host *hs, unsigned int h,
		       const struct fxt_record *rec)
{
	uint64_t n = arg_value(rec, "n");

	if (rec->event.thread.pid != koid(h, 100) ||
	    rec->event.thread.tid != koid(h, 101))
		fail(rec->offset, "host %u tick on pid %" PRIu64 " tid %" PRIu64,
		     h, rec->event.thread.pid, rec->event.thread.tid);
	if (arg_value(rec, "peer") != koid(h, 102))
		fail(rec->offset, "host %u tick's koid argument %" PRIu64, h,
		     arg_value(rec, "peer"));
	if (n >= TICKS || hs->tick_seen[n]) {
		fail(rec->offset, "host %u tick %" PRIu64 " unexpected", h, n);
		return;
	}
	hs->tick_seen[n] = true;
	hs->tick_ts[n] = rec->event.ts;
	hs->ticks++;
}

static void check_event(struct host *hs, unsigned int h,
			const struct fxt_record *rec)
{
	if (fxt_str_is(rec->event.category, "fxtrace")) {
		if (rec->event.thread.pid != koid(h, 0))
			fail(rec->offset, "host %u manager pid %" PRIu64, h,
			     rec->event.thread.pid);
		hs->host_records += fxt_str_is(rec->event.name, "host");
		hs->clocks += fxt_str_is(rec->event.name, "clock");
	} else if (fxt_str_is(rec->event.name, "tick")) {
		check_tick(hs, h, rec);
	} else if (fxt_str_is(rec->event.name, "span")) {
		if (rec->event.thread.pid != koid(h, 100) ||
		    rec->event.thread.tid != koid(h, 102))
			fail(rec->offset, "host %u span on inline pid %" PRIu64,
			     h, rec->event.thread.pid);
		if (rec->event.extra - rec->event.ts > 1001000 ||
		    rec->event.extra - rec->event.ts < 999000)
			fail(rec->offset, "host %u span lasts %" PRIu64 " ns", h,
			     rec->event.extra - rec->event.ts);
	}
}

static void check_object(const struct host *hs, unsigned int h,
			 const struct fxt_record *rec)
{
	uint64_t k = rec->kernel_object.koid;
	char want[128];

	if (rec->kernel_object.obj_type == FXT_ZX_OBJ_PROCESS) {
		snprintf(want, sizeof(want), "%s/app", hs->name);
		if (!fxt_str_is(rec->kernel_object.name, want) ||
		    k != koid(h, 100))
			fail(rec->offset, "host %u process %" PRIu64 " '%.*s', want '%s'",
			     h, k, (int)rec->kernel_object.name.len,
			     rec->kernel_object.name.data, want);
		return;
	}
	if (fxt_str_is(rec->kernel_object.name, "app-worker")) {
		if (k != koid(h, 101) || arg_value(rec, "process") != koid(h, 100))
			fail(rec->offset, "host %u thread koid %" PRIu64, h, k);
		return;
	}
	/* swapper/N: the idle thread of the CPU's new number */
	if (k - FXT_KIRQ_IDLE_KOID_BASE < hs->cpu_base ||
	    k - FXT_KIRQ_IDLE_KOID_BASE >= hs->cpu_base + hs->cpus ||
	    arg_value(rec, "process") != koid(h, 0))
		fail(rec->offset, "host %u idle thread koid 0x%" PRIx64, h, k);
}

static void check_sched(struct host *hs, unsigned int h,
			const struct fxt_record *rec)
{
	unsigned int cpu = rec->sched.cpu;

	if (cpu < hs->cpu_base || cpu >= hs->cpu_base + hs->cpus)
		fail(rec->offset, "host %u record on CPU %u, want %u-%u", h, cpu,
		     hs->cpu_base, hs->cpu_base + hs->cpus - 1);
	if (rec->sched.type == FXT_SCHED_THREAD_WAKEUP) {
		if (rec->sched.woken.tid != koid(h, 101) ||
		    arg_value(rec, "waker") != koid(h, 102))
			fail(rec->offset, "host %u wakeup of %" PRIu64, h,
			     rec->sched.woken.tid);
		hs->wakeups++;
		return;
	}
	if (rec->sched.in_thread.tid != koid(h, 101) ||
	    rec->sched.out_thread.tid != FXT_KIRQ_IDLE_KOID_BASE + cpu)
		fail(rec->offset, "host %u switch 0x%" PRIx64 " -> %" PRIu64 " on CPU %u",
		     h, rec->sched.out_thread.tid, rec->sched.in_thread.tid, cpu);
	hs->switches++;
}

static void check_metadata(const struct fxt_record *rec)
{
	struct fxt_str n = rec->metadata.provider_name;
	int h;

	if (rec->metadata.type == FXT_METADATA_PROVIDER_INFO &&
	    nproviders < PROVIDERS_MAX) {
		providers[nproviders].id = rec->metadata.provider_id;
		snprintf(providers[nproviders++].name, 256, "%.*s", (int)n.len,
			 n.data);
	}
	if (rec->metadata.type != FXT_METADATA_PROVIDER_EVENT)
		return;
	n.data = provider_name(rec->metadata.provider_id);
	n.len = (uint32_t)strlen(n.data);
	h = host_of(n);
	if (h < 0 || !strstr(n.data, "/app"))
		fail(rec->offset, "overflow of provider %" PRIu32 " '%s'",
		     rec->metadata.provider_id, n.data);
	else
		hosts[h].overflows++;
}

/* merge_gen's trace id of a host: its name's first 16 bytes in hex. */
static const char *input_id(const struct host *h, char *id)
{
	size_t len = strlen(h->name);
	unsigned int i;

	for (i = 0; i < 16; i++)
		snprintf(id + 2 * i, 3, "%02x",
			 i < len ? (unsigned char)h->name[i] : 0);
	return id;
}

static void string_arg(const struct fxt_record *rec, const char *name,
		       char *out, size_t size)
{
	const struct fxt_arg *a = fxt_record_arg(rec, name, strlen(name));

	if (a && a->type == FXT_ARG_STRING)
		snprintf(out, size, "%.*s", (int)a->value.str.len,
			 a->value.str.data);
	else
		snprintf(out, size, "(none)");
}

static void check_own(const struct fxt_record *rec)
{
	char host[128], id[64], want[33];

	if (rec->type != FXT_RECORD_EVENT)
		return;
	if (fxt_str_is(rec->event.name, "host")) {
		own.host_records++;
		string_arg(rec, "trace_id", own.trace_id, sizeof(own.trace_id));
	} else if (fxt_str_is(rec->event.name, "clock")) {
		own.clocks++;
	} else if (fxt_str_is(rec->event.name, "merge")) {
		string_arg(rec, "host", host, sizeof(host));
		string_arg(rec, "trace_id", id, sizeof(id));
		if (own.inputs >= nhosts ||
		    strcmp(host, hosts[own.inputs].name) ||
		    strcmp(id, input_id(&hosts[own.inputs], want)))
			fail(rec->offset, "merge record %u: host %s, trace %s",
			     own.inputs, host, id);
		own.inputs++;
	}
}

/* The merged archive: a trace of its own, listing its inputs. */
static void check_own_totals(void)
{
	char want[33];
	unsigned int h;

	if (own.host_records != 1 || own.clocks != 2 || own.inputs != nhosts)
		fail(0, "merge's own section: %u host, %u clock, %u merge records",
		     own.host_records, own.clocks, own.inputs);
	if (strlen(own.trace_id) != 32 ||
	    strspn(own.trace_id, "0123456789abcdef") != 32)
		fail(0, "merge's trace id '%s'", own.trace_id);
	for (h = 0; h < nhosts; h++)
		if (!strcmp(own.trace_id, input_id(&hosts[h], want)))
			fail(0, "merge's trace id is host %u's", h);
}

static void check_record(const struct fxt_record *rec)
{
	int h;

	if (rec->type != FXT_RECORD_METADATA && rec->provider &&
	    fxt_str_is(rec->provider->name, "fxtraced")) {
		check_own(rec);
		return;
	}

	if (rec->type == FXT_RECORD_METADATA) {
		check_metadata(rec);
		return;
	}
	if (rec->type == FXT_RECORD_INITIALIZATION &&
	    rec->init.ticks_per_second != NS)
		fail(rec->offset, "%" PRIu64 " ticks per second, want 1 ns",
		     rec->init.ticks_per_second);
	if (rec->type != FXT_RECORD_EVENT && rec->type != FXT_RECORD_SCHEDULING &&
	    rec->type != FXT_RECORD_KERNEL_OBJECT)
		return;
	h = rec->provider ? host_of(rec->provider->name) : -1;
	if (h < 0) {
		fail(rec->offset, "record of provider '%.*s', of no host",
		     rec->provider ? (int)rec->provider->name.len : 0,
		     rec->provider ? rec->provider->name.data : "");
		return;
	}
	if (rec->type == FXT_RECORD_EVENT)
		check_event(&hosts[h], (unsigned int)h, rec);
	else if (rec->type == FXT_RECORD_SCHEDULING)
		check_sched(&hosts[h], (unsigned int)h, rec);
	else
		check_object(&hosts[h], (unsigned int)h, rec);
}

/* Every host's tick n within 1 ms of the first's; returns the largest gap. */
static uint64_t check_alignment(void)
{
	uint64_t worst = 0, d;
	unsigned int h, n;

	for (h = 0; h < nhosts; h++) {
		if (hosts[h].ticks != TICKS || hosts[h].switches != TICKS ||
		    hosts[h].wakeups != TICKS || hosts[h].overflows != 1 ||
		    hosts[h].host_records != 1 || hosts[h].clocks != 2)
			fail(0, "host %u: %u ticks, %u switches, %u wakeups, %u overflows, %u host and %u clock records",
			     h, hosts[h].ticks, hosts[h].switches, hosts[h].wakeups,
			     hosts[h].overflows, hosts[h].host_records,
			     hosts[h].clocks);
		for (n = 0; h && n < TICKS; n++) {
			if (!hosts[h].tick_seen[n] || !hosts[0].tick_seen[n])
				continue;
			d = hosts[h].tick_ts[n] > hosts[0].tick_ts[n] ?
				    hosts[h].tick_ts[n] - hosts[0].tick_ts[n] :
				    hosts[0].tick_ts[n] - hosts[h].tick_ts[n];
			worst = d > worst ? d : worst;
			if (d > 1000000)
				fail(0, "host %u tick %u at %" PRIu64 ", host 0's at %" PRIu64,
				     h, n, hosts[h].tick_ts[n], hosts[0].tick_ts[n]);
		}
	}
	return worst;
}

static void check_provider_ids(void)
{
	unsigned int i, j;

	for (i = 0; i < nproviders; i++)
		for (j = 0; j < i; j++)
			if (providers[i].id == providers[j].id &&
			    strcmp(providers[i].name, providers[j].name))
				fail(0, "provider id %" PRIu32 " is '%s' and '%s'",
				     providers[i].id, providers[i].name,
				     providers[j].name);
}

int main(int argc, char **argv)
{
	const struct fxt_reader_options opt = { .expect_magic = true };
	struct fxt_reader *r;
	struct fxt_record rec;
	unsigned int cpus = 0;
	uint64_t worst;
	FILE *f;
	int i;

	for (i = 2; i < argc && nhosts < HOSTS_MAX; i++, nhosts++) {
		struct host *h = &hosts[nhosts];

		if (sscanf(argv[i], "%63[^:]:%u", h->name, &h->cpus) != 2)
			return 2;
		h->cpu_base = cpus;
		cpus += h->cpus;
	}
	f = argc > 2 ? fopen(argv[1], "rb") : NULL;
	r = f ? fxt_reader_open_file(f, &opt) : NULL;
	if (!r) {
		fprintf(stderr, "usage: merge_check FILE HOST:CPUS...\n");
		return 2;
	}
	while (fxt_reader_next(r, &rec) > 0)
		check_record(&rec);
	if (fxt_reader_stats(r)->malformed || fxt_reader_stats(r)->nonconforming)
		fail(0, "the merge does not decode cleanly");
	fxt_reader_close(r);
	fclose(f);
	check_provider_ids();
	check_own_totals();
	worst = check_alignment();
	printf("%u hosts, largest misalignment %" PRIu64 " ns\n", nhosts, worst);
	if (failures)
		printf("%u failure(s)\n", failures);
	return failures ? 1 : 0;
}
