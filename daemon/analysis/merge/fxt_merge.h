/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracectl merge: several FXT archives, from several hosts, into one
 * timeline (merge_host.h says how each input's records are renamed).
 *
 * Two streaming passes over each input, in bounded memory whatever the
 * inputs hold: the first hops over its records to its host and clock
 * records (merge_skim.h); the second decodes and rewrites its records,
 * one input after the other (FXT does not require time order). An input
 * with a malformed record is refused, with its offset: by the first pass
 * when it cannot hop over it, else by the second, whose caller then
 * removes the partial output.
 *
 *	struct merge_host hosts[n] = { { .path = ..., .fd = ... }, ... };
 *	ret = fxt_merge_prepare(hosts, n, &opt, &problem)
 *		?: fxt_merge_write(hosts, n, out_fd, &opt, &problem);
 *	fxt_merge_release(hosts, n);
 */
#ifndef FXT_MERGE_H
#define FXT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "merge_host.h"

struct fxt_merge_options {
	/*
	 * Inputs without clock records (or all, when the first has none)
	 * are taken as already on the first input's clock.
	 */
	bool assume_aligned;
	/*
	 * The merged archive's own trace id (32 hex, fresh: trace_id.h),
	 * in its host record (merge_mark.h); NULL: "".
	 */
	const char *trace_id;
	/* Large records over this are refused; 0: 16 MiB. */
	uint64_t max_large_record_bytes;
};

#define FXT_MERGE_LARGE_RECORD_MAX (16ull << 20)

/* Why a merge failed: the input (its index), where, and what. */
struct fxt_merge_problem {
	bool set;
	size_t host;
	bool has_offset;
	uint64_t offset;
	char reason[320];
};

/*
 * The first pass over every input, then their names and clock lines. 0,
 * or -errno with *problem saying why:
 *   -EBADMSG  an input is not FXT, or has a record it cannot hop over
 *   -ENODATA  an input has no clock record (without assume_aligned)
 *   -ERANGE   an input's clock readings are impossible (merge_clock.h)
 *   -E2BIG    more than MERGE_HOSTS_MAX inputs
 *   -ENOMEM, or a read error
 */
int fxt_merge_prepare(struct merge_host *hosts, size_t n,
		      const struct fxt_merge_options *opt,
		      struct fxt_merge_problem *problem);
/*
 * The second pass: the merged archive to out_fd, and each input's CPU
 * numbers and counts in its merge_host. 0, or -errno with *problem saying
 * why: a malformed record, more CPUs or providers than the output's
 * fields hold, a write error (problem->host is n then).
 */
int fxt_merge_write(struct merge_host *hosts, size_t n, int out_fd,
		    const struct fxt_merge_options *opt,
		    struct fxt_merge_problem *problem);
void fxt_merge_release(struct merge_host *hosts, size_t n);

#endif /* FXT_MERGE_H */
