/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hosts of a merged archive (tracectl merge), for the host column of
 * its rows: the inputs its "merge" records name, in order, and the CPU
 * numbers its "merge_cpus" records give each (<fxt/host_clock.h>). A row
 * carries the host its pid's host bits name, a scheduling row the host
 * whose CPUs hold its CPU; a row neither names (a pid the merge left
 * wide, an archive that is no merge: no hosts) carries the archive's
 * hostname.
 */
#ifndef FXT_EXPORT_HOSTS_H
#define FXT_EXPORT_HOSTS_H

#include <stddef.h>
#include <stdint.h>

#include "host_clock.h"

struct export_host {
	char name[FXT_MERGE_HOST_LEN_MAX + 1];
	size_t len;
	uint64_t cpu_base, cpus; /* cpus 0: none known */
};

struct export_hosts {
	struct export_host *v;
	size_t n;
};

/*
 * A callback of fxt_host_clock_scan_with(), ctx the export_hosts: takes
 * rec if it is a "merge" or "merge_cpus" record. 0 or -ENOMEM.
 */
int export_hosts_take(void *ctx, const struct fxt_record *rec);
void export_hosts_free(struct export_hosts *hs);

/* The input of a merged pid or tid; NULL: none (or hs NULL). */
const struct export_host *export_hosts_by_pid(const struct export_hosts *hs,
					      uint64_t pid);
/* The input whose CPUs hold the output's CPU cpu; NULL: none. */
const struct export_host *export_hosts_by_cpu(const struct export_hosts *hs,
					      uint64_t cpu);

#endif /* FXT_EXPORT_HOSTS_H */
