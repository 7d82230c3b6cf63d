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
 *   previous input's.
 * - Time: ticks become nanoseconds (the output writes 1 tick = 1 ns) of
 *   the first input's trace clock, through REALTIME and the inputs' clock
 *   records (merge_time.h).
 */
#ifndef FXT_MERGE_HOST_H
#define FXT_MERGE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <fxt/kirq.h>

#include "fxt_reader.h"
#include "host_clock.h"

#define MERGE_HOSTS_MAX 256u
#define MERGE_PID_BITS 22u
#define MERGE_WIDE_KOID_SHIFT 48u
/* The CPU field of a scheduling record: 16 bits. */
#define MERGE_CPUS_MAX 65536u
/* Distinct provider ids of one input, provider events' included. */
#define MERGE_PROVIDERS_MAX 4096u
/* "hostname" of the host record (64 bytes) and "#NNN" to tell apart twins. */
#define MERGE_HOST_NAME_MAX 72u

struct merge_host_stats {
	uint64_t records;
	uint64_t bytes;
	uint64_t buffer_overflows;	/* provider events: drops, kept */
	uint64_t nonconforming;		/* copied as they are */
	uint64_t unknown_skipped;	/* records the reader did not know */
	uint64_t wide_koids;		/* koids past the 32-bit namespace */
	uint64_t blobs_dropped;		/* Perfetto blobs of another clock */
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
	const struct fxt_host_clock *onto;	/* the first input's */
	bool has_cpus;
	unsigned int cpu_max;		/* the highest CPU its records name */
	unsigned int cpu_base;		/* its CPU 0 in the output */
	uint32_t *provider_ids;		/* sorted; output id: base + rank */
	size_t nproviders;
	uint32_t provider_base;
	struct merge_host_stats stats;
};

static inline uint64_t merge_koid(struct merge_host *h, uint64_t koid)
{
	uint64_t cpu = koid - FXT_KIRQ_IDLE_KOID_BASE;

	if (koid < (1ull << MERGE_PID_BITS))
		return (uint64_t)h->index << MERGE_PID_BITS | koid;
	if (koid >= FXT_KIRQ_IDLE_KOID_BASE && h->has_cpus && cpu <= h->cpu_max)
		return FXT_KIRQ_IDLE_KOID_BASE + h->cpu_base + cpu;
	if (h->index)
		h->stats.wide_koids++;
	return koid ^ (uint64_t)h->index << MERGE_WIDE_KOID_SHIFT;
}

static inline unsigned int merge_cpu(const struct merge_host *h,
				     unsigned int cpu)
{
	return h->cpu_base + cpu;
}

/* Ticks of provider p of the input in nanoseconds of the output's clock. */
static inline uint64_t merge_time(const struct merge_host *h,
				  const struct fxt_provider *p, uint64_t ticks)
{
	uint64_t ns = fxt_ticks_to_ns(p, ticks);

	if (!h->clock_mapped)
		return ns;
	return fxt_host_clock_from_realtime(
		h->onto, fxt_host_clock_to_realtime(&h->hc, ns));
}

/* The output id of the input's provider id (one the first pass saw). */
uint32_t merge_provider_id(const struct merge_host *h, uint32_t id);

/*
 * Remembers a provider id of the input; -E2BIG past
 * MERGE_PROVIDERS_MAX distinct ids, -ENOMEM.
 */
int merge_host_add_provider(struct merge_host *h, uint32_t id);

/* Notes a CPU named by the input (a scheduling record, an idle koid). */
void merge_host_add_cpu(struct merge_host *h, uint64_t cpu);
void merge_host_add_idle_koid(struct merge_host *h, uint64_t koid);

/*
 * The name: the host record's hostname, else "host<index + 1>"; a name an
 * earlier input has gets "#<index + 1>" after it.
 */
void merge_host_name(struct merge_host *h, const struct merge_host *hosts);

void merge_host_release(struct merge_host *h);

#endif /* FXT_MERGE_HOST_H */
