/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One input of tracectl merge: the host it came from and how its records
 * are renamed in the merged timeline, so that the records of several
 * hosts cannot be mistaken for one another.
 *
 * - Koids: Perfetto's FXT importer keeps the low 32 bits of a pid or tid
 *   (its thread and process tables are 32-bit), so the host goes into
 *   those: a Linux pid or tid (below PID_MAX_LIMIT = 2^22) becomes
 *   host << 22 | koid, for at most 256 hosts; the idle thread of a CPU
 *   (FXT_KIRQ_IDLE_KOID_BASE + cpu) follows its CPU's new number. Any
 *   other koid gets the host in bits 48..55: distinct in FXT, but not
 *   where a reader keeps 32 bits (counted: merge_host.stats.wide_koids).
 *   The first input's koids stay as they are.
 * - CPUs: host k's CPUs follow host k-1's.
 * - Providers: each input's provider ids are numbered anew, after the
 *   previous input's, in the order they come.
 * - Stacks: each input's mapping, frame and stack ids follow the ids of
 *   the inputs before it (merge_stacks.h).
 * - Time: ticks become nanoseconds (the output writes 1 tick = 1 ns) of
 *   the first input's trace clock, through REALTIME and the inputs' clock
 *   records (struct merge_clock_line).
 */
#ifndef FXT_MERGE_HOST_H
#define FXT_MERGE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/kirq.h>

#include "fxt_reader.h"
#include "fxt_saturate.h"
#include "host_clock.h"
#include "merge_stacks.h"

#define MERGE_HOSTS_MAX ((unsigned int)FXT_MERGE_INPUTS_MAX)
#define MERGE_PID_BITS FXT_MERGE_PID_BITS
#define MERGE_WIDE_KOID_SHIFT 48u
/* The CPU field of a scheduling record: 16 bits. */
#define MERGE_CPUS_MAX 65536u
/* Distinct provider ids of one input, provider events' included. */
#define MERGE_PROVIDERS_MAX 4096u
/* "hostname" of the host record (64 bytes) and "#NNN" to tell apart twins. */
#define MERGE_HOST_NAME_MAX (FXT_MERGE_HOST_LEN_MAX + 1u)

struct merge_host_stats {
	uint64_t records;
	uint64_t bytes;
	uint64_t buffer_overflows;	/* provider events: drops, kept */
	uint64_t nonconforming;		/* copied as they are */
	uint64_t unknown_skipped;	/* records the reader did not know */
	uint64_t wide_koids;		/* koids past the 32-bit namespace */
	/* Perfetto blobs (merge_perfetto.h) */
	uint64_t perfetto_blobs;	/* of the input */
	uint64_t perfetto_blobs_out;	/* written, rewritten */
	uint64_t perfetto_packets;	/* rewritten */
	uint64_t perfetto_packets_dropped; /* do not parse, or cut */
	uint64_t perfetto_blobs_dropped; /* after the framing was lost */
};

/* An input's provider id and the id it has in the output. */
struct merge_provider {
	uint32_t in, out;
};

/*
 * The line that puts an input's times on the output's clock: its start
 * reading's time (x0) lands at y0, and times after it run at slope (the
 * drifts of both hosts' clocks against wall time). Both points of the
 * line come from the host_clock.h maps; between and beyond them the line
 * is the same, so it is computed once and followed in floating point
 * from x0 (exact to well under 1 ns for a day's distance).
 */
struct merge_clock_line {
	uint64_t x0, y0;
	double slope;
};

struct merge_host {
	unsigned int index;		/* in the merge: 0 is the first input */
	const char *path;
	int fd;				/* read twice: a seekable file */
	char name[MERGE_HOST_NAME_MAX];	/* hostname, else "hostN" */
	struct fxt_host_clock hc;
	/*
	 * Whether its times go through REALTIME onto the first input's
	 * clock (both have clock records); else they are taken as they are
	 * (the first input, or --assume-aligned).
	 */
	bool clock_mapped;
	struct merge_clock_line line;
	/* CPUs: known once its records are written */
	bool has_cpus;
	unsigned int cpu_max;		/* the highest CPU its records name */
	unsigned int cpu_base;		/* its CPU 0 in the output */
	/* providers, sorted by input id, numbered as they come */
	struct merge_provider *providers;
	size_t nproviders;
	struct merge_stack_ids stack_ids;
	struct merge_host_stats stats;
};

/* A CPU named by the input (a scheduling record, an idle thread's koid). */
static inline void merge_host_add_cpu(struct merge_host *h, uint64_t cpu)
{
	if (cpu >= MERGE_CPUS_MAX)
		return;
	if (!h->has_cpus || cpu > h->cpu_max)
		h->cpu_max = (unsigned int)cpu;
	h->has_cpus = true;
}

static inline uint64_t merge_koid(struct merge_host *h, uint64_t koid)
{
	uint64_t cpu = koid - FXT_KIRQ_IDLE_KOID_BASE;

	if (koid < (1ull << MERGE_PID_BITS))
		return (uint64_t)h->index << MERGE_PID_BITS | koid;
	if (koid >= FXT_KIRQ_IDLE_KOID_BASE && cpu < MERGE_CPUS_MAX) {
		merge_host_add_cpu(h, cpu);
		return FXT_KIRQ_IDLE_KOID_BASE + h->cpu_base + cpu;
	}
	if (h->index)
		h->stats.wide_koids++;
	return koid ^ (uint64_t)h->index << MERGE_WIDE_KOID_SHIFT;
}

/* The output's number of the input's CPU; UINT_MAX past the field. */
static inline unsigned int merge_cpu(struct merge_host *h, unsigned int cpu)
{
	merge_host_add_cpu(h, cpu);
	return (uint64_t)h->cpu_base + cpu < MERGE_CPUS_MAX ? h->cpu_base + cpu :
							      UINT32_MAX;
}

/* ns of the input's clock on the output's, saturating. */
static inline uint64_t merge_clock(const struct merge_host *h, uint64_t ns)
{
	const struct merge_clock_line *l = &h->line;
	uint64_t back;
	double d;

	if (!h->clock_mapped)
		return ns;
	/* the distance in integers: a double holds ns to 2^53 only */
	d = ns >= l->x0 ? (double)(ns - l->x0) * l->slope :
			  -((double)(l->x0 - ns) * l->slope);
	if (d >= 0x1p63)
		return UINT64_MAX;
	if (d <= -0x1p63)
		return 0;
	if (d >= 0)
		return fxt_sat_add(l->y0, (uint64_t)(d + 0.5));
	back = (uint64_t)(-d + 0.5);
	return back > l->y0 ? 0 : l->y0 - back;
}

/* Ticks of provider p of the input in nanoseconds of the output's clock. */
static inline uint64_t merge_time(const struct merge_host *h,
				  const struct fxt_provider *p, uint64_t ticks)
{
	return merge_clock(h, fxt_ticks_to_ns(p, ticks));
}

/*
 * h's clock line onto first's (merge_clock_line); -EDOM if it has none
 * (no clock reading on either side).
 */
int merge_host_clock_line(struct merge_host *h,
			  const struct merge_host *first);

/*
 * The output id of the input's provider id: *next_id, taken, on its
 * first sight. 0, or -E2BIG past MERGE_PROVIDERS_MAX ids, -ENOMEM.
 */
int merge_provider_id(struct merge_host *h, uint32_t id, uint32_t *next_id,
		      uint32_t *out);

/*
 * The name: the host record's hostname, else "host<index + 1>"; a name an
 * earlier input has gets "#<index + 1>" after it.
 */
void merge_host_name(struct merge_host *h, const struct merge_host *hosts);

void merge_host_release(struct merge_host *h);

#endif /* FXT_MERGE_HOST_H */
